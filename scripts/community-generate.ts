// npm run community:generate: fills a PostgreSQL database with a community at scale, so the
// feeds can be timed there (npm run bench:community).
//
// Needs DATABASE_URL (a PostgreSQL database; PGlite is refused: a million rows there say nothing
// about production). Starts the real app on it (migrations, DEMO_SEED=0), then:
//   1. signs up the bench reader (COMMUNITY_BENCH_EMAIL) and an author with a story of 30
//      episodes through the API; the reader follows the author and bookmarks the story;
//   2. adds COMMUNITY_USERS users (default 100,000) and COMMUNITY_POSTS posts (1,000,000) over
//      the last year, one in a hundred waiting for review, with generate_series in SQL;
//   3. COMMUNITY_LIKES likes (4,000,000) and COMMUNITY_FOLLOWS follows (1,000,000), the bench
//      reader following 200 of the posters; the posts' like counts;
//   4. VACUUM ANALYZE.
// Refuses a database that already holds the bench reader (use a fresh one).
import { sql } from 'drizzle-orm';
import { apiPaths } from '@kathamala/domain';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';

/** The bench reader's login (scripts/community-bench.ts logs in with it). */
const BENCH_EMAIL = 'community-bench@generated.kathamala.lk';
const BENCH_PASSWORD = 'kathamala-community';

const envInt = (name: string, fallback: number) => {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const USERS = envInt('COMMUNITY_USERS', 100_000);
const POSTS = envInt('COMMUNITY_POSTS', 1_000_000);
const LIKES = envInt('COMMUNITY_LIKES', 4_000_000);
const FOLLOWS = envInt('COMMUNITY_FOLLOWS', 1_000_000);

const url = process.env.DATABASE_URL ?? '';
if (!/^postgres(ql)?:\/\//.test(url)) {
  console.error(
    'community-generate: set DATABASE_URL to a PostgreSQL database (postgres://...). PGlite is ' +
      'not supported: try `bash scripts/with-postgres.sh npm run community:generate`.',
  );
  process.exit(2);
}

const started = Date.now();
const step = (what: string) =>
  console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${what}`);

const built = await buildApp(
  loadConfig({ ...process.env, DEMO_SEED: '0', RATE_LIMIT_MAX: '1000000' }),
  { inMemory: true },
);
const { app, database } = built;
const db = database.db;
const rows = async <T>(q: ReturnType<typeof sql>) =>
  ((await db.execute(q)) as unknown as { rows: T[] }).rows;
const call = async (method: 'POST' | 'PUT', path: string, payload: object, token?: string) => {
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
    sql`select count(*)::int as n from users where email = ${BENCH_EMAIL}`,
  );
  if (Number(exists?.n) > 0) throw new Error('This database already has the generated community.');

  step('bench reader, author and story through the API');
  await call('POST', apiPaths.signup(), {
    email: BENCH_EMAIL,
    password: BENCH_PASSWORD,
    username: 'Community Bench',
  });
  const writer = (
    await call('POST', apiPaths.signup(), {
      email: 'community-author@generated.kathamala.lk',
      password: BENCH_PASSWORD,
      username: 'Community Author',
    })
  ).accesstoken as string;
  const author = await call(
    'POST',
    '/api/v1/author/register/',
    { name: 'Generated Storyteller' },
    writer,
  );
  const token = author.accesstoken as string;
  const { storyId } = await call(
    'POST',
    '/api/v1/author/publish/story/webapp',
    {
      story: {
        title: 'A Generated Serial',
        description: 'Thirty parts for the personal feed.',
        language: 'english',
        kind: 0,
        category: 'mystery',
        membersOnly: false,
        ongoing: true,
      },
    },
    token,
  );
  for (let part = 1; part <= 30; part++)
    await call(
      'POST',
      '/api/v1/author/publish/episode/webapp',
      {
        episode: { storyId, title: `Part ${part}`, content: '<p>Words.</p>', status: 'published' },
      },
      token,
    );
  const [ids] = await rows<{ reader: number; writer: number }>(sql`
    select (select id from users where email = ${BENCH_EMAIL}) as reader,
      (select id from users where email = 'community-author@generated.kathamala.lk') as writer`);
  const readerId = Number(ids!.reader);
  await db.execute(sql`
    insert into follows (follower_id, followed_id) values (${readerId}, ${Number(ids!.writer)})`);
  await db.execute(sql`insert into bookmarks (user_id, story_id) values (${readerId}, ${storyId})`);

  step(`${USERS.toLocaleString('en')} users`);
  await db.execute(sql`
    insert into users (email, password_hash, username, created_at)
    select 'gen' || g || '@generated.kathamala.lk', 'generated', 'gen ' || g,
      now() - interval '400 days'
    from generate_series(1, ${USERS}) g`);
  const [first] = await rows<{ id: number }>(
    sql`select min(id) as id from users where email like 'gen%@generated.kathamala.lk'`,
  );
  const u0 = Number(first!.id);

  step(`${POSTS.toLocaleString('en')} posts over the last year`);
  // Post g by user (g * 7919) mod USERS: a few posters write much, most a little. Ids follow
  // time, as they do when people post.
  await db.execute(sql`
    insert into community_posts (user_id, body, lang, status, status_reason, created_at,
      likes_count)
    select ${u0} + ((g::bigint * 7919) % ${USERS}),
      case when g % 2 = 0 then 'අද කියවපු කතාව ගැන කතා කරමු ' || g
        else 'Talking about what I read today, post ' || g end,
      case when g % 2 = 0 then 'si' else 'en' end,
      case when g % 100 = 0 then 'pending' else 'approved' end,
      case when g % 100 = 0 then 'Waiting for review' end,
      now() - (${POSTS} - g) * interval '30 seconds',
      0
    from generate_series(1, ${POSTS}) g`);
  const [range] = await rows<{ lo: number; hi: number }>(
    sql`select min(id) as lo, max(id) as hi from community_posts`,
  );
  const p0 = Number(range!.lo);
  const pn = Number(range!.hi) - p0 + 1;

  step(`${FOLLOWS.toLocaleString('en')} follows`);
  await db.execute(sql`
    insert into follows (follower_id, followed_id, created_at)
    select ${u0} + (g % ${USERS}), ${u0} + ((g::bigint * 48271 + g / ${USERS}) % ${USERS}), now()
    from generate_series(1, ${FOLLOWS}) g
    on conflict do nothing`);
  await db.execute(sql`
    insert into follows (follower_id, followed_id)
    select ${readerId}, ${u0} + ((g::bigint * 7919) % ${USERS}) from generate_series(1, 200) g
    on conflict do nothing`);

  step(`${LIKES.toLocaleString('en')} likes`);
  // In slices, so one statement never holds millions of rows in flight. The post repeats every
  // ${pn} likes: each round of posts moves its likers along, so no pair comes twice.
  const slice = 1_000_000;
  for (let from = 1; from <= LIKES; from += slice) {
    const to = Math.min(LIKES, from + slice - 1);
    await db.execute(sql`
      insert into community_likes (post_id, user_id)
      select ${p0} + ((g::bigint * 2654435761) % ${pn}),
        ${u0} + ((g::bigint * 40503 + (g / ${pn}) * 9973) % ${USERS})
      from generate_series(${from}::int, ${to}::int) g
      on conflict do nothing`);
    step(`  likes to ${to.toLocaleString('en')}`);
  }
  step('like counts');
  await db.execute(sql`
    update community_posts p set likes_count = l.n
    from (select post_id, count(*)::int as n from community_likes group by post_id) l
    where l.post_id = p.id`);

  step('VACUUM ANALYZE');
  for (const table of ['users', 'community_posts', 'community_likes', 'follows'])
    await db.execute(sql.raw(`vacuum analyze ${table}`));
  const [sizes] = await rows<{ users: number; posts: number; likes: number; follows: number }>(sql`
    select (select count(*) from users)::int as users,
      (select count(*) from community_posts)::int as posts,
      (select count(*) from community_likes)::int as likes,
      (select count(*) from follows)::int as follows`);
  step(
    `done: ${Object.entries(sizes!)
      .map(([k, v]) => `${Number(v).toLocaleString('en')} ${k}`)
      .join(', ')}`,
  );
} finally {
  await app.close();
}
