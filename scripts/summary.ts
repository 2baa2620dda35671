// Summarises the passes of `npm test` (scripts/test.sh).
//
// Usage: tsx scripts/summary.ts <manifest.tsv>
//
// Each manifest line is: label <TAB> kind <TAB> report <TAB> exit code <TAB> note
//   kind vitest      report = vitest JSON reporter output
//   kind playwright  report = Playwright JSON reporter output
//   kind step        a non-test step (the build): only its exit code counts
//   kind skip        the pass did not run (note says why); a failure when CI=true
//
// Prints per-pass counts, the failing tests, and as the last line exactly
// `N passed, N failed` (plus `, N skipped` when some were skipped), summed over
// all passes. A pass without a report, a runner that exited non-zero without a
// failing test, or a step that failed counts as one failure, so the exit code
// is non-zero exactly when the failed count is.
import { existsSync, readFileSync } from 'node:fs';

interface PassResult {
  label: string;
  passed: number;
  failed: number;
  skipped: number;
  detail: string;
  failures: string[];
}

const CI = process.env.CI === 'true' || process.env.CI === '1';
const MAX_LISTED_FAILURES = 40;

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}
function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
function firstLine(s: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = s.replace(/\u001b\[[0-9;]*m/g, '').trim();
  const line = clean.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}...` : line;
}
function relative(file: string): string {
  const cwd = process.cwd() + '/';
  return file.startsWith(cwd) ? file.slice(cwd.length) : file;
}

function readJson(path: string): Json | string {
  if (!path || !existsSync(path)) return `no report (${path || 'none'})`;
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return isObject(parsed) ? parsed : `report is not a JSON object (${path})`;
  } catch (err) {
    return `unreadable report ${path}: ${(err as Error).message}`;
  }
}

function vitestPass(label: string, report: Json): PassResult {
  const failures: string[] = [];
  let loadFailures = 0;
  for (const file of arr(report.testResults)) {
    if (!isObject(file)) continue;
    const name = relative(str(file.name));
    const assertions = arr(file.assertionResults).filter(isObject);
    const failedHere = assertions.filter((a) => a.status === 'failed');
    for (const a of failedHere) {
      const msg = firstLine(str(arr(a.failureMessages)[0]));
      failures.push(`${name} > ${str(a.fullName) || str(a.title)}${msg ? `: ${msg}` : ''}`);
    }
    // A file that failed without a failing test did not load (or a hook failed).
    if (file.status === 'failed' && failedHere.length === 0) {
      loadFailures += 1;
      failures.push(`${name}: ${firstLine(str(file.message)) || 'test file failed'}`);
    }
  }
  const files = num(report.numTotalTestSuites);
  return {
    label,
    passed: num(report.numPassedTests),
    failed: num(report.numFailedTests) + loadFailures,
    skipped: num(report.numPendingTests) + num(report.numTodoTests),
    detail: `${files} file${files === 1 ? '' : 's'}`,
    failures,
  };
}

function playwrightPass(label: string, report: Json): PassResult {
  const stats = isObject(report.stats) ? report.stats : {};
  const failures: string[] = [];
  const walk = (suite: Json, trail: string[]): void => {
    const title = str(suite.title);
    const here = title ? [...trail, title] : trail;
    for (const spec of arr(suite.specs).filter(isObject)) {
      for (const t of arr(spec.tests).filter(isObject)) {
        if (t.status !== 'unexpected') continue;
        const results = arr(t.results).filter(isObject);
        const last = results[results.length - 1];
        const err = last && isObject(last.error) ? str(last.error.message) : '';
        const project = str(t.projectName);
        const where = `${str(spec.file) || here[0] || ''}:${num(spec.line)}`;
        failures.push(
          `${project ? `[${project}] ` : ''}${where} > ${[...here.slice(1), str(spec.title)].join(' > ')}${err ? `: ${firstLine(err)}` : ''}`,
        );
      }
    }
    for (const child of arr(suite.suites).filter(isObject)) walk(child, here);
  };
  for (const suite of arr(report.suites).filter(isObject)) walk(suite, []);
  const errors = arr(report.errors).filter(isObject);
  for (const e of errors) failures.push(`error: ${firstLine(str(e.message)) || 'unknown error'}`);
  const flaky = num(stats.flaky);
  return {
    label,
    passed: num(stats.expected) + flaky,
    failed: num(stats.unexpected) + errors.length,
    skipped: num(stats.skipped),
    detail: flaky ? `${flaky} flaky (passed on retry)` : '',
    failures,
  };
}

function main(): number {
  const manifest = process.argv[2];
  if (!manifest || !existsSync(manifest)) {
    console.error(`summary: manifest not found: ${manifest ?? '(none given)'}`);
    console.log('0 passed, 1 failed');
    return 1;
  }
  const results: PassResult[] = [];
  const lines = readFileSync(manifest, 'utf8').split('\n').filter(Boolean);
  for (const line of lines) {
    const [label = '?', kind = '', reportPath = '', exitText = '', note = ''] = line.split('\t');
    const exit = Number.parseInt(exitText, 10);
    const exitCode = Number.isNaN(exit) ? 0 : exit;

    if (kind === 'skip') {
      results.push({
        label,
        passed: 0,
        failed: CI ? 1 : 0,
        skipped: 0,
        detail: `SKIPPED: ${note}${CI ? ' (a failure under CI)' : ''}`,
        failures: CI ? [`did not run: ${note}`] : [],
      });
      continue;
    }
    if (kind === 'step') {
      const ok = exitCode === 0;
      results.push({
        label,
        passed: 0,
        failed: ok ? 0 : 1,
        skipped: 0,
        detail: ok ? 'ok' : `FAILED (exit ${exitCode})${note ? `: ${note}` : ''}`,
        failures: ok ? [] : [`exited with code ${exitCode}${note ? ` (${note})` : ''}`],
      });
      continue;
    }

    const report = readJson(reportPath);
    if (typeof report === 'string') {
      results.push({
        label,
        passed: 0,
        failed: 1,
        skipped: 0,
        detail: `FAILED: ${report}, exit ${exitCode}`,
        failures: [`${report} (runner exit code ${exitCode})`],
      });
      continue;
    }
    const r = kind === 'playwright' ? playwrightPass(label, report) : vitestPass(label, report);
    if (exitCode !== 0 && r.failed === 0) {
      r.failed = 1;
      r.failures.push(
        `runner exited with code ${exitCode} without a failing test (unhandled error? see its output above)`,
      );
    }
    if (r.passed + r.failed + r.skipped === 0) {
      r.detail = [r.detail, 'NO TESTS RAN'].filter(Boolean).join(', ');
      if (CI) {
        r.failed = 1;
        r.failures.push('no tests ran (a failure under CI)');
      }
    }
    results.push(r);
  }

  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const r of results) {
    total.passed += r.passed;
    total.failed += r.failed;
    total.skipped += r.skipped;
  }

  const width = Math.max(...results.map((r) => r.label.length), 4);
  console.log('');
  console.log('Test summary');
  console.log('-'.repeat(width + 50));
  for (const r of results) {
    const counts = `${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`;
    console.log(
      `  ${r.label.padEnd(width)}  ${counts.padEnd(36)}${r.detail ? `  ${r.detail}` : ''}`,
    );
  }
  const failures = results.flatMap((r) => r.failures.map((f) => `[${r.label}] ${f}`));
  if (failures.length > 0) {
    console.log('');
    console.log('Failures:');
    for (const f of failures.slice(0, MAX_LISTED_FAILURES)) console.log(`  - ${f}`);
    if (failures.length > MAX_LISTED_FAILURES) {
      console.log(`  ... and ${failures.length - MAX_LISTED_FAILURES} more (see the output above)`);
    }
  }
  console.log('-'.repeat(width + 50));
  console.log(
    `${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`,
  );
  return total.failed > 0 ? 1 : 0;
}

process.exitCode = main();
