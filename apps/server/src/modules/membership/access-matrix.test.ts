import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PRODUCT_APP_ID, ResultCode, apiPaths } from '@kathamala/domain';
import { bearer, createTestApp, type TestApp } from '../../test/helpers.ts';
import type { CarrierSimulator } from '../../adapters/simulator/simulator.ts';

/*
 * Who may read what, as Ghost tests its paywall: every kind of viewer against every kind of
 * story, through the part call (text or not), the preview's `subscribed`, and the premium list.
 * The members are made through the real flow: a code read from the simulator's outbox, typed
 * back; the lapsed member's charge fails at the carrier and reaches us through the webhook.
 * The reads go over real HTTP to the listening server, the path readers' phones take, with
 * every hook (rate limit, token check, kept answers) in the way.
 */

let t: TestApp;
let sim: CarrierSimulator;

type ViewerName =
  'visitor' | 'reader' | 'member' | 'otherAppMember' | 'lapsedMember' | 'author' | 'otherAuthor';
type StoryName = 'free' | 'membersOnly' | 'membersOnlyEpisode' | 'otherAppStory';

const tokens = {} as Record<ViewerName, string | null>;
/** Each story's id and the part number the matrix reads. */
const stories = {} as Record<StoryName, { storyId: number; part: number }>;
const OTHER_APP = 'APP_MATRIX_AUTHOR';
/** The lapsed member's number. */
let lapsedMobile = '';

/** The text of a part, unique so that a leak anywhere can be found in an answer. */
const secret = (story: StoryName, part: number) => `Secret words of ${story} part ${part}.`;
/**
 * Sentences before the secret: a visitor's preview of a free part 1 shows its opening (about
 * 150 words, never half of the part), which must end well before the secret.
 */
const OPENING = Array.from({ length: 40 }, (_, i) => `Open sentence ${i + 1} of the part.`).join(
  ' ',
);

const publish = async (token: string, storyId: number, text: string, membersOnly: boolean) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/author/publish/episode/webapp',
    headers: bearer(token),
    payload: {
      episode: {
        storyId,
        title: 'An episode',
        content: `<p>${OPENING}</p><p>${text}</p>`,
        membersOnly,
        status: 'published',
      },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
};

/** Joins `appId` with a fresh number through the code flow; answers the number. */
let numbers = 0;
const join = async (token: string, appId: string) => {
  const mobile = `9476${String(2_000_000 + ++numbers).slice(-7)}`;
  const asked = await t.app.inject({
    method: 'POST',
    url: apiPaths.memberSubscribe(),
    headers: bearer(token),
    payload: { mobile: `0${mobile.slice(2)}`, appId },
  });
  expect(asked.statusCode, asked.body).toBe(200);
  const verified = await t.app.inject({
    method: 'POST',
    url: apiPaths.memberVerify(),
    headers: bearer(token),
    payload: { mfaCode: sim.lastCode(mobile), appId, refId: asked.json().object.refId },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  await sim.idle();
  return mobile;
};

/** The listening server's address: the matrix reads over real HTTP, as readers do. */
let base = '';

/** A GET over HTTP, answered as `{statusCode, body, json()}` like inject's. */
const get = async (url: string, headers: Record<string, string>) => {
  const res = await fetch(`${base}${url}`, { headers });
  const body = await res.text();
  return { statusCode: res.status, body, json: () => JSON.parse(body) };
};

beforeAll(async () => {
  t = await createTestApp({ DEMO_SEED: '0' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}`;
  sim = t.carrier.simulator!;

  // Author A has no app of their own (the product app); author B has one.
  const a = await t.newAuthor('Matrix A');
  const b = await t.newAuthor('Matrix B');
  await t.rows(
    sql`insert into billing_apps (app_id, name, keyword) values (${OTHER_APP}, 'Matrix B', 'REG MATRIXB')`,
  );
  await t.rows(sql`update authors set app_id = ${OTHER_APP} where id = ${b.authorId}`);
  sim.learnApps([{ appId: OTHER_APP, name: 'Matrix B', keyword: 'REG MATRIXB' }]);

  const story = async (
    name: StoryName,
    token: string,
    membersOnly: boolean,
    episodes: boolean[],
  ) => {
    const storyId = await t.createStory(token, { membersOnly });
    for (const [i, mo] of episodes.entries())
      await publish(token, storyId, secret(name, i + 1), mo);
    stories[name] = { storyId, part: episodes.length };
  };
  await story('free', a.token, false, [false]);
  await story('membersOnly', a.token, true, [false]);
  // A free story whose second episode is for members.
  await story('membersOnlyEpisode', a.token, false, [false, true]);
  await story('otherAppStory', b.token, true, [false]);

  tokens.visitor = null;
  // Writing a story is no membership: its author meets the same wall as any reader.
  tokens.author = a.token;
  tokens.otherAuthor = b.token;
  tokens.reader = await t.signup('Reader');
  tokens.member = await t.signup('Member');
  await join(tokens.member, PRODUCT_APP_ID);
  tokens.otherAppMember = await t.signup('Other');
  await join(tokens.otherAppMember, OTHER_APP);
  tokens.lapsedMember = await t.signup('Lapsed');
  lapsedMobile = await join(tokens.lapsedMember, PRODUCT_APP_ID);
  sim.charge(PRODUCT_APP_ID, lapsedMobile, false);
  await sim.idle();
}, 120_000);
afterAll(() => t.close());

/** What each viewer gets from the part call: 200 with the text, 401, or 403 without it. */
const MATRIX: Record<ViewerName, Record<StoryName, 200 | 401 | 403>> = {
  visitor: { free: 401, membersOnly: 401, membersOnlyEpisode: 401, otherAppStory: 401 },
  reader: { free: 200, membersOnly: 403, membersOnlyEpisode: 403, otherAppStory: 403 },
  member: { free: 200, membersOnly: 200, membersOnlyEpisode: 200, otherAppStory: 403 },
  otherAppMember: { free: 200, membersOnly: 403, membersOnlyEpisode: 403, otherAppStory: 200 },
  lapsedMember: { free: 200, membersOnly: 403, membersOnlyEpisode: 403, otherAppStory: 403 },
  author: { free: 200, membersOnly: 403, membersOnlyEpisode: 403, otherAppStory: 403 },
  otherAuthor: { free: 200, membersOnly: 403, membersOnlyEpisode: 403, otherAppStory: 403 },
};

/** Whether the details answer says the viewer is subscribed for the story's app. */
const SUBSCRIBED: Record<ViewerName, Record<StoryName, boolean>> = {
  visitor: { free: false, membersOnly: false, membersOnlyEpisode: false, otherAppStory: false },
  reader: { free: false, membersOnly: false, membersOnlyEpisode: false, otherAppStory: false },
  member: { free: true, membersOnly: true, membersOnlyEpisode: true, otherAppStory: false },
  otherAppMember: {
    free: false,
    membersOnly: false,
    membersOnlyEpisode: false,
    otherAppStory: true,
  },
  lapsedMember: {
    free: false,
    membersOnly: false,
    membersOnlyEpisode: false,
    otherAppStory: false,
  },
  author: { free: false, membersOnly: false, membersOnlyEpisode: false, otherAppStory: false },
  otherAuthor: {
    free: false,
    membersOnly: false,
    membersOnlyEpisode: false,
    otherAppStory: false,
  },
};

/** Whose preview shows part 1's opening: free stories whose part 1 is free, to every viewer. */
const OPENED: Record<StoryName, boolean> = {
  free: true,
  membersOnly: false,
  membersOnlyEpisode: true,
  otherAppStory: false,
};

const cases = (Object.keys(MATRIX) as ViewerName[]).flatMap((viewer) =>
  (Object.keys(MATRIX[viewer]) as StoryName[]).map((story) => ({
    viewer,
    story,
    status: MATRIX[viewer][story],
    subscribed: SUBSCRIBED[viewer][story],
  })),
);

describe('the access matrix', () => {
  it.each(cases)(
    '$viewer reading $story: $status',
    async ({ viewer, story, status, subscribed }) => {
      const token = tokens[viewer];
      const { storyId, part } = stories[story];
      const headers = token ? bearer(token) : {};
      const text = secret(story, part);

      const res = await get(apiPaths.part(storyId, part), headers);
      expect(res.statusCode, res.body).toBe(status);
      if (status === 200) {
        expect(res.json().object.part.content).toContain(text);
        expect(res.json().object.subscribed).toBe(subscribed);
      } else {
        expect(res.body).not.toContain(text);
        expect(res.json().code).toBe(
          status === 403 ? ResultCode.subscriptionRequired : ResultCode.unauthorized,
        );
      }

      // The preview never carries text beyond a free part 1's opening, and says whether this
      // viewer is subscribed.
      const preview = await get(apiPaths.preview(storyId), headers);
      expect(preview.statusCode).toBe(200);
      expect(preview.body).not.toContain('Secret words');
      expect(preview.json().object.subscribed).toBe(subscribed);
      const opening = preview.json().object.part.opening as string | undefined;
      if (OPENED[story]) expect(opening).toMatch(/^<p>Open sentence 1 of the part\. /);
      else expect(opening).toBeUndefined();
    },
  );

  it('the premium list carries no episode text, to anyone', async () => {
    for (const viewer of Object.keys(tokens) as ViewerName[]) {
      const token = tokens[viewer];
      const res = await get(apiPaths.premium(), token ? bearer(token) : {});
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('Secret words');
      expect(res.body).not.toContain('"content"');
      const ids = (res.json().object.premium as { storyId: number }[]).map((s) => s.storyId);
      expect(ids).toEqual(
        expect.arrayContaining([stories.membersOnly.storyId, stories.otherAppStory.storyId]),
      );
      expect(ids).not.toContain(stories.free.storyId);
    }
  });

  it('a lapsed member is the carrier-lapsed row, and reads again once paid', async () => {
    const [row] = await t.rows<{ status: string }>(
      sql`select status from subscriptions where mobile = ${lapsedMobile} and app_id = ${PRODUCT_APP_ID}`,
    );
    expect(row?.status).toBe('lapsed');
    sim.charge(PRODUCT_APP_ID, lapsedMobile, true);
    await sim.idle();
    const res = await get(
      apiPaths.part(stories.membersOnly.storyId, 1),
      bearer(tokens.lapsedMember!),
    );
    expect(res.statusCode).toBe(200);
  });
});
