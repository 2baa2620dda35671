import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { apiPaths, MEMBERSHIP } from '@kathamala/domain';
import { clearOfRateWindowEnd, bearer, createTestApp, type TestApp } from '../../test/helpers.ts';
import { loadTokenKeys } from '../../auth/keys.ts';
import {
  mailService,
  MAIL_SEND_JOB,
  maskEmail,
  type MailService,
  type NewStoryJob,
  type SendJob,
} from './service.ts';
import { fileMailTransport, type MemoryMailTransport, type SentMail } from './transport.ts';

let t: TestApp;
let outbox: SentMail[];
/** The same service the app runs (its own throwaway key), to run job handlers directly and twice. */
let jobs: MailService;
let ip = 0;
/** Each test its own caller address, so the per-address rate limit is its own. */
const nextIp = () => `10.0.0.${++ip}`;

beforeAll(async () => {
  t = await createTestApp({ JOB_POLL_SECONDS: '1' });
  outbox = (t.mail as MemoryMailTransport).sent;
  jobs = mailService({
    db: t.database.db,
    queue: t.queue,
    keys: await loadTokenKeys(null),
    transport: t.mail,
    publicUrl: 'http://kathamala.test',
  });
});
afterAll(() => t.close());

const waitFor = async (check: () => boolean | Promise<boolean>, ms = 20_000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
};

const request = (email: string, remoteAddress = nextIp()) =>
  t.app.inject({
    method: 'POST',
    url: apiPaths.mailRequest(),
    payload: { email },
    remoteAddress,
  });
const subscribe = (token: string, subscribed: boolean) =>
  t.app.inject({
    method: 'POST',
    url: apiPaths.mailSubscribe(),
    payload: { token, subscribed },
  });
const mailsTo = (email: string) => outbox.filter((m) => m.to === email);
const listRow = async (email: string) =>
  (
    await t.rows<{ subscribed: boolean; userId: number | null; confirmedAt: Date | null }>(
      sql`select subscribed, user_id as "userId", confirmed_at as "confirmedAt"
        from mailing_list where email = ${email}`,
    )
  )[0];
/** The token in the first /mail/ link of a message. */
const tokenIn = (m: SentMail) => {
  const url = new URL(/http:\/\/kathamala\.test\/mail\/\?\S+/.exec(m.text)![0]);
  return { token: url.searchParams.get('token')!, action: url.searchParams.get('action') };
};
let n = 0;
const address = (label: string) => `${label}.${++n}.${Date.now()}@Example.com`;

/** Asks for a confirmation e-mail and answers the token in it once the job has sent it. */
async function confirmToken(email: string) {
  const before = mailsTo(email.toLowerCase()).length;
  const res = await request(email);
  expect(res.statusCode).toBe(200);
  expect(await waitFor(() => mailsTo(email.toLowerCase()).length > before)).toBe(true);
  return tokenIn(mailsTo(email.toLowerCase()).at(-1)!).token;
}

describe('mailing list confirmation', () => {
  it('sends a confirmation whose link token subscribes and unsubscribes the address', async () => {
    const email = address('Kasun');
    const lower = email.toLowerCase();
    const res = await request(email);
    expect(res.json()).toEqual({ code: 0, object: { email: maskEmail(lower) } });
    expect(maskEmail('kasun@example.com')).toBe('ka***@example.com');
    expect(await waitFor(() => mailsTo(lower).length === 1)).toBe(true);
    const mail = mailsTo(lower)[0]!;
    expect(mail.id).toMatch(/^confirm-\d+$/);
    // English and Sinhala, in the text and the HTML part.
    expect(mail.text).toContain('Kathamala mailing list');
    expect(mail.text).toContain('කතාමාලා තැපැල් ලැයිස්තුවට');
    expect(mail.html).toContain('lang="si"');
    expect(mail.raw).toContain(`Message-ID: <${mail.id}@kathamala.lk>`);
    expect(mail.raw).toMatch(/^From: Kathamala <no-reply@kathamala\.lk>$/m);
    const { token, action } = tokenIn(mail);
    expect(action).toBeNull();
    // Asking is not joining: nothing on the list until the page's button is pressed.
    expect(await listRow(lower)).toBeUndefined();

    const joined = await subscribe(token, true);
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toEqual({
      code: 0,
      object: { email: maskEmail(lower), subscribed: true },
    });
    const row = await listRow(lower);
    expect(row?.subscribed).toBe(true);
    expect(row?.confirmedAt).not.toBeNull();

    const left = await subscribe(token, false);
    expect(left.json().object).toEqual({ email: maskEmail(lower), subscribed: false });
    expect((await listRow(lower))?.subscribed).toBe(false);
  });

  it('answers the same whether or not the address is on the list', async () => {
    const email = address('same');
    await subscribe(await confirmToken(email), true);
    const known = await request(email);
    const unknown = await request(address('other'));
    expect(known.statusCode).toBe(200);
    expect(Object.keys(known.json().object)).toEqual(Object.keys(unknown.json().object));
    expect(known.json().object.email).toMatch(/^sa\*\*\*@example\.com$/);
  });

  it('sends at most 3 confirmations an address an hour, still answering the same', async () => {
    const email = address('many').toLowerCase();
    for (let i = 0; i < 5; i++) {
      // From several callers: the per-address count is in the database, not per IP.
      const res = await request(email, nextIp());
      expect(res.statusCode).toBe(200);
      expect(res.json().object.email).toBe(maskEmail(email));
    }
    const [count] = await t.rows<{ n: number }>(
      sql`select count(*)::int as n from mail_requests where email = ${email}`,
    );
    expect(count!.n).toBe(3);
    await waitFor(() => mailsTo(email).length >= 3);
    await new Promise((r) => setTimeout(r, 1500));
    expect(mailsTo(email)).toHaveLength(3);
  });

  it('limits confirmation requests per caller address (429)', async () => {
    await clearOfRateWindowEnd();
    const from = nextIp();
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await request(address('ip'), from)).statusCode);
    expect(codes.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(codes[5]).toBe(429);
  });

  it('refuses an address that is not one', async () => {
    for (const email of ['no-at-sign', 'a@b', 'a b@example.com', 'x@example.com\r\nBcc: y@z.com']) {
      const res = await request(email);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/e-mail address/);
    }
  });
});

describe('mailing list tokens', () => {
  const refused = async (token: string, email: string) => {
    const res = await subscribe(token, true);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).not.toBe(0);
    expect(res.json().message).toMatch(/link/);
    expect(await listRow(email)).toBeUndefined();
  };

  it('refuses a token signed by another key, a tampered one, and garbage', async () => {
    const email = address('forged').toLowerCase();
    const other = await loadTokenKeys(null);
    await refused(await other.signFor('mail', email, 3600), email);
    const real = await confirmToken(email);
    // Swap the subject for another address, keeping the signature.
    const [h, , s] = real.split('.');
    const body = Buffer.from(
      JSON.stringify({ purpose: 'mail', sub: 'victim@example.com', exp: 2e9 }),
    ).toString('base64url');
    await refused(`${h}.${body}.${s}`, 'victim@example.com');
    await refused('not-a-token', email);
    await refused(`${real}x`, email);
  });

  it('refuses an expired token', async () => {
    const email = address('expired').toLowerCase();
    const token = await confirmToken(email);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + (MEMBERSHIP.mailTokenDays + 1) * 86_400_000);
      const res = await subscribe(token, true);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/expired/);
    } finally {
      vi.useRealTimers();
    }
    expect(await listRow(email)).toBeUndefined();
  });

  it('refuses a session token, and a mail token does not log anyone in', async () => {
    const session = await t.signup();
    const res = await subscribe(session, true);
    expect(res.statusCode).toBe(400);
    const [count] = await t.rows<{ n: number }>(sql`select count(*)::int as n from mailing_list`);
    const mailToken = await confirmToken(address('login'));
    const me = await t.app.inject({ url: '/api/v1/user/me', headers: bearer(mailToken) });
    expect(me.statusCode).toBe(401);
    const [after] = await t.rows<{ n: number }>(sql`select count(*)::int as n from mailing_list`);
    expect(after!.n).toBe(count!.n);
  });
});

describe('the account status', () => {
  it('needs a login, then shows the account address masked and whether it is on the list', async () => {
    expect((await t.app.inject({ url: apiPaths.mailStatus() })).statusCode).toBe(401);
    const token = await t.signup();
    const me = (await t.app.inject({ url: '/api/v1/user/me', headers: bearer(token) })).json()
      .object as { email: string };
    const status = async () =>
      (await t.app.inject({ url: apiPaths.mailStatus(), headers: bearer(token) })).json().object;
    expect(await status()).toEqual({ email: maskEmail(me.email.toLowerCase()), subscribed: false });
    await subscribe(await confirmToken(me.email), true);
    expect(await status()).toEqual({ email: maskEmail(me.email.toLowerCase()), subscribed: true });
    // The list row is linked to the account that has the address.
    const row = await listRow(me.email.toLowerCase());
    expect(row?.userId).not.toBeNull();
  });
});

describe('new-story e-mails', () => {
  /** Publishes a new story's first episode; answers the event's job as the event started it. */
  async function newStory(over: Record<string, unknown> = {}) {
    const author = await t.newAuthor('Mailer');
    const storyId = await t.createStory(author.token, over);
    const episodeId = await t.publishEpisode(author.token, storyId);
    const [event] = await t.rows<{ id: number; payload: string }>(
      sql`select id, payload from events where type = 'episode.published'
        and (payload::jsonb ->> 'episodeId')::int = ${episodeId}`,
    );
    return {
      author,
      storyId,
      job: { eventId: event!.id, ...JSON.parse(event!.payload) } as NewStoryJob,
    };
  }
  const storyMails = (eventId: number) =>
    outbox.filter((m) => m.id.startsWith(`story-${eventId}-`));

  it('e-mails each subscribed address exactly once, however often the jobs run', async () => {
    const readers = [address('r1'), address('r2'), address('r3')].map((e) => e.toLowerCase());
    for (const email of readers) await subscribe(await confirmToken(email), true);
    const gone = address('gone').toLowerCase();
    const goneToken = await confirmToken(gone);
    await subscribe(goneToken, true);
    await subscribe(goneToken, false);

    const { job } = await newStory({ title: 'Rain over Kandy' });
    expect(job.firstEpisode).toBe(true);
    // The app's worker runs the job; run it again by hand, as a retry would.
    await jobs.newStory(job);
    expect(
      await waitFor(() => readers.every((e) => storyMails(job.eventId).some((m) => m.to === e))),
    ).toBe(true);
    await jobs.newStory(job);
    // A send batch run again (its job retried) sends nothing new.
    const batch: SendJob = {
      eventId: job.eventId,
      emails: readers,
      story: {
        id: job.storyId,
        partNumber: 1,
        title: 'Rain over Kandy',
        authorName: 'x',
        language: 'english',
      },
    };
    expect((await jobs.sendBatch(batch)).sent).toEqual([]);
    await new Promise((r) => setTimeout(r, 1500));
    const mine = storyMails(job.eventId).filter((m) => readers.includes(m.to) || m.to === gone);
    expect(mine.map((m) => m.to).sort()).toEqual([...readers].sort());
    const [sent] = await t.rows<{ n: number }>(
      sql`select count(*)::int as n from mail_deliveries
        where event_id = ${job.eventId} and sent_at is not null and email in (${sql.join(
          readers.map((e) => sql`${e}`),
          sql`, `,
        )})`,
    );
    expect(sent!.n).toBe(3);
    const [states] = await t.rows<{ n: number }>(
      sql`select count(*)::int as n from pgboss.job where name = ${MAIL_SEND_JOB}
        and (data ->> 'eventId')::int = ${job.eventId}`,
    );
    expect(states!.n).toBeGreaterThanOrEqual(1);

    const mail = storyMails(job.eventId).find((m) => m.to === readers[0])!;
    expect(mail.subject).toBe('New story: Rain over Kandy');
    expect(mail.text).toContain(`http://kathamala.test/details/${job.storyId}/1/`);
    // The unsubscribe link works without login and takes the address off the list.
    const { token, action } = tokenIn(mail);
    expect(action).toBe('unsubscribe');
    expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    // The header as it is written (folded: unfold it first).
    const header =
      /^List-Unsubscribe: <(http:\/\/kathamala\.test\/api\/v1\/member\/mail\/one-click\/\?token=[\w.-]+)>$/m.exec(
        mail.raw.replace(/\n[ \t]+/g, ' '),
      );
    expect(header).not.toBeNull();
    const oneClick = new URL(header![1]!);
    expect(oneClick.searchParams.get('token')).toBe(token);
    expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);

    // A GET of the one-click address changes nothing: it leads to the page and its button.
    const visit = await t.app.inject({ url: `${oneClick.pathname}${oneClick.search}` });
    expect(visit.statusCode).toBe(303);
    expect(visit.headers.location).toBe(
      `/mail/?${new URLSearchParams({ token, action: 'unsubscribe' })}`,
    );
    expect((await listRow(readers[0]!))?.subscribed).toBe(true);
    // A forged token posted there changes nothing either.
    const forged = await t.app.inject({
      method: 'POST',
      url: `${oneClick.pathname}?token=${token.slice(0, -4)}AAAA`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(forged.statusCode).toBe(400);
    expect((await listRow(readers[0]!))?.subscribed).toBe(true);
    // The mail program's one-click POST takes the address off the list, without login.
    const post = await t.app.inject({
      method: 'POST',
      url: `${oneClick.pathname}${oneClick.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(post.statusCode).toBe(200);
    expect((await listRow(readers[0]!))?.subscribed).toBe(false);

    // Every send ran in the app's worker (send jobs go through the queue): its key signed the
    // link, so the page's button works with it too.
    expect((await subscribe(token, true)).statusCode).toBe(200);
    expect((await listRow(readers[1]!))?.subscribed).toBe(true);
    const res = await subscribe(token, false);
    expect(res.statusCode).toBe(200);
    expect((await listRow(readers[0]!))?.subscribed).toBe(false);
  });

  it('sends nothing for a later episode', async () => {
    const email = address('later').toLowerCase();
    await subscribe(await confirmToken(email), true);
    const { author, storyId, job } = await newStory();
    await waitFor(() => storyMails(job.eventId).some((m) => m.to === email));
    const second = await t.publishEpisode(author.token, storyId, 'Two');
    const [event] = await t.rows<{ id: number; payload: string }>(
      sql`select id, payload from events where (payload::jsonb ->> 'episodeId')::int = ${second}`,
    );
    const secondJob = { eventId: event!.id, ...JSON.parse(event!.payload) } as NewStoryJob;
    expect(secondJob.firstEpisode).toBe(false);
    expect(await jobs.newStory(secondJob)).toEqual({ queued: 0 });
  });

  it('waits for a story released later', async () => {
    const { job } = await newStory({
      releaseDate: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    });
    const answer = await jobs.newStory(job);
    expect(answer).toHaveProperty('deferTo');
    const [rows] = await t.rows<{ n: number }>(
      sql`select count(*)::int as n from mail_deliveries where event_id = ${job.eventId}`,
    );
    expect(rows!.n).toBe(0);
  });

  it('escapes the title in the HTML and keeps it as text in the plain part', async () => {
    const email = address('escape').toLowerCase();
    await subscribe(await confirmToken(email), true);
    const title = '<script>alert("x")</script> & <b>bold</b>';
    const { job } = await newStory({ title });
    expect(await waitFor(() => storyMails(job.eventId).some((m) => m.to === email))).toBe(true);
    const mail = storyMails(job.eventId).find((m) => m.to === email)!;
    expect(mail.html).not.toContain('<script');
    expect(mail.html).not.toContain('<b>bold');
    expect(mail.html).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;',
    );
    expect(mail.text).toContain(title);
    expect(mail.subject).toBe(`New story: ${title}`);
  });

  it('writes Sinhala stories in Sinhala', async () => {
    const email = address('si').toLowerCase();
    await subscribe(await confirmToken(email), true);
    const { job } = await newStory({ title: 'කළු ගඟේ රුවල්', language: 'sinhala' });
    expect(await waitFor(() => storyMails(job.eventId).some((m) => m.to === email))).toBe(true);
    const mail = storyMails(job.eventId).find((m) => m.to === email)!;
    expect(mail.subject).toBe('නව කතාවක්: කළු ගඟේ රුවල්');
    expect(mail.html).toContain('lang="si"');
    expect(mail.text).toContain('ලැයිස්තුවෙන් ඉවත් වන්න');
  });
});

describe('a send job that fails midway', () => {
  it('sends each address once over the retries: none skipped, none doubled', async () => {
    const emails = [1, 2, 3, 4].map((i) => address(`crash${i}`).toLowerCase());
    for (const email of emails) await subscribe(await confirmToken(email), true);
    // An event of its own, so no worker job of the app sends it meanwhile.
    const [event] = await t.rows<{ id: number }>(
      sql`insert into events (type, payload) values ('test.mail', '{}') returning id`,
    );
    const eventId = event!.id;
    await t.rows(sql`
      insert into mail_deliveries (event_id, email)
      select ${eventId}::int, unnest(array[${sql.join(
        emails.map((e) => sql`${e}`),
        sql`, `,
      )}]::text[])`);
    const delivered: string[] = [];
    let failOn: string | null = emails[2]!;
    const flaky = mailService({
      db: t.database.db,
      queue: t.queue,
      keys: await loadTokenKeys(null),
      transport: {
        kind: 'memory',
        send: async (m) => {
          // The SMTP server drops the connection on the third address, once.
          if (m.to === failOn) {
            failOn = null;
            throw new Error('connection lost');
          }
          delivered.push(m.to);
        },
      },
      publicUrl: 'http://kathamala.test',
    });
    const job: SendJob = {
      eventId,
      emails,
      story: { id: 1, partNumber: 1, title: 'T', authorName: 'A', language: 'english' },
    };
    await expect(flaky.sendBatch(job)).rejects.toThrow('connection lost');
    expect(delivered).toEqual(emails.slice(0, 2));
    // pg-boss retries the job: the two sent are skipped, the rest go out.
    expect((await flaky.sendBatch(job)).sent).toEqual(emails.slice(2));
    expect((await flaky.sendBatch(job)).sent).toEqual([]);
    expect(delivered).toEqual(emails);
  });
});

describe('the file outbox', () => {
  it('writes one .eml per message id: a resend overwrites instead of doubling', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mail-outbox-'));
    try {
      const files = fileMailTransport(dir, 'Kathamala <no-reply@kathamala.lk>');
      const message = {
        id: 'story-1-abc',
        to: 'a@example.com',
        subject: 'New story: <b>',
        text: 'Hello',
        html: '<p>Hello</p>',
        headers: { 'List-Unsubscribe': '<http://kathamala.test/mail/?token=t>' },
      };
      await files.send(message);
      await files.send(message);
      await files.send({ ...message, id: 'confirm-2' });
      expect((await fs.readdir(dir)).sort()).toEqual(['confirm-2.eml', 'story-1-abc.eml']);
      const eml = await fs.readFile(path.join(dir, 'story-1-abc.eml'), 'utf8');
      expect(eml).toMatch(/^To: a@example\.com$/m);
      expect(eml).toMatch(/^List-Unsubscribe: <http:\/\/kathamala\.test\/mail\/\?token=t>$/m);
      expect(eml).toMatch(/^Message-ID: <story-1-abc@kathamala\.lk>$/m);
      await expect(files.send({ ...message, id: '../escape' })).rejects.toThrow(/safe/);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
