import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** One change worth answering for: who did what to which thing, and why. */
export interface AuditRecord {
  /** Who acted; null for the command line (`npm run role`). */
  actorId: number | null;
  /** e.g. 'role.grant', 'role.remove', 'post.remove', 'post.pin', 'review.decide'. */
  action: string;
  /** 'user' | 'post' | 'comment' | 'story_comment' | 'profile' … */
  targetKind: string;
  targetId: number;
  reason?: string | null;
  /** Anything else worth keeping (the old and new role, the decision), as JSON. */
  detail?: unknown;
}

/**
 * Writes an audit row. Call it with the transaction that makes the change (`tx`), so the change
 * and its record commit together or not at all.
 */
export async function recordAudit(tx: Db, entry: AuditRecord): Promise<void> {
  await tx.execute(sql`
    insert into community_audit (actor_id, action, target_kind, target_id, reason, detail)
    values (${entry.actorId}, ${entry.action}, ${entry.targetKind}, ${entry.targetId},
      ${entry.reason ?? null}, ${entry.detail === undefined ? null : JSON.stringify(entry.detail)}::jsonb)`);
}
