import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { simulatorWarning, type Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { SharedSecrets } from '../auth/deployment-secrets.ts';
import { billingApps, subscriptions } from '../db/schema.ts';
import { ideamartBilling } from './billing/ideamart.ts';
import type { BillingAdapter } from './billing/types.ts';
import { ideamartSms } from './sms/ideamart.ts';
import type { SmsAdapter } from './sms/types.ts';
import { startSimulator, type CarrierSimulator } from './simulator/simulator.ts';

/** The carrier as the rest of the server sees it: billing, SMS, and the simulator when it plays the carrier. */
export interface Carrier {
  billing: BillingAdapter;
  sms: SmsAdapter;
  /** The built-in carrier, when BILLING_PROVIDER or SMS_PROVIDER is 'simulator'; else null. */
  simulator: CarrierSimulator | null;
  /** Said at start-up when a production server plays the carrier with the simulator (a demo). */
  warning: string | null;
  /** The secret carrier notifications to our webhook are signed with. */
  webhookSecret: string;
  /** Our webhook's address is known once the server listens: the simulator posts there. */
  listening(webhookUrl: string): void;
  /** Hands the simulator our billing apps and the active subscriptions it does not know yet. */
  provision(db: Db): Promise<void>;
  close(): Promise<void>;
}

/** The secret kept in DATA_DIR/keys/carrier.json (by older versions, or without a database), or null. */
async function readSecretFile(file: string | null) {
  if (!file) return null;
  try {
    const saved = JSON.parse(await fs.readFile(file, 'utf8')) as { webhookSecret?: string };
    return saved.webhookSecret || null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    return null;
  }
}

/**
 * The webhook secret: the configured one; else, with shared `secrets` (the server), the one every
 * instance shares in the database (DATA_DIR/keys/carrier.json imported once); else one made once
 * and kept in DATA_DIR/keys/carrier.json (so notifications in flight survive a restart); memory
 * when no dir.
 */
async function loadWebhookSecret(
  configured: string | null,
  dataDir: string | null,
  secrets: SharedSecrets | undefined,
) {
  if (configured) return configured;
  const file = dataDir ? path.join(dataDir, 'keys', 'carrier.json') : null;
  const make = () => randomBytes(32).toString('hex');
  if (secrets)
    return secrets.get('carrier.webhook', { fromFile: () => readSecretFile(file), make });
  const saved = await readSecretFile(file);
  if (saved) return saved;
  const secret = make();
  if (file) {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await fs.writeFile(file, JSON.stringify({ webhookSecret: secret }), { mode: 0o600 });
  }
  return secret;
}

/**
 * Starts the carrier the configuration names. With the simulator (the default outside
 * production, a demo inside it: CARRIER_SIMULATOR=1) a carrier is
 * started inside this process on an ephemeral port and our real HTTP adapters talk to it.
 * `dataDir` null keeps the simulator's outbox and state in memory (tests); `secrets` shares the
 * webhook secret between instances through the database.
 */
export async function startCarrier(
  config: Pick<Config, 'billingProvider' | 'smsProvider' | 'carrier' | 'production' | 'publicUrl'>,
  opts: { dataDir: string | null; now?: () => number; secrets?: SharedSecrets },
): Promise<Carrier> {
  const simulated = config.billingProvider === 'simulator' || config.smsProvider === 'simulator';
  const webhookSecret = await loadWebhookSecret(
    config.carrier.webhookSecret,
    opts.dataDir,
    opts.secrets,
  );
  const simulator = simulated
    ? await startSimulator({
        dataDir: opts.dataDir,
        password: config.carrier.appPassword,
        delayMs: config.carrier.simulatorDelayMs,
        now: opts.now,
      })
    : null;
  const endpoint = (provider: 'simulator' | 'ideamart') => ({
    baseUrl: provider === 'simulator' ? simulator!.baseUrl : config.carrier.url!,
    password: config.carrier.appPassword,
  });
  return {
    billing: ideamartBilling(endpoint(config.billingProvider)),
    sms: ideamartSms(endpoint(config.smsProvider)),
    simulator,
    warning: simulator ? simulatorWarning(config) : null,
    webhookSecret,
    listening(webhookUrl) {
      simulator?.setWebhook(webhookUrl, webhookSecret);
    },
    async provision(db) {
      if (!simulator) return;
      simulator.learnApps(await db.select().from(billingApps));
      const active = await db
        .select({
          appId: subscriptions.appId,
          mobile: subscriptions.mobile,
          nextChargeAt: subscriptions.nextChargeAt,
        })
        .from(subscriptions)
        .where(eq(subscriptions.status, 'active'));
      simulator.provision(active);
    },
    async close() {
      await simulator?.close();
    },
  };
}
