// npm run soak:crash: kill -9 the server while several clients write, start it again, many
// times over; every acknowledged write must survive and the server must start every time.
//
// One data directory (PGlite) or one fresh PostgreSQL database (DATABASE_URL) for the whole run.
// Each cycle: start the real server (after the first start this is PGlite's, or PostgreSQL's,
// recovery from a kill), SOAK_WRITERS clients sign up readers and rate, bookmark and comment
// on the free demo stories, and after a random 0.5-4 s the server gets SIGKILL. A write is
// acknowledged when its answer (2xx, code 0) arrived before the kill. Every key is written
// once (a new e-mail, a reader and story not rated or bookmarked before, a comment with its own
// id), so each acknowledged write is exactly one row to find. Every SOAK_VERIFY_EVERY cycles,
// and after the last, the server is down and the database is read directly.
// Prints cycles, acknowledged writes, lost (must be 0), start failures (must be 0), start times.
//
// Environment: SOAK_CYCLES (50), SOAK_WRITERS (6), SOAK_VERIFY_EVERY (10),
// SOAK_CRASH_PORT (4422), DATABASE_URL, SOAK_KEEP=1 keeps the data directory.
import path from 'node:path';
import {
  ackedCounts,
  byKind,
  call,
  envInt,
  isEntry,
  killServer,
  loadStories,
  missingWrites,
  newAcked,
  PASSWORD,
  percentile,
  RAISED_LIMITS,
  runAlone,
  sleep,
  soakDatabase,
  soakEmail,
  startServer,
  sum,
  userOf,
  type Server,
  type StoryInfo,
} from './common.ts';

/** What one run measured; index.ts prints it with the load run's. */
export interface CrashFigures {
  database: string;
  cycles: number;
  acknowledged: Record<string, number>;
  lost: Record<string, number>;
  lostExamples: string[];
  startFailures: number;
  startFailureMessages: string[];
  startP50ms: number;
  startMaxMs: number;
  unanswered: number;
  ok: boolean;
}

/** Runs the kill -9 cycles and answers the figures. */
export async function runCrash(): Promise<CrashFigures> {
  const cycles = envInt('SOAK_CYCLES', 50);
  const writers = envInt('SOAK_WRITERS', 6);
  const verifyEvery = envInt('SOAK_VERIFY_EVERY', 10);
  const port = envInt('SOAK_CRASH_PORT', 4422);
  const { dataDir, db } = await soakDatabase('crash');
  const env = { ...db.env, ...RAISED_LIMITS, DEMO_SEED: '1', JOB_POLL_SECONDS: '1' };
  const log = path.join(dataDir, 'server.log');
  const acked = newAcked();
  const startTimes: number[] = [];
  const startFailureMessages: string[] = [];
  let unanswered = 0;
  let stories: StoryInfo[] = [];
  const lostTotal = { signups: 0, ratings: 0, comments: 0, bookmarks: 0 };
  const lostExamples: string[] = [];
  const seenLost = new Set<string>();

  const check = async (cycle: number) => {
    const missing = await missingWrites(db, acked);
    for (const [kind, keys] of Object.entries(missing))
      for (const key of keys) {
        if (seenLost.has(`${kind}:${key}`)) continue;
        seenLost.add(`${kind}:${key}`);
        lostTotal[kind as keyof typeof lostTotal]++;
        if (lostExamples.length < 10) lostExamples.push(`${kind} ${key} (by cycle ${cycle})`);
      }
  };

  /** One client: sign a reader up, then rate, bookmark and comment on each free story in turn. */
  const writer = async (server: Server, stop: { now: boolean }) => {
    while (!stop.now) {
      const email = soakEmail('c');
      const s = await call(server.base, 'POST', '/api/v1/user/signup', {
        body: { email, password: PASSWORD, username: `Soak ${email.slice(7, 17)}` },
      });
      const token = s.body?.object?.accesstoken;
      if (s.status !== 200 || s.body?.code !== 0 || typeof token !== 'string') {
        if (s.status === 0) unanswered++;
        if (stop.now || s.status === 0) return;
        continue;
      }
      acked.signups.add(email.toLowerCase());
      const user = userOf(token);
      for (const story of stories) {
        if (stop.now) return;
        const rating = ['1', '2', '3.5', '4', '5'][Math.floor(Math.random() * 5)]!;
        const r = await call(server.base, 'POST', `/api/v1/story/rate/${story.storyId}/`, {
          token,
          body: { rating },
        });
        if (r.status === 200 && r.body?.code === 0)
          acked.ratings.set(`${user}:${story.storyId}`, Number(rating));
        else if (r.status === 0) return void unanswered++;
        const b = await call(server.base, 'GET', `/api/v1/story/bookmark/${story.storyId}/1`, {
          token,
        });
        if (b.status === 200 && b.body?.code === 0) acked.bookmarks.add(`${user}:${story.storyId}`);
        else if (b.status === 0) return void unanswered++;
        const c = await call(server.base, 'POST', '/api/v1/story/comment/', {
          token,
          body: {
            storyId: story.storyId,
            episodeId: story.episodeId,
            feedback: `Crash soak comment by ${user} on ${story.storyId}`,
            platform: 'web',
          },
        });
        const id = (c.body?.object?.comment as { commentId?: number } | undefined)?.commentId;
        if (c.status === 200 && c.body?.code === 0 && typeof id === 'number')
          acked.comments.add(id);
        else if (c.status === 0) return void unanswered++;
      }
    }
  };

  let cycle: number;
  for (cycle = 1; cycle <= cycles; cycle++) {
    let server: Server;
    try {
      server = await startServer({ port, dataDir, env, log });
    } catch (err) {
      startFailureMessages.push(`cycle ${cycle}: ${(err as Error).message.slice(0, 2000)}`);
      console.log(`crash: cycle ${cycle}: the server did not start`);
      // One more try: a server that cannot start again is the finding, not a reason to go on.
      try {
        server = await startServer({ port, dataDir, env, log });
      } catch {
        break;
      }
    }
    startTimes.push(server.startMs);
    if (stories.length === 0)
      stories = (await loadStories(server.base)).filter((s) => !s.membersOnly);
    const stop = { now: false };
    const running = Array.from({ length: writers }, () => writer(server, stop));
    await sleep(500 + Math.random() * 3500);
    await killServer(server);
    stop.now = true;
    await Promise.all(running);
    const total = sum(ackedCounts(acked));
    console.log(
      `crash: cycle ${cycle}/${cycles}: started in ${(server.startMs / 1000).toFixed(1)} s, killed; ${total} writes acknowledged so far`,
    );
    if (verifyEvery > 0 && cycle % verifyEvery === 0 && cycle < cycles) await check(cycle);
  }
  cycle = Math.min(cycle, cycles);
  // The last kill too: recovery happens when the database is opened for checking.
  await check(cycle);
  // And a last clean start after it (PGlite's recovery by the server itself).
  try {
    const last = await startServer({ port, dataDir, env, log });
    startTimes.push(last.startMs);
    await killServer(last);
  } catch (err) {
    startFailureMessages.push(`final start: ${(err as Error).message.slice(0, 2000)}`);
  }

  const figures: CrashFigures = {
    database: db.kind,
    cycles: cycle,
    acknowledged: ackedCounts(acked),
    lost: lostTotal,
    lostExamples,
    startFailures: startFailureMessages.length,
    startFailureMessages,
    startP50ms: percentile(startTimes, 50),
    startMaxMs: Math.max(0, ...startTimes),
    unanswered,
    ok: false,
  };
  figures.ok =
    figures.startFailures === 0 &&
    cycle === cycles &&
    Object.values(lostTotal).every((n) => n === 0) &&
    Object.values(figures.acknowledged).some((n) => n > 0);
  return figures;
}

/** Prints the figures as the issue names them. */
export function printCrash(f: CrashFigures) {
  console.log(`
Crashes (kill -9 during writes, ${f.database})
  cycles          ${f.cycles}
  acknowledged    ${sum(f.acknowledged)} writes (${byKind(f.acknowledged)})
  lost            ${sum(f.lost)}${f.lostExamples.length ? `  e.g. ${f.lostExamples.join('; ')}` : ''}
  start failures  ${f.startFailures}${f.startFailureMessages.length ? `\n${f.startFailureMessages.join('\n')}` : ''}
  start time      p50 ${(f.startP50ms / 1000).toFixed(1)} s, max ${(f.startMaxMs / 1000).toFixed(1)} s
  cut off by kill ${f.unanswered} requests (not acknowledged, not counted)
  ${f.ok ? 'PASS' : 'FAIL'}`);
}

if (isEntry(import.meta.url)) await runAlone('soak-crash', runCrash, printCrash);
