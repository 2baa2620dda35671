import cluster, { type Worker } from 'node:cluster';
import { oauthSimulatorWarning, simulatorWarning, type Config } from './config.ts';

/*
 * WORKERS=N above 1: this process becomes a node:cluster primary that serves nothing itself. It
 * forks N workers, each running main.ts's usual start-up (buildApp + listen on the same port;
 * the primary hands connections out round-robin). The workers already coordinate through
 * PostgreSQL: the start-up lock around migrations and the seed, keys and secrets in the
 * database, the cache bus over LISTEN/NOTIFY, rate limits in the database.
 *
 * - A worker that dies outside shutdown is replaced; one that dies before it ever listened
 *   (a database that is down, a bad deploy) is replaced after a growing pause, so a crash loop
 *   does not spin.
 * - SIGTERM or SIGINT: each worker gets SIGTERM and drains (main.ts); the primary exits once
 *   all have gone, 0 if every worker exited 0. A second signal is passed on as a second
 *   SIGTERM, on which workers exit at once; past the drain timeout (+5 s) the rest are killed.
 */

const MAX_RESTART_DELAY_MS = 30_000;

/** Runs the cluster primary for `config.workers` workers; the process exits when they are gone. */
export function runPrimary(config: Config): void {
  const wanted = config.workers;
  let shuttingDown = false;
  let failed = false;
  let everAllListening = false;
  // Workers that died before listening, in a row: the next restart waits 2^n s (capped).
  let earlyDeaths = 0;
  const listened = new WeakSet<Worker>();
  const restarts = new Set<NodeJS.Timeout>();

  const alive = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
  const listening = () => alive().filter((w) => listened.has(w)).length;

  cluster.on('listening', (worker) => {
    listened.add(worker);
    earlyDeaths = 0;
    const n = listening();
    console.log(`Worker ${worker.process.pid} listening (${n} of ${wanted})`);
    if (n === wanted && !everAllListening) {
      everAllListening = true;
      console.log(
        `Kathamala is running at ${config.publicUrl} (PostgreSQL, ${wanted} workers listening; primary ${process.pid})`,
      );
      if (config.smsProvider === 'simulator' || config.billingProvider === 'simulator') {
        console.log(
          `Carrier: the simulator, one in each worker (SMS outbox ${config.dataDir}/sms-outbox.jsonl, page ${config.publicUrl}/dev/sms/)`,
        );
        // In production only with CARRIER_SIMULATOR=1: a demo, said loudly.
        const warning = simulatorWarning(config);
        if (warning) console.warn(warning);
      }
      const signInWarning = oauthSimulatorWarning(config);
      if (signInWarning) console.warn(signInWarning);
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (shuttingDown) {
      if (code !== 0) failed = true;
      console.log(`Worker ${worker.process.pid} exited (${how})`);
      if (alive().length === 0) {
        console.log(`All workers have exited: the primary exits ${failed ? 1 : 0}`);
        process.exit(failed ? 1 : 0);
      }
      return;
    }
    if (!listened.has(worker)) earlyDeaths++;
    const delay =
      earlyDeaths === 0 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 1000 * 2 ** (earlyDeaths - 1));
    console.error(
      `Worker ${worker.process.pid} died (${how}); starting another${delay ? ` in ${delay / 1000} s` : ''}`,
    );
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (!shuttingDown) cluster.fork();
    }, delay);
    restarts.add(timer);
  });

  const stop = (signal: NodeJS.Signals) => {
    const workers = alive();
    if (shuttingDown) {
      console.warn(`${signal} again: workers exit without waiting`);
      for (const w of workers) w.process.kill('SIGTERM');
      return;
    }
    shuttingDown = true;
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    console.log(`${signal}: draining ${workers.length} workers`);
    if (workers.length === 0) process.exit(0);
    for (const w of workers) w.process.kill('SIGTERM');
    setTimeout(
      () => {
        console.error('Workers did not drain in time: killing them');
        for (const w of alive()) w.process.kill('SIGKILL');
        process.exit(1);
      },
      (config.shutdownTimeoutSeconds + 5) * 1000,
    ).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  console.log(`Primary ${process.pid}: starting ${wanted} workers`);
  for (let i = 0; i < wanted; i++) cluster.fork();
}
