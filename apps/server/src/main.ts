import cluster from 'node:cluster';
import { buildApp } from './app.ts';
import { runPrimary } from './cluster.ts';
import { ConfigError, loadConfig, oauthSimulatorWarning } from './config.ts';

/**
 * Reads the environment, starts the server and drains it on SIGINT/SIGTERM before exiting 0.
 * With WORKERS above 1 this process is the cluster primary instead (cluster.ts) and each worker
 * it forks runs the rest of this function.
 */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`Configuration error: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  if (config.workers > 1 && cluster.isPrimary) {
    runPrimary(config);
    return;
  }
  const { app, carrier } = await buildApp(config, { logger: true });
  let draining = false;
  // Drain: stop accepting connections, let in-flight requests finish (app.close waits for
  // them), then the job queue waits for running handlers and the database closes (onClose
  // hooks). A second signal, or the drain outlasting the timeout, exits at once: a job cut off
  // is in a transaction that never committed and runs again after its expiry.
  // The logger writes asynchronously and process.exit would drop its last lines: why a drain
  // failed goes to stderr directly.
  const exitNow = (code: number, why: string): never => {
    process.stderr.write(`${new Date().toISOString()} ${why}\n`);
    return process.exit(code);
  };
  const drain = (signal: string) => {
    if (draining) exitNow(1, `second signal (${signal}): exiting without waiting`);
    draining = true;
    app.log.info(
      { signal, timeoutSeconds: config.shutdownTimeoutSeconds },
      'draining: finishing requests and jobs',
    );
    setTimeout(() => {
      exitNow(1, 'drain timed out: exiting with work unfinished');
    }, config.shutdownTimeoutSeconds * 1000).unref();
    app.close().then(
      () => {
        app.log.info('drained: exiting');
        process.exit(0);
      },
      (err: unknown) =>
        exitNow(
          1,
          `error while draining: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
        ),
    );
  };
  // A worker drains on the primary's SIGTERM only: Ctrl-C in a terminal sends SIGINT to every
  // process of the group, and that plus the primary's SIGTERM would count as a second signal.
  if (cluster.isWorker) process.on('SIGINT', () => {});
  else process.on('SIGINT', () => drain('SIGINT'));
  process.on('SIGTERM', () => drain('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  if (cluster.isWorker) return; // the primary says where the site is, once
  console.log(
    `Kathamala is running at ${config.publicUrl} (Node ${process.version}, ${config.databaseUrl ? 'PostgreSQL' : 'PGlite in ' + config.dataDir})`,
  );
  if (carrier.simulator)
    console.log(
      `Carrier: the simulator (SMS outbox ${config.dataDir}/sms-outbox.jsonl, page ${config.publicUrl}/dev/sms/)`,
    );
  // In production only with the simulator on: a demo sign-in, said loudly.
  const signInWarning = oauthSimulatorWarning(config);
  if (signInWarning) console.warn(signInWarning);
}

await main();
