// npm run role -- --email someone@example.com --role editor: grants or removes a community role.
//
// How the first admin is made (`--role admin`), and how any role changes without the product's
// admin page. `--role reader` (or author) removes editor or admin; an author stays an author.
// Recorded in the audit log like a change from the page, with no actor (the command line).
// Runs against the server's database (DATABASE_URL, else the PGlite in DATA_DIR, which only one
// process may open: stop that server first).
import fs from 'node:fs';
import path from 'node:path';
import { ROLES, type Role } from '@kathamala/domain';
import { openDatabase } from './db/client.ts';
import { loadConfig } from './config.ts';
import { communityRepo } from './modules/community/repo.ts';
import { setRole } from './modules/community/service.ts';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const email = arg('email');
const role = arg('role') as Role | undefined;
const reason = arg('reason');
if (!email || !role || !ROLES.includes(role)) {
  console.error(
    `role: usage: npm run role -- --email someone@example.com --role ${ROLES.join('|')} [--reason "why"]`,
  );
  process.exit(2);
}

const config = loadConfig();
const pgliteDir = config.databaseUrl ? null : path.join(config.dataDir!, 'pglite');
if (pgliteDir && !fs.existsSync(pgliteDir)) {
  console.error(
    `role: there is no database in ${config.dataDir} yet: start the server once (npm start), or set DATABASE_URL.`,
  );
  process.exit(1);
}
const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir });
try {
  const user = await communityRepo(database.db).userByEmail(email);
  if (!user) {
    console.error(`role: there is no account with the e-mail ${email}.`);
    process.exitCode = 1;
  } else {
    const done = await setRole(database.db, null, Number(user.id), role, reason ?? null);
    console.log(`${email} is now ${done.role === 'reader' ? 'a' : 'an'} ${done.role}.`);
  }
} finally {
  await database.close();
}
