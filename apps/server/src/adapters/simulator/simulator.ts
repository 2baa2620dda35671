import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { MEMBERSHIP, PRODUCT_APP_ID, shortCodeOf } from '@kathamala/domain';
import type { CarrierNotification, CarrierStatus } from '../billing/types.ts';
import {
  fromSubscriberId,
  SIGNATURE_HEADER,
  signNotification,
  STATUS,
  STATUS_SUCCESS,
  toSubscriberId,
  toWire,
  type WireSubscriptionStatus,
} from '../billing/wire.ts';

/** One SMS the simulated carrier delivered to a phone, as written to the outbox. */
export interface SimulatedSms {
  to: string;
  text: string;
  at: string;
  /** The sender's requestRef; absent for messages the carrier itself sends (codes, welcomes). */
  ref?: string;
  /** The short code it came from. */
  from?: string;
}

/** A subscriber as the simulated carrier keeps it. */
export interface SimulatedSubscriber {
  appId: string;
  mobile: string;
  status: CarrierStatus;
  since: string;
  nextChargeAt: string | null;
}

/** A billing app the carrier knows: phones register to it by keyword ('REG KATHAMALA'). */
export interface SimulatedApp {
  appId: string;
  name: string;
  keyword: string;
}

export interface SimulatorOptions {
  /** Where the outbox and the simulator's state live; null keeps both in memory (tests). */
  dataDir: string | null;
  /** The application password our adapters must send. */
  password: string;
  /** Milliseconds to wait before delivering each SMS (lets a test stop a server mid-fan-out). */
  delayMs?: number;
  /** The carrier's clock (code expiry, charge dates, notification times); Date.now by default. */
  now?: () => number;
  /** Notification delivery: tries before giving up and the first backoff (doubling). */
  maxDeliveryAttempts?: number;
  firstBackoffMs?: number;
  /** Where failures are reported; console.warn by default. */
  warn?: (message: string) => void;
}

/**
 * A carrier that lives inside our process and speaks the same HTTP protocol as the real one,
 * so the real adapter code runs in development and tests. Besides the protocol it offers what
 * a phone or the carrier's own billing run would do: send an SMS to a short code, charge, or
 * silently drop a subscriber (drift for reconciliation).
 */
export interface CarrierSimulator {
  /** The simulator's API root, http://127.0.0.1:<port>. */
  readonly baseUrl: string;
  /** Where notifications go, signed with `secret`; deliveries held until then start now. */
  setWebhook(url: string, secret: string): void;
  /** Teaches the carrier our billing apps (appId <-> keyword). */
  learnApps(apps: SimulatedApp[]): void;
  /**
   * Registers numbers the carrier does not know yet as active subscribers, without notifying
   * (subscriptions that exist on our side already: the demo seed's members). Answers how many.
   */
  provision(subs: { appId: string; mobile: string; nextChargeAt?: Date | null }[]): number;
  /** A phone texts `text` to `shortCode` (its own short code when omitted); answers what happened. */
  phoneSends(mobile: string, text: string, shortCode?: string): string;
  /** The monthly charge: CHARGE_OK (next charge in 30 days) or CHARGE_FAIL, notified. */
  charge(appId: string, mobile: string, ok: boolean): string;
  /** The carrier ends a subscription without telling us (drift for reconciliation tests). */
  forget(appId: string, mobile: string): void;
  /** The carrier's record of one subscriber, or null. */
  subscriber(appId: string, mobile: string): SimulatedSubscriber | null;
  /** Every subscriber the carrier knows. */
  subscribers(): SimulatedSubscriber[];
  /** The billing apps the carrier knows. */
  apps(): SimulatedApp[];
  /** Every SMS delivered so far, oldest first. */
  outbox(): SimulatedSms[];
  /** The newest 6-digit code sent to `mobile`, or null (tests read it like a phone would). */
  lastCode(mobile: string): string | null;
  /** Notifications that ran out of tries (tests check it stays empty). */
  undelivered(): CarrierNotification[];
  /** Resolves once every notification queued so far is delivered (or given up). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

interface PendingOtp {
  hash: Buffer;
  appId: string;
  mobile: string;
  expiresAt: number;
  wrong: number;
  used: boolean;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest();
const MAX_BODY = 64 * 1024;
const DAY = 86_400_000;
const MONTHLY_FEE = 50;
/** Phones text keywords in any case and spacing. */
const normalizeKeyword = (s: string) => s.trim().toUpperCase().replace(/\s+/g, ' ');

/** Starts the simulator on 127.0.0.1 at an ephemeral port. */
export async function startSimulator(opts: SimulatorOptions): Promise<CarrierSimulator> {
  const now = opts.now ?? Date.now;
  const warn = opts.warn ?? ((m: string) => console.warn(m));
  const maxAttempts = opts.maxDeliveryAttempts ?? 10;
  const firstBackoff = opts.firstBackoffMs ?? 100;
  const outboxFile = opts.dataDir ? path.join(opts.dataDir, 'sms-outbox.jsonl') : null;
  const stateFile = opts.dataDir ? path.join(opts.dataDir, 'carrier-simulator.json') : null;
  if (opts.dataDir) fs.mkdirSync(opts.dataDir, { recursive: true });

  // ---- State: subscribers (persisted), codes (memory: they live 10 minutes), outbox.
  const subs = new Map<string, SimulatedSubscriber>();
  const key = (appId: string, mobile: string) => `${appId}|${mobile}`;
  if (stateFile && fs.existsSync(stateFile)) {
    const saved = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as {
      subscribers: SimulatedSubscriber[];
    };
    for (const s of saved.subscribers) subs.set(key(s.appId, s.mobile), s);
  }
  const save = () => {
    if (!stateFile) return;
    const tmp = `${stateFile}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ subscribers: [...subs.values()] }, null, 1));
    fs.renameSync(tmp, stateFile);
  };

  const memoryOutbox: SimulatedSms[] = [];
  const readOutbox = (): SimulatedSms[] => {
    if (!outboxFile) return [...memoryOutbox];
    let raw: string;
    try {
      raw = fs.readFileSync(outboxFile, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    const out: SimulatedSms[] = [];
    for (const line of raw.split('\n')) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line) as SimulatedSms);
      } catch {
        // A line torn by a kill mid-write: the SMS was not delivered.
      }
    }
    return out;
  };
  // A repeat of a ref to the same number is dropped; the set is rebuilt from the outbox so it
  // holds across a restart (the file is the carrier's memory of what it delivered).
  // A line torn by a kill mid-write is ended, so the next SMS starts a line of its own.
  if (outboxFile && fs.existsSync(outboxFile)) {
    const size = fs.statSync(outboxFile).size;
    if (size > 0) {
      const fd = fs.openSync(outboxFile, 'r');
      const last = Buffer.alloc(1);
      fs.readSync(fd, last, 0, 1, size - 1);
      fs.closeSync(fd);
      if (last[0] !== 0x0a) fs.appendFileSync(outboxFile, '\n');
    }
  }
  const delivered = new Set<string>();
  const sending = new Set<string>();
  for (const m of readOutbox()) if (m.ref) delivered.add(`${m.ref}|${m.to}`);

  const deliverSms = (to: string, text: string, ref?: string, from?: string) => {
    const sms: SimulatedSms = { to, text, at: new Date(now()).toISOString() };
    if (ref) sms.ref = ref;
    if (from) sms.from = from;
    // appendFileSync: once it returns the line is in the file, so a kill -9 loses nothing sent.
    if (outboxFile) fs.appendFileSync(outboxFile, `${JSON.stringify(sms)}\n`);
    else memoryOutbox.push(sms);
    if (ref) delivered.add(`${ref}|${to}`);
  };

  const apps = new Map<string, SimulatedApp>();
  const appName = (appId: string) => apps.get(appId)?.name ?? 'Kathamala';
  const otps = new Map<string, PendingOtp>();

  // ---- Notifications: one queue, delivered in order, each retried with backoff.
  let webhook: { url: string; secret: string } | null = null;
  const queue: CarrierNotification[] = [];
  const failed: CarrierNotification[] = [];
  let running = false;
  let closed = false;
  let waiters: (() => void)[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  const post = async (n: CarrierNotification): Promise<boolean> => {
    if (!webhook) return false;
    const body = JSON.stringify(toWire(n));
    try {
      const res = await fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signNotification(
            webhook.secret,
            body,
            // The signature proves freshness against the receiver's real clock, not ours.
            Math.floor(Date.now() / 1000),
          ),
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      return res.ok;
    } catch {
      return false;
    }
  };

  const pump = async () => {
    if (running || !webhook) return;
    running = true;
    try {
      while (queue.length > 0 && !closed) {
        const n = queue[0]!;
        let ok = false;
        for (let attempt = 0; attempt < maxAttempts && !closed; attempt++) {
          if (attempt > 0) await sleep(Math.min(firstBackoff * 2 ** (attempt - 1), 5_000));
          if (closed) break;
          ok = await post(n);
          if (ok) break;
        }
        queue.shift();
        if (!ok && !closed) {
          failed.push(n);
          warn(`carrier simulator: gave up delivering ${n.type} ${n.id} to ${webhook.url}`);
        }
      }
    } finally {
      running = false;
      if (queue.length === 0) {
        const w = waiters;
        waiters = [];
        for (const resolve of w) resolve();
      }
    }
  };

  // Carrier times strictly increase: REG then UNREG in the same millisecond keep their order.
  let lastAt = 0;
  const notify = (n: Omit<CarrierNotification, 'id' | 'at'> & Partial<CarrierNotification>) => {
    lastAt = Math.max(now(), lastAt + 1);
    queue.push({ id: `sim-${randomUUID()}`, at: new Date(lastAt), ...n } as CarrierNotification);
    void pump();
  };

  // ---- Subscription changes, as the carrier makes them.
  const register = (appId: string, mobile: string) => {
    const at = now();
    subs.set(key(appId, mobile), {
      appId,
      mobile,
      status: 'active',
      since: new Date(at).toISOString(),
      nextChargeAt: new Date(at + MEMBERSHIP.chargePeriodDays * DAY).toISOString(),
    });
    save();
    notify({ type: 'REG', appId, mobile });
  };
  const unregister = (appId: string, mobile: string): boolean => {
    const s = subs.get(key(appId, mobile));
    if (!s || s.status === 'ended') return false;
    s.status = 'ended';
    s.nextChargeAt = null;
    save();
    notify({ type: 'UNREG', appId, mobile });
    return true;
  };

  // ---- The HTTP protocol.
  type Answer = Record<string, unknown> & { statusCode: string };
  const fail = (statusCode: string, statusDetail: string): Answer => ({ statusCode, statusDetail });
  const ok = (rest: Record<string, unknown> = {}): Answer => ({
    statusCode: STATUS_SUCCESS,
    statusDetail: 'Success',
    ...rest,
  });

  const handle = async (route: string, b: Record<string, unknown>): Promise<Answer> => {
    const given = Buffer.from(String(b.password ?? ''));
    const expected = Buffer.from(opts.password);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return fail(STATUS.authFailed, 'Authentication failed.');
    const appId = typeof b.applicationId === 'string' ? b.applicationId : '';
    if (!appId || (apps.size > 0 && !apps.has(appId)))
      return fail(STATUS.unknownApp, `Unknown application '${appId}'.`);

    switch (route) {
      case '/subscription/otp/request': {
        const mobile = fromSubscriberId(b.subscriberId);
        if (!mobile) return fail(STATUS.invalidRequest, 'subscriberId must be tel:94XXXXXXXXX.');
        const code = String(randomInt(0, 10 ** MEMBERSHIP.codeDigits)).padStart(
          MEMBERSHIP.codeDigits,
          '0',
        );
        const referenceNo = randomUUID();
        otps.set(referenceNo, {
          hash: sha256(code),
          appId,
          mobile,
          expiresAt: now() + MEMBERSHIP.codeTtlMinutes * 60_000,
          wrong: 0,
          used: false,
        });
        deliverSms(
          mobile,
          `Your ${appName(appId)} subscription code is ${code}. It is valid for ${MEMBERSHIP.codeTtlMinutes} minutes.`,
          undefined,
          shortCodeOf(mobile),
        );
        return ok({ referenceNo });
      }
      case '/subscription/otp/verify': {
        const otp = otps.get(String(b.referenceNo ?? ''));
        if (!otp || otp.appId !== appId) return fail(STATUS.otpUnknown, 'Unknown referenceNo.');
        if (otp.used) return fail(STATUS.otpUsed, 'This code has been used.');
        // A code is dead after too many wrong tries: it answers 'expired' from then on.
        if (otp.expiresAt <= now() || otp.wrong >= MEMBERSHIP.codeMaxTries)
          return fail(STATUS.otpExpired, 'This code has expired.');
        const typed = sha256(String(b.otp ?? ''));
        if (!timingSafeEqual(typed, otp.hash)) {
          otp.wrong += 1;
          return fail(STATUS.otpWrong, 'Wrong code.');
        }
        otp.used = true;
        register(appId, otp.mobile);
        return ok({
          subscriberId: toSubscriberId(otp.mobile),
          subscriptionStatus: 'REGISTERED',
          nextChargeAt: subs.get(key(appId, otp.mobile))!.nextChargeAt,
        });
      }
      case '/subscription/send': {
        const mobile = fromSubscriberId(b.subscriberId);
        if (!mobile) return fail(STATUS.invalidRequest, 'subscriberId must be tel:94XXXXXXXXX.');
        if (b.action !== '0')
          return fail(STATUS.invalidRequest, "Only action '0' (unregister) is supported.");
        return unregister(appId, mobile)
          ? ok({ subscriptionStatus: 'UNREGISTERED' })
          : fail(STATUS.notRegistered, 'The subscriber is not registered.');
      }
      case '/subscription/getStatus': {
        const mobile = fromSubscriberId(b.subscriberId);
        if (!mobile) return fail(STATUS.invalidRequest, 'subscriberId must be tel:94XXXXXXXXX.');
        const s = subs.get(key(appId, mobile));
        const wire: WireSubscriptionStatus =
          !s || s.status === 'ended'
            ? 'UNREGISTERED'
            : s.status === 'lapsed'
              ? 'CHARGE_FAILED'
              : 'REGISTERED';
        return ok({ subscriptionStatus: wire });
      }
      case '/sms/send': {
        const to = Array.isArray(b.destinationAddresses)
          ? b.destinationAddresses.map(fromSubscriberId)
          : [];
        if (to.length === 0 || to.some((m) => m === null))
          return fail(STATUS.invalidRequest, 'destinationAddresses must be tel:94XXXXXXXXX.');
        if (typeof b.message !== 'string' || !b.message)
          return fail(STATUS.invalidRequest, 'message is required.');
        const ref = typeof b.requestRef === 'string' && b.requestRef ? b.requestRef : undefined;
        const from = typeof b.sourceAddress === 'string' ? b.sourceAddress : undefined;
        const responses = [];
        for (const mobile of to as string[]) {
          const once = ref ? `${ref}|${mobile}` : null;
          // A repeat, or the same ref still being delivered by a concurrent call: dropped.
          if (once && (delivered.has(once) || sending.has(once))) {
            responses.push({
              address: toSubscriberId(mobile),
              statusCode: 'S1000',
              duplicate: true,
            });
            continue;
          }
          if (once) sending.add(once);
          try {
            if (opts.delayMs) await sleep(opts.delayMs);
            if (closed) return fail(STATUS.invalidRequest, 'The carrier is shutting down.');
            deliverSms(mobile, b.message, ref, from);
          } finally {
            if (once) sending.delete(once);
          }
          responses.push({ address: toSubscriberId(mobile), statusCode: 'S1000' });
        }
        return ok({ requestId: randomUUID(), destinationResponses: responses });
      }
      default:
        return fail(STATUS.invalidRequest, `Unknown operation ${route}.`);
    }
  };

  const server = http.createServer((req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST') return answer(405, fail(STATUS.invalidRequest, 'POST only.'));
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return answer(400, fail(STATUS.invalidRequest, 'The body must be JSON.'));
      }
      if (typeof body !== 'object' || body === null)
        return answer(400, fail(STATUS.invalidRequest, 'The body must be a JSON object.'));
      const route = (req.url ?? '').split('?')[0]!.replace(/\/$/, '');
      handle(route, body as Record<string, unknown>).then(
        (a) => answer(200, a),
        (e: unknown) => {
          warn(`carrier simulator: ${route} failed: ${(e as Error).message}`);
          answer(500, fail('E1601', 'Internal error.'));
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // exclusive: in a node:cluster worker, port 0 would otherwise be one port shared by every
    // worker's simulator, mixing their state; each simulator needs its own.
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => resolve());
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const keywordApp = (keyword: string) =>
    [...apps.values()].find(
      (a) =>
        normalizeKeyword(a.keyword) === keyword ||
        normalizeKeyword(a.keyword).replace(/^REG /, '') === keyword,
    );

  return {
    baseUrl,
    setWebhook(url, secret) {
      webhook = { url, secret };
      void pump();
    },
    learnApps(list) {
      for (const a of list) apps.set(a.appId, a);
    },
    provision(list) {
      let added = 0;
      for (const p of list) {
        const k = key(p.appId, p.mobile);
        if (subs.has(k)) continue;
        const at = now();
        subs.set(k, {
          appId: p.appId,
          mobile: p.mobile,
          status: 'active',
          since: new Date(at).toISOString(),
          nextChargeAt: (
            p.nextChargeAt ?? new Date(at + MEMBERSHIP.chargePeriodDays * DAY)
          ).toISOString(),
        });
        added++;
      }
      if (added) save();
      return added;
    },
    phoneSends(mobile, rawText, shortCode) {
      const own = shortCodeOf(mobile);
      if (shortCode && shortCode !== own)
        return `${mobile} cannot text ${shortCode}: its carrier's short code is ${own}.`;
      const text = normalizeKeyword(rawText);
      const reg = /^(UNREG|REG) (.+)$/.exec(text);
      if (reg) {
        const app = keywordApp(reg[2]!);
        if (!app) {
          deliverSms(mobile, `Sorry, ${reg[2]} is not a service on ${own}.`, undefined, own);
          return `No app has the keyword ${reg[2]}; the phone got an error SMS.`;
        }
        if (reg[1] === 'UNREG')
          return unregister(app.appId, mobile)
            ? `${mobile} left ${app.appId} (UNREG notified).`
            : `${mobile} was not subscribed to ${app.appId}.`;
        register(app.appId, mobile);
        deliverSms(
          mobile,
          `Welcome to ${app.name}! You are subscribed for Rs.${MONTHLY_FEE} a month. To leave, send UNREG ${reg[2]} to ${own}.`,
          undefined,
          own,
        );
        return `${mobile} joined ${app.appId} (REG notified, welcome SMS sent).`;
      }
      const to = [...subs.values()]
        .filter((s) => s.mobile === mobile && s.status !== 'ended')
        .map((s) => s.appId);
      for (const appId of to.length ? to : [PRODUCT_APP_ID])
        notify({ type: 'SMS', appId, mobile, text: rawText.trim() });
      return `Forwarded '${rawText.trim()}' from ${mobile} to ${(to.length ? to : [PRODUCT_APP_ID]).join(', ')}.`;
    },
    charge(appId, mobile, success) {
      const s = subs.get(key(appId, mobile));
      if (!s || s.status === 'ended') return `${mobile} is not subscribed to ${appId}.`;
      if (success) {
        s.status = 'active';
        s.nextChargeAt = new Date(now() + MEMBERSHIP.chargePeriodDays * DAY).toISOString();
        save();
        notify({
          type: 'CHARGE_OK',
          appId,
          mobile,
          amount: MONTHLY_FEE,
          nextChargeAt: new Date(s.nextChargeAt),
        });
        return `Charged ${mobile} Rs.${MONTHLY_FEE} for ${appId} (CHARGE_OK notified).`;
      }
      s.status = 'lapsed';
      save();
      notify({ type: 'CHARGE_FAIL', appId, mobile, reason: 'Insufficient balance' });
      return `A charge on ${mobile} for ${appId} failed (CHARGE_FAIL notified).`;
    },
    forget(appId, mobile) {
      const s = subs.get(key(appId, mobile));
      if (!s) return;
      s.status = 'ended';
      s.nextChargeAt = null;
      save();
    },
    subscriber: (appId, mobile) => {
      const s = subs.get(key(appId, mobile));
      return s ? { ...s } : null;
    },
    subscribers: () => [...subs.values()].map((s) => ({ ...s })),
    apps: () => [...apps.values()],
    outbox: readOutbox,
    lastCode(mobile) {
      const texts = readOutbox().filter((m) => m.to === mobile);
      for (let i = texts.length - 1; i >= 0; i--) {
        const m = /\b(\d{6})\b/.exec(texts[i]!.text);
        if (m) return m[1]!;
      }
      return null;
    },
    undelivered: () => [...failed],
    idle() {
      if (queue.length === 0 && !running) return Promise.resolve();
      if (!webhook)
        return Promise.reject(
          new Error(
            'The carrier simulator has notifications but no webhook: call app.listen() first.',
          ),
        );
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      const w = waiters;
      waiters = [];
      for (const resolve of w) resolve();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
