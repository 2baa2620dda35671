// npm run stats:generate: fills a PostgreSQL database with one author's year of statistics, so
// the statistics answers can be timed at scale (npm run bench:stats).
//
// Needs DATABASE_URL (a PostgreSQL database; PGlite is refused: a million rows there say nothing
// about production). Starts the real app on it (migrations, DEMO_SEED=0), then:
//   1. signs up the author (STATS_AUTHOR_EMAIL, password STATS_AUTHOR_PASSWORD) and publishes
//      STATS_STORIES stories of STATS_PARTS episodes each through the API, dated over the year;
//   2. adds STATS_READERS readers and STATS_VIEWS story_views (default 1,000,000) spread over the
//      last 365 Sri Lanka days, each reader dropping off somewhere between part 1 and the last;
//   3. ratings, comments, bookmarks, follows, SMS alerts and membership joins among those readers;
//   4. runs the roll-ups the jobs run (views per story per day and reads, per part per day,
//      readers per part), then VACUUM ANALYZE.
// Refuses a database that already holds the generated author (use a fresh one).
import { sql } from 'drizzle-orm';
import { PRODUCT_APP_ID } from '@kathamala/domain';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { engagementService } from '../apps/server/src/modules/engagement/service.ts';
import { storiesRepo } from '../apps/server/src/modules/stories/repo.ts';
import { storiesService } from '../apps/server/src/modules/stories/service.ts';
import { statisticsService } from '../apps/server/src/modules/statistics/service.ts';

/** The generated author's login (scripts/stats-bench.ts logs in with it). */
const STATS_AUTHOR_EMAIL = 'stats-author@generated.kathamala.lk';
const STATS_AUTHOR_PASSWORD = 'kathamala-stats';

const envInt = (name: string, fallback: number) => {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const STORIES = envInt('STATS_STORIES', 20);
const PARTS = envInt('STATS_PARTS', 30);
const READERS = envInt('STATS_READERS', 20_000);
const VIEWS = envInt('STATS_VIEWS', 1_000_000);

const url = process.env.DATABASE_URL ?? '';
if (!/^postgres(ql)?:\/\//.test(url)) {
  console.error(
    'stats-generate: set DATABASE_URL to a PostgreSQL database (postgres://...). PGlite is not ' +
      'supported: try `bash scripts/with-postgres.sh npm run stats:generate`.',
  );
  process.exit(2);
}

const started = Date.now();
const step = (what: string) =>
  console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${what}`);

const config = loadConfig({
  ...process.env,
  DEMO_SEED: '0',
  RATE_LIMIT_MAX: '1000000',
  RATE_LIMIT_AUTH_MAX: '1000',
});
const built = await buildApp(config, { inMemory: true });
const { app, database } = built;
const db = database.db;
const rows = async <T>(q: ReturnType<typeof sql>) =>
  ((await db.execute(q)) as unknown as { rows: T[] }).rows;
const call = async (method: 'POST' | 'GET', path: string, payload?: object, token?: string) => {
  const res = await app.inject({
    method,
    url: path,
    payload,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  return res.json().object;
};

try {
  const [exists] = await rows<{ n: number }>(
    sql`select count(*)::int as n from users where lower(email) = ${STATS_AUTHOR_EMAIL}`,
  );
  if (Number(exists?.n) > 0) {
    console.error(
      'stats-generate: this database already holds the generated author; use a fresh one.',
    );
    process.exitCode = 1;
  } else {
    step(`author, ${STORIES} stories of ${PARTS} episodes through the API`);
    await call('POST', '/api/v1/user/signup', {
      email: STATS_AUTHOR_EMAIL,
      password: STATS_AUTHOR_PASSWORD,
      username: 'Stats Author',
    });
    const login = await call('POST', '/api/v1/user/login', {
      email: STATS_AUTHOR_EMAIL,
      password: STATS_AUTHOR_PASSWORD,
    });
    const reg = await call(
      'POST',
      '/api/v1/author/register/',
      { name: 'Generated Author' },
      login.accesstoken,
    );
    const token = reg.accesstoken as string;
    const authorId = reg.authorId as number;
    for (let i = 0; i < STORIES; i++) {
      const { storyId } = await call(
        'POST',
        '/api/v1/author/publish/story/webapp',
        {
          story: {
            title: `Generated story ${i + 1}`,
            description: 'A story made by the statistics generator.',
            language: i % 2 ? 'sinhala' : 'english',
            kind: 0,
            category: 'mystery',
            membersOnly: i % 5 === 4,
            ongoing: true,
          },
        },
        token,
      );
      for (let p = 1; p <= PARTS; p++)
        await call(
          'POST',
          '/api/v1/author/publish/episode/webapp',
          {
            episode: { storyId, title: `Part ${p}`, content: '<p>Words.</p>', status: 'published' },
          },
          token,
        );
    }
    // The stories began over the year: story i on day 365 - 15 i, a part a week after the last.
    await db.execute(sql`
      update stories s set created_at = now() - make_interval(days => (365 - 15 * g.i)::int)
      from (select id, row_number() over (order by id) - 1 as i from stories
        where author_id = ${authorId}) g where g.id = s.id`);
    await db.execute(sql`
      update episodes e set published_at = least(now(),
        s.created_at + make_interval(days => 7 * (e.part_number - 1)))
      from stories s where s.id = e.story_id and s.author_id = ${authorId}`);
    const [authorUser] = await rows<{ id: number }>(
      sql`select user_id as id from authors where id = ${authorId}`,
    );

    step(`${READERS} readers`);
    await db.execute(sql`
      insert into users (email, password_hash, username, created_at)
      select 'gen' || g || '@generated.kathamala.lk', 'not-a-password', 'Generated reader ' || g,
        now() - make_interval(days => (random() * 400)::int)
      from generate_series(1, ${READERS}) g`);

    step(`${VIEWS} views over 365 days`);
    // Each story is read by about 15 % of the readers; a reader goes on from part 1 to part k
    // (fewer reach the later parts), part p read about p/2 days after the first.
    await db.execute(sql`
      insert into story_views (story_id, user_id, part_number, day, medium, created_at)
      select v.story_id, v.user_id, v.part, v.day, 'WEB', v.day::timestamp + interval '12 hours'
      from (
        select s.id as story_id, r.id as user_id, p as part,
          least((now() at time zone 'Asia/Colombo')::date,
            (now() at time zone 'Asia/Colombo')::date - r.back + p / 2) as day
        from stories s
        cross join lateral (
          select u.id, (random() * 364)::int + s.id * 0 as back,
            1 + floor(${PARTS - 1} * power(random(), 0.7))::int as k
          from users u
          where u.email like 'gen%@generated.kathamala.lk'
            and ((u.id::bigint * 2654435761 + s.id * 40503) % 100) < 15
        ) r
        cross join lateral generate_series(1, r.k) p
        where s.author_id = ${authorId}
      ) v
      limit ${VIEWS}
      on conflict do nothing`);

    step('ratings, comments, bookmarks, follows, alerts, joins');
    // A third of those who reached part 3 rate, mostly 3 to 5 stars, on the day they got there.
    await db.execute(sql`
      insert into ratings (user_id, story_id, rating, updated_at)
      select v.user_id, v.story_id, 2.5 + 0.5 * floor(random() * 6), v.day::timestamp + interval '13 hours'
      from story_views v join stories s on s.id = v.story_id
      where s.author_id = ${authorId} and v.part_number = 3 and random() < 0.33`);
    await db.execute(sql`
      insert into comments (story_id, episode_id, part_number, user_id, body, created_at)
      select v.story_id, e.id, v.part_number, v.user_id, 'A generated comment.',
        v.day::timestamp + interval '14 hours'
      from story_views v join stories s on s.id = v.story_id
        join episodes e on e.story_id = v.story_id and e.part_number = v.part_number
      where s.author_id = ${authorId} and random() < 0.02`);
    await db.execute(sql`
      insert into bookmarks (user_id, story_id, created_at)
      select v.user_id, v.story_id, v.day::timestamp + interval '15 hours'
      from story_views v join stories s on s.id = v.story_id
      where s.author_id = ${authorId} and v.part_number = 2 and random() < 0.2`);
    await db.execute(sql`
      insert into follows (follower_id, followed_id, created_at)
      select u.id, ${authorUser!.id}, now() - make_interval(days => (random() * 364)::int)
      from users u where u.email like 'gen%@generated.kathamala.lk' and random() < 0.25`);
    await db.execute(sql`
      insert into story_alerts (user_id, story_id, created_at)
      select v.user_id, v.story_id, v.day::timestamp + interval '16 hours'
      from story_views v join stories s on s.id = v.story_id
      where s.author_id = ${authorId} and v.part_number = 5 and random() < 0.05`);
    await db.execute(sql`
      insert into membership_joins (user_id, app_id, story_id, joined_at)
      select v.user_id, ${PRODUCT_APP_ID}, v.story_id, v.day::timestamp + interval '17 hours'
      from story_views v join stories s on s.id = v.story_id
      where s.author_id = ${authorId} and s.members_only and v.part_number = 1 and random() < 0.1`);

    step('roll-ups (views per day and reads, ratings, per part per day, readers per part)');
    const stories = storiesService(storiesRepo(db));
    const engagement = engagementService({
      db,
      queue: built.queue,
      reissueToken: async () => '',
      invalidate: () => {},
      story: stories.story,
      subscribed: stories.subscribed,
    });
    await engagement.recomputeRatings();
    await engagement.rollup({ full: true });
    await statisticsService({ db }).rollup({ full: true });
    await db.execute(sql`vacuum analyze`);

    const [counts] = await rows<Record<string, number>>(sql`
      select (select count(*) from story_views)::int as views,
        (select count(*) from story_view_days)::int as "storyDays",
        (select count(*) from story_part_view_days)::int as "partDays",
        (select count(*) from ratings)::int as ratings,
        (select count(*) from comments)::int as comments,
        (select count(*) from bookmarks)::int as bookmarks,
        (select count(*) from follows)::int as follows,
        (select count(*) from story_alerts)::int as alerts,
        (select count(*) from membership_joins)::int as joins`);
    step(`done: ${JSON.stringify(counts)}`);
    console.log(
      `Log in as ${STATS_AUTHOR_EMAIL} / ${STATS_AUTHOR_PASSWORD}; then npm run bench:stats.`,
    );
  }
} finally {
  await app.close();
}
