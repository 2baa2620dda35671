import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** One row of signing_keys as stored (the private JWK still sealed). */
export interface StoredKey {
  kid: string;
  publicJwk: Record<string, unknown>;
  privateJwk: string;
  createdAt: Date;
  retireAfter: Date | null;
}

/** Serialises key creation and rotation across every instance sharing the database. */
const KEYS_LOCK = 727011;

/** SQL behind the deployment's signing keys and shared secrets. */
export const keysRepo = (db: Db) => {
  const rows = async <T>(d: Db, query: ReturnType<typeof sql>) =>
    ((await d.execute(query)) as unknown as { rows: T[] }).rows;
  const toKey = (r: {
    kid: string;
    public_jwk: Record<string, unknown> | string;
    private_jwk: string;
    created_at: Date | string;
    retire_after: Date | string | null;
  }): StoredKey => ({
    kid: r.kid,
    publicJwk: typeof r.public_jwk === 'string' ? JSON.parse(r.public_jwk) : r.public_jwk,
    privateJwk: r.private_jwk,
    createdAt: new Date(r.created_at),
    retireAfter: r.retire_after === null ? null : new Date(r.retire_after),
  });

  const repo = (d: Db) => ({
    /** Keys that still verify (not past retire_after), newest first; all of them with `all`. */
    keys: async (opts: { all?: boolean } = {}) =>
      (
        await rows<Parameters<typeof toKey>[0]>(
          d,
          opts.all
            ? sql`select * from signing_keys order by created_at desc, kid`
            : sql`select * from signing_keys
                  where retire_after is null or retire_after > now()
                  order by created_at desc, kid`,
        )
      ).map(toKey),

    /** Adds a key; `signsFrom` null means now (created_at is when a key starts signing). */
    insertKey: (k: {
      kid: string;
      publicJwk: object;
      privateJwk: string;
      signsFrom?: Date | null;
      retireAfter: Date | null;
    }) =>
      d.execute(sql`
        insert into signing_keys (kid, public_jwk, private_jwk, created_at, retire_after)
        values (${k.kid}, ${JSON.stringify(k.publicJwk)}::jsonb, ${k.privateJwk},
                coalesce(${k.signsFrom?.toISOString() ?? null}::timestamptz, now()),
                ${k.retireAfter?.toISOString() ?? null}::timestamptz)
        on conflict (kid) do nothing`),

    /** Gives every other key still without an end `retireAfter`: they verify until then only. */
    retireOthers: async (kid: string, retireAfter: Date) =>
      (
        await rows<{ kid: string }>(
          d,
          sql`update signing_keys set retire_after = ${retireAfter.toISOString()}::timestamptz
              where retire_after is null and kid <> ${kid} returning kid`,
        )
      ).map((r) => r.kid),

    /** Replaces a key's stored private JWK (sealing a plain one once a secret is given). */
    resealKey: (kid: string, privateJwk: string) =>
      d.execute(sql`update signing_keys set private_jwk = ${privateJwk} where kid = ${kid}`),

    /** The stored value of a shared secret, or null. */
    secret: async (name: string) =>
      (
        await rows<{ value: string }>(
          d,
          sql`select value from deployment_secrets where name = ${name}`,
        )
      )[0]?.value ?? null,

    /** Stores the secret unless one is there already, and answers the one stored (first wins). */
    putSecretOnce: async (name: string, value: string) => {
      await d.execute(sql`
        insert into deployment_secrets (name, value) values (${name}, ${value})
        on conflict (name) do nothing`);
      return (
        await rows<{ value: string }>(
          d,
          sql`select value from deployment_secrets where name = ${name}`,
        )
      )[0]!.value;
    },
  });

  return {
    ...repo(db),
    /** Runs `fn` in a transaction holding the keys lock, so instances starting at once agree. */
    locked: <T>(fn: (r: ReturnType<typeof repo>) => Promise<T>) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${KEYS_LOCK})`);
        return fn(repo(tx as unknown as Db));
      }),
  };
};
export type KeysRepo = ReturnType<typeof keysRepo>;
