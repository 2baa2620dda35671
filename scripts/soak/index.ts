// npm run soak: the load run, the crash run and the fuzz run one after another, then their
// figures together. Load and crash each start their own server on their own data directory
// (or their own database on DATABASE_URL's PostgreSQL); fuzz builds the app in this process.
// See load.ts, crash.ts and fuzz.ts for what they do and their settings. A run that throws is
// reported as failed and the others still run. Exit status 0 only when all three pass; all
// figures also in .tmp/soak.json. For PostgreSQL on this machine:
//   bash scripts/with-postgres.sh npm run soak
import { cleanup, writeFigures, type Figures } from './common.ts';
import { printLoad, runLoad } from './load.ts';
import { printCrash, runCrash } from './crash.ts';
import { printFuzz, runFuzz } from './fuzz.ts';

const results: Record<string, Figures | { ok: false; error: string }> = {};
const printers: (() => void)[] = [];

/** Runs one and cleans up after it; a run that throws is kept as its error, not its figures. */
async function step<F extends Figures>(name: string, run: () => Promise<F>, print: (f: F) => void) {
  try {
    const figures = await run();
    results[name] = figures;
    printers.push(() => print(figures));
  } catch (err) {
    console.error(`soak: the ${name} run failed:`, err);
    const error = String((err as Error)?.stack ?? err);
    results[name] = { ok: false, error };
    printers.push(() => console.log(`\n${name}: did not finish: ${error.split('\n')[0]}\n  FAIL`));
  } finally {
    await cleanup();
  }
}

await step('load', runLoad, printLoad);
await step('crash', runCrash, printCrash);
await step('fuzz', runFuzz, printFuzz);

for (const print of printers) print();
const ok = Object.values(results).every((f) => f.ok);
const file = writeFigures('soak', { ...results, at: new Date().toISOString() });
console.log(
  `\nsoak: ${ok ? 'PASS' : 'FAIL'} (${Object.entries(results)
    .map(([name, f]) => `${name} ${f.ok ? 'pass' : 'FAIL'}`)
    .join(', ')}; figures in ${file})`,
);
process.exit(ok ? 0 : 1);
