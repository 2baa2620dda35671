// npm run keys:rotate: makes a new token signing key for the deployment; nobody is logged out.
//
// Runs against the server's database (DATABASE_URL, else the PGlite in DATA_DIR, which only one
// process may open: stop that server first). The new key is published in the JWKS at once and
// starts signing an hour later (`--ahead MINUTES`, or `--now`), so browsers that cached the key
// set know it first; every older key stops signing then and keeps verifying until the longest
// token it signed has expired (a year and a day: mail links). Running instances read the keys
// every minute. With TOKEN_SIGNING_KEY the keys come from configuration: rotate there instead.
import path from 'node:path';
import { openDatabase } from './db/client.ts';
import { loadConfig } from './config.ts';
import { rotateTokenKeys } from './auth/keys.ts';

const args = process.argv.slice(2);
const aheadArg = args.indexOf('--ahead');
const aheadMinutes = args.includes('--now') ? 0 : aheadArg >= 0 ? Number(args[aheadArg + 1]) : 60;
if (!Number.isFinite(aheadMinutes) || aheadMinutes < 0) {
  console.error('keys:rotate: --ahead takes a number of minutes (0 or more).');
  process.exit(2);
}

const config = loadConfig();
if (config.keys.signingKey) {
  console.error(
    'keys:rotate: TOKEN_SIGNING_KEY is set, so configuration gives the keys. Put the new private key in TOKEN_SIGNING_KEY and the old public one in TOKEN_VERIFY_KEYS instead.',
  );
  process.exit(2);
}
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: config.databaseUrl ? null : path.join(config.dataDir!, 'pglite'),
});
try {
  const signsFrom = new Date(Date.now() + aheadMinutes * 60_000);
  const { kid, retiring, retireAfter } = await rotateTokenKeys(database.db, {
    encryptionSecret: config.keys.encryptionSecret,
    signsFrom,
  });
  console.log(`New signing key ${kid}: in the JWKS now, signing from ${signsFrom.toISOString()}.`);
  for (const old of retiring)
    console.log(`Key ${old} stops signing then and verifies until ${retireAfter.toISOString()}.`);
  if (!config.keys.encryptionSecret)
    console.log(
      'Note: KEY_ENCRYPTION_SECRET is not set, so the private key is stored unencrypted.',
    );
} finally {
  await database.close();
}
