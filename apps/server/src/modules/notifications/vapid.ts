import fs from 'node:fs/promises';
import path from 'node:path';
import webpush from 'web-push';
import type { Config } from '../../config.ts';
import type { SharedSecrets } from '../../auth/deployment-secrets.ts';

/** The server's VAPID identity: browsers subscribe with the public key, pushes are signed with the private one. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

const bytes = (key: string) => Buffer.from(key, 'base64url').length;

/** A P-256 public key is a 65-byte uncompressed point and the private key 32 bytes, base64url. */
const checkPair = (publicKey: string, privateKey: string, where: string) => {
  if (!/^[A-Za-z0-9_-]+$/.test(publicKey) || bytes(publicKey) !== 65)
    throw new Error(`${where}: the VAPID public key must be 65 bytes in URL-safe base64.`);
  if (!/^[A-Za-z0-9_-]+$/.test(privateKey) || bytes(privateKey) !== 32)
    throw new Error(`${where}: the VAPID private key must be 32 bytes in URL-safe base64.`);
};

/**
 * The VAPID keys from the environment; else, with shared `secrets` (the server), the pair every
 * instance shares in the database (DATA_DIR/keys/vapid.json imported once); else from
 * DATA_DIR/keys/vapid.json (made there once, so browsers' subscriptions survive restarts), else
 * a throwaway pair (`dataDir` null: tests).
 */
export async function loadVapidKeys(
  dataDir: string | null,
  config: Config['vapid'],
  secrets?: SharedSecrets,
): Promise<VapidKeys> {
  if (config.publicKey && config.privateKey) {
    checkPair(config.publicKey, config.privateKey, 'VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY');
    return { publicKey: config.publicKey, privateKey: config.privateKey, subject: config.subject };
  }
  const file = dataDir ? path.join(dataDir, 'keys', 'vapid.json') : null;
  const readFile = async () => {
    if (!file) return null;
    try {
      const kept = JSON.parse(await fs.readFile(file, 'utf8')) as {
        publicKey: string;
        privateKey: string;
      };
      checkPair(kept.publicKey, kept.privateKey, file);
      return { publicKey: kept.publicKey, privateKey: kept.privateKey };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      return null;
    }
  };
  if (secrets) {
    const stored = await secrets.get('vapid', {
      fromFile: async () => {
        const kept = await readFile();
        return kept && JSON.stringify(kept);
      },
      make: () => JSON.stringify(webpush.generateVAPIDKeys()),
    });
    const kept = JSON.parse(stored) as { publicKey: string; privateKey: string };
    checkPair(kept.publicKey, kept.privateKey, "the database's deployment_secrets 'vapid'");
    return { publicKey: kept.publicKey, privateKey: kept.privateKey, subject: config.subject };
  }
  const kept = await readFile();
  if (kept) return { ...kept, subject: config.subject };
  const { publicKey, privateKey } = webpush.generateVAPIDKeys();
  if (file) {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await fs.writeFile(file, JSON.stringify({ publicKey, privateKey }), { mode: 0o600 });
  }
  return { publicKey, privateKey, subject: config.subject };
}
