import type { FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Role } from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import { forbidden, unauthorized } from '../../errors.ts';
import type { Viewer } from '../../auth/viewer.ts';

/** A viewer with their community role. */
export interface RoledViewer extends Viewer {
  role: Role;
}

/** What each role may be called in a refusal's sentence. */
const ROLE_NAMES: Record<Role, string> = {
  reader: 'readers',
  author: 'authors',
  editor: 'editors',
  admin: 'admins',
};

/** The user's role (one primary-key lookup); 'reader' for an id with no row. */
export async function roleOf(db: Db, userId: number): Promise<Role> {
  const { rows } = (await db.execute(
    sql`select role from users where id = ${userId}`,
  )) as unknown as {
    rows: { role: Role }[];
  };
  return rows[0]?.role ?? 'reader';
}

/** The database roles come from, set once by the community module at start-up. */
let rolesDb: Db | null = null;
/** Called by communityModule: the guard reads roles from this database. */
export const useRolesDb = (db: Db) => {
  rolesDb = db;
};

/**
 * The guard of editors' and admins' calls: 401 for a visitor, 403 with a sentence for anyone
 * whose role is not one of `roles` (an admin passes every editor check). Answers the viewer
 * with their role. The role is read from the database (one indexed query) rather than the token,
 * so a role removed takes effect on the next call.
 */
export async function requireRole(request: FastifyRequest, ...roles: Role[]): Promise<RoledViewer> {
  const viewer = request.viewer;
  if (!viewer) throw unauthorized();
  if (!rolesDb) throw new Error('requireRole before the community module started');
  const role = await roleOf(rolesDb, viewer.userId);
  const allowed = roles.includes(role) || (role === 'admin' && roles.includes('editor'));
  if (!allowed)
    throw forbidden(
      `Only ${roles.map((r) => ROLE_NAMES[r]).join(' and ')} may do this. Your account is one of the ${ROLE_NAMES[role]}.`,
    );
  return { ...viewer, role };
}

/** Whether a role reviews posts (editors and admins). */
export const isEditor = (role: Role) => role === 'editor' || role === 'admin';
