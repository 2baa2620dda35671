import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';

/** Reads the environment, starts the server and closes it cleanly on SIGINT/SIGTERM. */
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
  const { app, carrier } = await buildApp(config, { logger: true });
  const close = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void close('SIGINT'));
  process.once('SIGTERM', () => void close('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  console.log(
    `Kathamala is running at ${config.publicUrl} (${config.databaseUrl ? 'PostgreSQL' : 'PGlite in ' + config.dataDir})`,
  );
  if (carrier.simulator)
    console.log(
      `Carrier: the simulator (SMS outbox ${config.dataDir}/sms-outbox.jsonl, page ${config.publicUrl}/dev/sms/)`,
    );
}

await main();
