import type { Db } from '../db/client.ts';
import { keysRepo } from './keys-repo.ts';
import { seal, unseal } from './secret-box.ts';

/** Secrets every instance must share (carrier webhook secret, VAPID pair), kept in the database. */
export interface SharedSecrets {
  /**
   * The secret `name`: the stored one, else the one `fromFile` finds (an older version kept it in
   * DATA_DIR, imported once), else `make()`. When two instances store at once the first wins and
   * both answer it.
   */
  get(
    name: string,
    opts: { fromFile: () => Promise<string | null>; make: () => string },
  ): Promise<string>;
}

/** Shared secrets in `deployment_secrets`, sealed with KEY_ENCRYPTION_SECRET when it is given. */
export function sharedSecrets(db: Db, encryptionSecret: string | null): SharedSecrets {
  const repo = keysRepo(db);
  return {
    async get(name, opts) {
      const stored =
        (await repo.secret(name)) ??
        (await repo.putSecretOnce(
          name,
          seal((await opts.fromFile()) ?? opts.make(), encryptionSecret),
        ));
      return unseal(stored, encryptionSecret, `The secret '${name}'`);
    },
  };
}
