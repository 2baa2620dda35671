// npm run soak: the load run, then the crash run, then both runs' figures together.
// Each run starts its own server on its own data directory (or its own database on
// DATABASE_URL's PostgreSQL); see load.ts and crash.ts for what they do and their settings.
// Exit status 0 only when both pass. For PostgreSQL on this machine:
//   bash scripts/with-postgres.sh npm run soak
import fs from 'node:fs';
import path from 'node:path';
import { cleanup, ROOT } from './common.ts';
import { printLoad, runLoad } from './load.ts';
import { printCrash, runCrash } from './crash.ts';

try {
  const load = await runLoad();
  await cleanup();
  const crash = await runCrash();
  printLoad(load);
  printCrash(crash);
  fs.writeFileSync(
    path.join(ROOT, '.tmp', 'soak.json'),
    JSON.stringify({ load, crash, at: new Date().toISOString() }, null, 2),
  );
  await cleanup();
  console.log(`\nsoak: ${load.ok && crash.ok ? 'PASS' : 'FAIL'} (figures in .tmp/soak.json)`);
  process.exit(load.ok && crash.ok ? 0 : 1);
} catch (err) {
  console.error(err);
  await cleanup();
  process.exit(1);
}
