import path from 'node:path';
import { isIP } from 'node:net';
import type { JWK } from 'jose';
import v8 from 'node:v8';
import type { PressureConfig } from './plugins/pressure.ts';

/** Everything the server reads from its environment, checked once at start-up. */
export interface Config {
  port: number;
  host: string;
  /** Where PGlite, uploads, keys and the SMS outbox live; null keeps everything in memory (tests). */
  dataDir: string | null;
  databaseUrl: string | null;
  /**
   * PostgreSQL connections a server process gives its writers and jobs (DATABASE_POOL_MAX); the
   * reading path has a quarter as many of its own, at least 2 (db/client.ts), and the cache bus
   * one. 4 by default (decision record 56): more let more statements run at once than a small
   * database has cores, and their backends take the CPU from the servers' event loops.
   */
  databasePoolMax: number;
  publicUrl: string;
  imagesHost: string;
  demoSeed: boolean;
  production: boolean;
  /** Folder of the built web app (dist/client and dist/server); pages are off when missing. */
  webDist: string;
  /** `audioStreamMax`: a listener's stream requests a minute per track (seeks and refills). */
  rateLimit: { max: number; authMax: number; uploadMax: number; audioStreamMax: number };
  /** How often idle job workers look for due jobs (scheduled episodes go out within this). */
  jobPollSeconds: number;
  /**
   * Who sends SMS and bills: the built-in carrier simulator or an Ideamart-style carrier. The
   * simulator is the default outside production; in production only with CARRIER_SIMULATOR=1.
   */
  smsProvider: 'simulator' | 'ideamart';
  billingProvider: 'simulator' | 'ideamart';
  /**
   * The carrier's HTTP API. `url` null with the simulator (it listens on an ephemeral port of its
   * own); `webhookSecret` null: with the simulator one is made once and kept in DATA_DIR/keys.
   * `simulatorDelayMs` slows each SMS the simulator delivers (tests that stop a server midway).
   */
  carrier: {
    url: string | null;
    appPassword: string;
    webhookSecret: string | null;
    simulatorDelayMs: number;
  };
  /**
   * Web Push (VAPID). Keys null: a pair is made once and kept in DATA_DIR (in memory for tests).
   * `subject` is the contact push services may use: an https: URL or a mailto: address.
   */
  vapid: { publicKey: string | null; privateKey: string | null; subject: string };
  /**
   * E-mail (the mailing list): SMTP when `smtpUrl` is set, else each message is an .eml file in
   * DATA_DIR/mail-outbox. `requestMax`: confirmation e-mails one IP address may ask for a
   * minute.
   */
  mail: { smtpUrl: string | null; from: string; requestMax: number };
  /**
   * Token keys and shared secrets. `signingKey` (TOKEN_SIGNING_KEY) set: configuration gives the
   * keys (with `verifyKeys`, TOKEN_VERIFY_KEYS); else they are kept in the database.
   * `encryptionSecret` (KEY_ENCRYPTION_SECRET) seals private keys and secrets stored there.
   */
  keys: { signingKey: JWK | null; verifyKeys: JWK[]; encryptionSecret: string | null };
  /** S3-compatible storage for uploaded files when S3_BUCKET is set; null keeps them on local disk. */
  s3: S3Config | null;
  /** Past these the server answers 503 with Retry-After (plugins/pressure.ts); 0 is off. */
  pressure: PressureConfig;
  /** SIGTERM waits this long for in-flight requests and jobs before exiting anyway. */
  shutdownTimeoutSeconds: number;
  /**
   * Addresses (or CIDRs, or `loopback`, `linklocal`, `uniquelocal`) of the proxies whose
   * X-Forwarded-For is believed (TRUST_PROXY); empty takes the client's address from the
   * connection. Behind a proxy, set it, or every reader shares the proxy's rate-limit budget.
   */
  trustProxy: string[];
  /**
   * Server processes (WORKERS): above 1, main.ts is a node:cluster primary forking this many
   * workers on one port. Needs PostgreSQL: PGlite is a database inside one process.
   */
  workers: number;
  /**
   * Sign-in with Google and Facebook. A provider with its client id and secret talks to the real
   * provider; without them the built-in simulator (/dev/oauth/) plays it when `simulator` is on
   * (OAUTH_SIMULATOR; by default as CARRIER_SIMULATOR: on outside production); else no button.
   */
  oauth: { google: OAuthClient | null; facebook: OAuthClient | null; simulator: boolean };
  /**
   * Campaigns. `contestMinAccountAgeDays` (CONTEST_MIN_ACCOUNT_AGE_DAYS): readers' accounts younger
   * than this at a contest's end do not count for its ranking. `reportHosts` (AD_REPORT_HOSTS,
   * comma-separated): the only hosts an ad-metrics report may be fetched from.
   */
  campaigns: { contestMinAccountAgeDays: number; reportHosts: string[] };
}

/** A client registered with a sign-in provider. */
export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}

export class ConfigError extends Error {}

const readInt = (
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
) => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got '${raw}'.`);
  return n;
};

const readBool = (env: NodeJS.ProcessEnv, name: string, fallback: boolean) => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be 1 or 0 (true or false), got '${raw}'.`);
};

const readUrl = (env: NodeJS.ProcessEnv, name: string, fallback: string) => {
  const raw = env[name] || fallback;
  try {
    const url = new URL(raw);
    if (!['http:', 'https:'].includes(url.protocol)) throw new Error();
    return raw.replace(/\/$/, '');
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got '${raw}'.`);
  }
};

const readChoice = <T extends string>(env: NodeJS.ProcessEnv, name: string, choices: T[]): T => {
  const raw = env[name] || choices[0]!;
  if (!choices.includes(raw as T))
    throw new ConfigError(`${name} must be one of ${choices.join(', ')}, got '${raw}'.`);
  return raw as T;
};

/** VAPID keys come as a pair or not at all; the subject must be https: or mailto:. */
const readVapid = (env: NodeJS.ProcessEnv, publicUrl: string): Config['vapid'] => {
  const publicKey = env.VAPID_PUBLIC_KEY || null;
  const privateKey = env.VAPID_PRIVATE_KEY || null;
  if (!publicKey !== !privateKey)
    throw new ConfigError(
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together, or neither.',
    );
  const subject =
    env.VAPID_SUBJECT ||
    (publicUrl.startsWith('https://') ? publicUrl : 'mailto:webmaster@localhost');
  if (!/^(https:\/\/|mailto:)\S+$/.test(subject))
    throw new ConfigError(
      `VAPID_SUBJECT must be an https: URL or a mailto: address, got '${subject}'.`,
    );
  return { publicKey, privateKey, subject };
};

/** The carrier's address and secrets; an Ideamart-style carrier needs its URL and webhook secret. */
const readCarrier = (env: NodeJS.ProcessEnv, providers: string[]): Config['carrier'] => {
  const real = providers.includes('ideamart');
  const url = env.CARRIER_URL ? readUrl(env, 'CARRIER_URL', '') : null;
  if (real && !url)
    throw new ConfigError(
      'CARRIER_URL is required when BILLING_PROVIDER or SMS_PROVIDER is ideamart.',
    );
  const webhookSecret = env.CARRIER_WEBHOOK_SECRET || null;
  if (real && !webhookSecret)
    throw new ConfigError(
      'CARRIER_WEBHOOK_SECRET is required when BILLING_PROVIDER or SMS_PROVIDER is ideamart.',
    );
  if (webhookSecret && webhookSecret.length < 16)
    throw new ConfigError('CARRIER_WEBHOOK_SECRET must be at least 16 characters long.');
  return {
    url,
    appPassword: env.CARRIER_APP_PASSWORD || 'simulator',
    webhookSecret,
    simulatorDelayMs: readInt(env, 'CARRIER_SIMULATOR_DELAY_MS', 0, 0, 60_000),
  };
};

/** SMTP_URL is smtp:// or smtps://; MAIL_FROM is an address, optionally with a name. */
const readMail = (env: NodeJS.ProcessEnv): Config['mail'] => {
  const smtpUrl = env.SMTP_URL || null;
  if (smtpUrl && !/^smtps?:\/\/[^\s]+$/.test(smtpUrl))
    throw new ConfigError('SMTP_URL must start with smtp:// or smtps://.');
  const from = env.MAIL_FROM || 'Kathamala <no-reply@kathamala.lk>';
  if (!/^([^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(from.trim()))
    throw new ConfigError(
      `MAIL_FROM must be an e-mail address such as 'Name <a@b.lk>', got '${from}'.`,
    );
  return {
    smtpUrl,
    from: from.trim(),
    requestMax: readInt(env, 'RATE_LIMIT_MAIL_MAX', 5, 1, 1_000_000),
  };
};

/** Load-shedding thresholds; the heap's default is 90% of V8's limit (it grows with --max-old-space-size). */
const readPressure = (env: NodeJS.ProcessEnv): PressureConfig => {
  const MB = 1024 * 1024;
  const heapDefault = Math.floor((v8.getHeapStatistics().heap_size_limit * 0.9) / MB);
  return {
    maxEventLoopDelayMs: readInt(env, 'PRESSURE_MAX_EVENT_LOOP_DELAY_MS', 1000, 0, 60_000),
    maxHeapUsedBytes: readInt(env, 'PRESSURE_MAX_HEAP_MB', heapDefault, 0, 1_000_000) * MB,
    maxRssBytes: readInt(env, 'PRESSURE_MAX_RSS_MB', 0, 0, 1_000_000) * MB,
    maxInFlight: readInt(env, 'PRESSURE_MAX_IN_FLIGHT', 500, 0, 1_000_000),
    retryAfterSeconds: readInt(env, 'PRESSURE_RETRY_AFTER_SECONDS', 5, 1, 3600),
  };
};

/** Where uploaded files go on an S3-compatible store (AWS S3, MinIO, R2, ...). */
export interface S3Config {
  bucket: string;
  /** null: AWS's own endpoint for the region. */
  endpoint: string | null;
  region: string;
  /** null: the AWS SDK's usual chain (environment, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
}

const parseJson = (env: NodeJS.ProcessEnv, name: string): unknown => {
  try {
    return JSON.parse(env[name]!);
  } catch {
    throw new ConfigError(`${name} must be JSON.`);
  }
};

const isEd25519 = (k: unknown): k is JWK =>
  typeof k === 'object' &&
  k !== null &&
  (k as JWK).kty === 'OKP' &&
  (k as JWK).crv === 'Ed25519' &&
  typeof (k as JWK).x === 'string';

/** TOKEN_SIGNING_KEY (an Ed25519 private JWK), TOKEN_VERIFY_KEYS (public JWKs), KEY_ENCRYPTION_SECRET. */
const readKeys = (env: NodeJS.ProcessEnv): Config['keys'] => {
  let signingKey: JWK | null = null;
  if (env.TOKEN_SIGNING_KEY) {
    const k = parseJson(env, 'TOKEN_SIGNING_KEY');
    if (!isEd25519(k) || typeof k.d !== 'string')
      throw new ConfigError(
        'TOKEN_SIGNING_KEY must be an Ed25519 private key as a JWK: {"kty":"OKP","crv":"Ed25519","x":…,"d":…}.',
      );
    signingKey = k;
  }
  let verifyKeys: JWK[] = [];
  if (env.TOKEN_VERIFY_KEYS) {
    if (!signingKey) throw new ConfigError('TOKEN_VERIFY_KEYS needs TOKEN_SIGNING_KEY too.');
    const v = parseJson(env, 'TOKEN_VERIFY_KEYS') as unknown;
    const list = Array.isArray(v) ? v : (v as { keys?: unknown })?.keys;
    if (!Array.isArray(list) || !list.every(isEd25519))
      throw new ConfigError(
        'TOKEN_VERIFY_KEYS must be a JSON array (or a JWKS {"keys": [...]}) of Ed25519 public JWKs.',
      );
    verifyKeys = list.map((k: JWK) => ({ kty: k.kty, crv: k.crv, x: k.x, kid: k.kid }));
  }
  const encryptionSecret = env.KEY_ENCRYPTION_SECRET || null;
  if (encryptionSecret && encryptionSecret.length < 16)
    throw new ConfigError('KEY_ENCRYPTION_SECRET must be at least 16 characters long.');
  return { signingKey, verifyKeys, encryptionSecret };
};

/** S3_* settings; S3_BUCKET switches S3 on. */
const readS3 = (env: NodeJS.ProcessEnv): S3Config | null => {
  const bucket = env.S3_BUCKET || null;
  if (!bucket) return null;
  const accessKeyId = env.S3_ACCESS_KEY_ID || null;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || null;
  if (!accessKeyId !== !secretAccessKey)
    throw new ConfigError(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together, or neither.',
    );
  return {
    bucket,
    endpoint: env.S3_ENDPOINT ? readUrl(env, 'S3_ENDPOINT', '') : null,
    region: env.S3_REGION || 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null,
    forcePathStyle: readBool(env, 'S3_FORCE_PATH_STYLE', false),
  };
};

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/**
 * The carrier simulator lists every subscriber's number and code on /dev/sms/ and charges or
 * ends memberships from there: a production server plays the carrier with it only when told to
 * (CARRIER_SIMULATOR=1, a demo such as `npm start`), and refuses to start with no carrier at all.
 */
const NO_CARRIER =
  'NODE_ENV is production but no carrier is configured: set SMS_PROVIDER=ideamart and BILLING_PROVIDER=ideamart with CARRIER_URL and CARRIER_WEBHOOK_SECRET, or set CARRIER_SIMULATOR=1 to run the built-in carrier simulator for a demo (no SMS reaches a phone and nobody is charged).';

const readProviders = (env: NodeJS.ProcessEnv, production: boolean) => {
  const simulatorAllowed = readBool(env, 'CARRIER_SIMULATOR', !production);
  const provider = (name: 'SMS_PROVIDER' | 'BILLING_PROVIDER') => {
    const choice = readChoice(env, name, ['simulator', 'ideamart']);
    if (choice === 'simulator' && !simulatorAllowed)
      throw new ConfigError(
        env[name]
          ? `${name}=simulator needs CARRIER_SIMULATOR=1: the simulator is a demo carrier (no SMS reaches a phone and nobody is charged).`
          : NO_CARRIER,
      );
    return choice;
  };
  const smsProvider = provider('SMS_PROVIDER');
  const billingProvider = provider('BILLING_PROVIDER');
  return {
    smsProvider,
    billingProvider,
    carrier: readCarrier(env, [smsProvider, billingProvider]),
  };
};

/** GOOGLE_CLIENT_ID/SECRET, FACEBOOK_CLIENT_ID/SECRET (each pair together) and OAUTH_SIMULATOR. */
const readOAuth = (env: NodeJS.ProcessEnv, production: boolean): Config['oauth'] => {
  const client = (name: 'GOOGLE' | 'FACEBOOK'): OAuthClient | null => {
    const clientId = env[`${name}_CLIENT_ID`] || null;
    const clientSecret = env[`${name}_CLIENT_SECRET`] || null;
    if (!clientId !== !clientSecret)
      throw new ConfigError(
        `${name}_CLIENT_ID and ${name}_CLIENT_SECRET must be set together, or neither.`,
      );
    return clientId && clientSecret ? { clientId, clientSecret } : null;
  };
  const carrierSimulator = readBool(env, 'CARRIER_SIMULATOR', !production);
  return {
    google: client('GOOGLE'),
    facebook: client('FACEBOOK'),
    simulator: readBool(env, 'OAUTH_SIMULATOR', carrierSimulator),
  };
};

/** TRUST_PROXY: comma-separated proxy addresses, CIDRs or proxy-addr's range names. */
const readTrustProxy = (env: NodeJS.ProcessEnv): string[] => {
  const list = (env.TRUST_PROXY ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of list) {
    const [address = '', bits, extra] = entry.split('/');
    const named = ['loopback', 'linklocal', 'uniquelocal'].includes(entry);
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (!named && (!family || !bitsOk || extra !== undefined))
      throw new ConfigError(
        `TRUST_PROXY must list proxy addresses or CIDRs (or loopback, linklocal, uniquelocal), separated by commas; '${entry}' is none of these.`,
      );
  }
  return list;
};

/** Reads and validates the configuration; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = readInt(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const publicUrl = readUrl(
    env,
    'PUBLIC_URL',
    `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
  );
  const databaseUrl = env.DATABASE_URL || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new ConfigError(`DATABASE_URL must start with postgres:// or postgresql://.`);
  const production = env.NODE_ENV === 'production';
  const workers = readInt(env, 'WORKERS', 1, 1, 256);
  if (workers > 1 && !databaseUrl)
    throw new ConfigError(
      `WORKERS=${workers} needs PostgreSQL (DATABASE_URL): without it the database is PGlite, which lives inside one process and cannot be shared by several. Set DATABASE_URL or WORKERS=1.`,
    );
  return {
    port,
    host,
    dataDir: path.resolve(env.DATA_DIR || path.join(repoRoot, 'data')),
    databaseUrl,
    databasePoolMax: readInt(env, 'DATABASE_POOL_MAX', 4, 1, 1000),
    publicUrl,
    imagesHost: readUrl(env, 'IMAGES_HOST', `${publicUrl}/images`),
    demoSeed: readBool(env, 'DEMO_SEED', true),
    production,
    webDist: path.resolve(env.WEB_DIST || path.join(repoRoot, 'apps/web/dist')),
    rateLimit: {
      max: readInt(env, 'RATE_LIMIT_MAX', 600, 1, 1_000_000_000),
      authMax: readInt(env, 'RATE_LIMIT_AUTH_MAX', 20, 1, 1_000_000),
      uploadMax: readInt(env, 'RATE_LIMIT_UPLOAD_MAX', 12, 1, 1_000_000),
      audioStreamMax: readInt(env, 'AUDIO_STREAM_PER_MINUTE', 600, 1, 1_000_000_000),
    },
    jobPollSeconds: readInt(env, 'JOB_POLL_SECONDS', 2, 1, 60),
    ...readProviders(env, production),
    vapid: readVapid(env, publicUrl),
    mail: readMail(env),
    keys: readKeys(env),
    s3: readS3(env),
    pressure: readPressure(env),
    shutdownTimeoutSeconds: readInt(env, 'SHUTDOWN_TIMEOUT_SECONDS', 25, 1, 3600),
    trustProxy: readTrustProxy(env),
    workers,
    oauth: readOAuth(env, production),
    campaigns: {
      contestMinAccountAgeDays: readInt(env, 'CONTEST_MIN_ACCOUNT_AGE_DAYS', 7, 0, 365),
      reportHosts: (env.AD_REPORT_HOSTS ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    },
  };
}

/**
 * What start-up says, loudly, when a production server plays the carrier with the simulator
 * (CARRIER_SIMULATOR=1); null otherwise.
 */
export function simulatorWarning(
  config: Pick<Config, 'production' | 'smsProvider' | 'billingProvider' | 'publicUrl'>,
): string | null {
  if (!config.production) return null;
  if (config.smsProvider !== 'simulator' && config.billingProvider !== 'simulator') return null;
  return `DEMO CARRIER: NODE_ENV is production and the built-in carrier simulator plays the carrier (CARRIER_SIMULATOR=1). No SMS reaches a phone and nobody is charged; its page ${config.publicUrl}/dev/sms/ answers only on this machine. Not for a real deployment: configure an Ideamart-style carrier (SMS_PROVIDER, BILLING_PROVIDER, CARRIER_URL, CARRIER_WEBHOOK_SECRET).`;
}

/**
 * What start-up should say when a production server lets the built-in sign-in simulator play
 * Google or Facebook (OAUTH_SIMULATOR or CARRIER_SIMULATOR on, no client configured); null
 * otherwise. Its pages answer only on the server's own machine.
 */
export function oauthSimulatorWarning(
  config: Pick<Config, 'production' | 'oauth' | 'publicUrl'>,
): string | null {
  if (!config.production || !config.oauth.simulator) return null;
  const played = (['google', 'facebook'] as const).filter((p) => !config.oauth[p]);
  if (played.length === 0) return null;
  return `DEMO SIGN-IN: NODE_ENV is production and the built-in simulator plays ${played.join(' and ')} (${config.publicUrl}/dev/oauth/, answering only on this machine). Not for a real deployment: set GOOGLE_CLIENT_ID/GOOGLE_CLIENT_SECRET and FACEBOOK_CLIENT_ID/FACEBOOK_CLIENT_SECRET, or OAUTH_SIMULATOR=0.`;
}
