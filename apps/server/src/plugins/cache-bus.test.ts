// What one instance changes, the others' cached answers show at once (issue 11: in-memory
// caches invalidated across instances). Needs PostgreSQL; skipped without DATABASE_URL.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@kathamala/domain';
import { buildApp, type BuiltApp } from '../app.ts';
import { CACHE_CHANNEL } from '../cache/changes.ts';
import { loadConfig } from '../config.ts';
import { bearer, freshPostgres } from '../test/helpers.ts';
import { startCacheBus } from './cache-bus.ts';

const PG = process.env.DATABASE_URL;

describe.skipIf(!PG)('the cache bus between two instances', () => {
  let db: Awaited<ReturnType<typeof freshPostgres>>;
  let a: BuiltApp;
  let b: BuiltApp;

  beforeAll(async () => {
    db = await freshPostgres(PG!);
    const config = () =>
      loadConfig({
        DATABASE_URL: db.url,
        DEMO_SEED: '0',
        PUBLIC_URL: 'http://kathamala.test',
        RATE_LIMIT_MAX: '100000',
        PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
        PRESSURE_MAX_IN_FLIGHT: '0',
      });
    a = await buildApp(config(), { inMemory: true });
    b = await buildApp(config(), { inMemory: true });
  }, 120_000);

  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await db?.drop();
  });

  const post = async (app: BuiltApp, url: string, payload: object, token?: string) => {
    const res = await app.app.inject({
      method: 'POST',
      url,
      payload,
      ...(token ? { headers: bearer(token) } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().object;
  };
  const listed = async (app: BuiltApp) =>
    (
      (await app.app.inject(apiPaths.listV2({ sortBy: 'new' }))).json().object.stories as {
        storyId: number;
      }[]
    ).map((s) => s.storyId);

  /** An author signed up and registered through A, with a story of theirs (not yet out). */
  const newStory = async (handle: string, name: string, title: string) => {
    const writer = await post(a, apiPaths.signup(), {
      email: `${handle}@example.com`,
      password: 'correct horse battery',
      username: name,
    });
    const { accesstoken } = await post(a, apiPaths.registerAuthor(), { name }, writer.accesstoken);
    const { storyId } = await post(
      a,
      apiPaths.publishStory(),
      {
        story: {
          title,
          description: 'Told on one server, read on another.',
          language: 'english',
          kind: 0,
          category: 'mystery',
          membersOnly: false,
          ongoing: true,
        },
      },
      accesstoken,
    );
    return { accesstoken: accesstoken as string, storyId: storyId as number };
  };

  it('a story published through one instance is listed by the other on its next request', async () => {
    const { accesstoken, storyId } = await newStory('bus', 'Bus Writer', 'Across the wire');
    // B answers (and keeps) the list before the story is out.
    expect(await listed(b)).not.toContain(storyId);

    await post(
      a,
      apiPaths.publishEpisode(),
      { episode: { storyId, title: 'One', content: '<p>Words.</p>', status: 'published' } },
      accesstoken,
    );
    // The notice crosses PostgreSQL in milliseconds; B's cached list would otherwise stay
    // as it was for its five seconds.
    const deadline = Date.now() + 1_000;
    let seen = await listed(b);
    while (!seen.includes(storyId) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await listed(b);
    }
    expect(seen).toContain(storyId);
  });

  it('sessions, episodes and stories kept by one instance follow changes made through the other', async () => {
    const { accesstoken, storyId } = await newStory(
      'bus-episodes',
      'Bus Episodes',
      'Kept in memory',
    );
    const { episodeId } = await post(
      a,
      apiPaths.publishEpisode(),
      { episode: { storyId, title: 'One', content: '<p>First.</p>', status: 'published' } },
      accesstoken,
    );
    const reader = await post(a, apiPaths.signup(), {
      email: 'bus-reader@example.com',
      password: 'correct horse battery',
      username: 'Bus Reader',
    });
    const readOn = (app: BuiltApp, n: number) =>
      app.app.inject({ url: apiPaths.part(storyId, n), headers: bearer(reader.accesstoken) });
    // B keeps the session, the story and part 1.
    expect((await readOn(b, 1)).json().object.part.title).toBe('One');
    expect((await readOn(b, 2)).statusCode).toBe(404);

    await post(
      a,
      apiPaths.publishEpisode(),
      { episode: { storyId, title: 'Two', content: '<p>Second.</p>', status: 'published' } },
      accesstoken,
    );
    await post(
      a,
      apiPaths.publishEpisode(),
      {
        episode: {
          storyId,
          episodeId,
          title: 'One, again',
          content: '<p>First.</p>',
          status: 'published',
        },
      },
      accesstoken,
    );
    // PostgreSQL signals both instances' listeners at the same commit; A answered once its own
    // notice came back. A client's next request reaches B at least a network round trip later;
    // in-process, B's sync (a notice through B's own connection, delivered after everything
    // committed before it) stands for that round trip.
    await b.cacheBus.sync();
    expect((await readOn(b, 2)).json().object.part.title).toBe('Two');
    expect((await readOn(b, 1)).json().object.part.title).toBe('One, again');
    expect((await readOn(b, 1)).json().object.numberOfparts).toBe(2);

    const out = await a.app.inject({ url: apiPaths.logout(), headers: bearer(reader.accesstoken) });
    expect(out.statusCode).toBe(200);
    await b.cacheBus.sync();
    expect((await readOn(b, 1)).statusCode).toBe(401);
  });
  it('a burst of writes shares its sync notices, and each hears its own change first', async () => {
    // A bus of our own hears the changes; a listener of our own counts its sync notices.
    const seen = new Set<number>();
    const bus = await startCacheBus({}, db.url, (c) => {
      if (c.kind === 'user') seen.add(c.id);
    });
    const listener = new pg.Client({ connectionString: db.url });
    await listener.connect();
    let notices = 0;
    listener.on('notification', (n) => {
      if (n.payload?.startsWith('sync:')) notices++;
    });
    await listener.query(`LISTEN ${CACHE_CHANNEL}`);
    const writer = new pg.Pool({ connectionString: db.url, max: 20 });
    try {
      // Twenty writers commit a change, then each waits for its sync, as twenty requests would.
      const heardOwn = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const id = 1_000_000 + i;
          await writer.query('select pg_notify($1, $2)', [CACHE_CHANNEL, `user:${id}`]);
          await bus.sync();
          return seen.has(id);
        }),
      );
      expect(heardOwn).toEqual(Array.from({ length: 20 }, () => true));
      await listener.query('select 1');
      expect(notices).toBeGreaterThan(0);
      expect(notices).toBeLessThan(20);
    } finally {
      await bus.close();
      await writer.end();
      await listener.end();
    }
  });
});
