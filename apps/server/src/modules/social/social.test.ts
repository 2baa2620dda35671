import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { apiPaths } from '@kathamala/domain';
import { bearer, createTestApp, userOf, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const follow = (token: string | null, followed_id: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: apiPaths.follow(),
    headers: token ? bearer(token) : {},
    payload: { followed_id },
  });

const get = (url: string, token?: string) =>
  t.app.inject({ url, headers: token ? bearer(token) : {} });

describe('following users and authors', () => {
  it('toggles a follow and answers the followed user’s follower count', async () => {
    const author = await t.newAuthor('Follow Writer');
    const a = await t.signup();
    const b = await t.signup();

    let res = await follow(a, author.userId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ code: 0, object: { following: true, followers: 1 } });
    res = await follow(b, author.userId);
    expect(res.json().object).toEqual({ following: true, followers: 2 });
    res = await follow(a, author.userId);
    expect(res.json().object).toEqual({ following: false, followers: 1 });
    res = await follow(a, author.userId);
    expect(res.json().object).toEqual({ following: true, followers: 2 });

    // A reader who is not an author can be followed too.
    res = await follow(a, userOf(b));
    expect(res.json().object).toEqual({ following: true, followers: 1 });
  });

  it('sets the state asked for (`following`): a second Follow stays, a second Unfollow too', async () => {
    const author = await t.newAuthor('Follow Writer');
    const me = await t.signup();
    const set = (following: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: apiPaths.follow(),
        headers: bearer(me),
        payload: { followed_id: author.userId, following },
      });
    for (const [wanted, followers] of [
      [true, 1],
      [true, 1],
      [false, 0],
      [false, 0],
      [true, 1],
    ] as const) {
      const res = await set(wanted);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().object).toEqual({ following: wanted, followers });
    }
    const state = await get(apiPaths.authorFollow(author.authorId), me);
    expect(state.json().object).toMatchObject({ following: true, followers: 1 });
    // Not a boolean: refused with a sentence, nothing changed.
    const bad = await set('yes');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/following/);
    expect((await get(apiPaths.authorFollow(author.authorId), me)).json().object.following).toBe(
      true,
    );
  });

  it('shows on the author page a follow made before the user became an author', async () => {
    const me = await t.signup();
    const later = await t.signup();
    await follow(me, userOf(later));
    const registered = await t.app.inject({
      method: 'POST',
      url: apiPaths.registerAuthor(),
      headers: bearer(later),
      payload: { name: `Later Author ${Date.now()}` },
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const { authorId } = registered.json().object;
    const res = await get(apiPaths.authorFollow(authorId), me);
    expect(res.json().object).toEqual({ userId: userOf(later), following: true, followers: 1 });
  });

  it('refuses following yourself (400), an unknown user (404), bad ids and visitors', async () => {
    const a = await t.signup();
    let res = await follow(a, userOf(a));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('You cannot follow yourself.');
    res = await follow(a, 99_999_999);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBeGreaterThan(0);
    res = await follow(a, 'x');
    expect(res.statusCode).toBe(400);
    res = await follow(a, 0);
    expect(res.statusCode).toBe(400);
    res = await follow(null, userOf(a));
    expect(res.statusCode).toBe(401);
  });

  it('lists whom the viewer follows, newest first, with author names', async () => {
    const author = await t.newAuthor('Follow Writer');
    const reader = await t.signup('Plain');
    const me = await t.signup();
    await follow(me, author.userId);
    await follow(me, userOf(reader));

    const res = await get(apiPaths.following(), me);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const list = res.json().object.list;
    expect(list).toHaveLength(2);
    const names = Object.fromEntries(list.map((f: { userId: number }) => [f.userId, f])) as Record<
      number,
      unknown
    >;
    expect(names[author.userId]).toMatchObject({
      userId: author.userId,
      authorId: author.authorId,
      authorName: expect.stringMatching(/^Follow Writer/),
    });
    expect(names[userOf(reader)]).toMatchObject({
      userId: userOf(reader),
      username: expect.stringMatching(/^Plain/),
      authorId: null,
      authorName: null,
    });
    expect((await get(apiPaths.following())).statusCode).toBe(401);
  });

  it('answers an author page’s follow state with or without a token', async () => {
    const author = await t.newAuthor('Follow Writer');
    const me = await t.signup();
    await follow(me, author.userId);

    let res = await get(apiPaths.authorFollow(author.authorId));
    expect(res.statusCode).toBe(200);
    expect(res.json().object).toEqual({ userId: author.userId, following: false, followers: 1 });
    res = await get(apiPaths.authorFollow(author.authorId), me);
    expect(res.json().object).toEqual({ userId: author.userId, following: true, followers: 1 });
    expect(res.headers['cache-control']).toBe('private, no-store');

    expect((await get(apiPaths.authorFollow(99_999_999))).statusCode).toBe(404);

    // An author without a user account cannot be followed.
    const rows = (
      (await t.database.db.execute(
        sql`insert into authors (name) values (${`No Account ${Date.now()}`}) returning id`,
      )) as unknown as { rows: { id: number }[] }
    ).rows;
    res = await get(apiPaths.authorFollow(rows[0]!.id), me);
    expect(res.json().object).toEqual({ userId: null, following: false, followers: 0 });
  });
});

describe('public profiles', () => {
  it('answers a reader’s name and since, and an author’s page, to anyone', async () => {
    const reader = await t.signup('Profile Reader');
    const res = await get(apiPaths.userProfile(userOf(reader)));
    expect(res.statusCode, res.body).toBe(200);
    const profile = res.json().object;
    // The community module's profile: these and its bio, picture, role and counts.
    expect(profile).toMatchObject({
      userId: userOf(reader),
      username: expect.stringMatching(/^Profile Reader/),
      since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      authorId: null,
    });
    expect(Date.now() - Date.parse(profile.since)).toBeLessThan(60_000);

    const author = await t.newAuthor('Profile Writer');
    const theirs = (await get(apiPaths.userProfile(author.userId))).json().object;
    expect(theirs.authorId).toBe(author.authorId);
  });

  it('answers 404 for no such reader and 400 for a bad id', async () => {
    expect((await get(apiPaths.userProfile(2_000_000_000))).statusCode).toBe(404);
    expect((await get('/api/v1/community/user/profile/abc')).statusCode).toBe(400);
  });
});
