import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';

/** One e-mail ready to go. */
export interface MailMessage {
  /**
   * Unique and deterministic per message (the same confirmation, the same event to the same
   * address): the outbox file's name and the Message-ID, so a retried job overwrites its file
   * instead of adding a second one, and mail servers can tell a resend from a new message.
   */
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

/** A message the in-memory transport kept, with the bytes nodemailer made of it. */
export interface SentMail extends MailMessage {
  raw: string;
}

/** Where e-mail goes: an SMTP server, .eml files in DATA_DIR/mail-outbox, or memory (tests). */
export interface MailTransport {
  kind: 'smtp' | 'files' | 'memory';
  /** Hands the message over; throws when it was not taken (the job retries). */
  send(message: MailMessage): Promise<void>;
}

export interface MemoryMailTransport extends MailTransport {
  kind: 'memory';
  /** Every message sent, oldest first; a message sent twice is here twice. */
  sent: SentMail[];
}

/** Only these characters reach a file name or a Message-ID. */
const SAFE_ID = /^[A-Za-z0-9._-]{1,120}$/;

const checkedId = (id: string) => {
  if (!SAFE_ID.test(id)) throw new Error(`Mail id '${id}' is not a safe file name.`);
  return id;
};

/** The domain part of the From address, for Message-IDs. */
const domainOf = (from: string) => /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';

const mailOptions = (from: string, m: MailMessage): SendMailOptions => ({
  from,
  to: m.to,
  subject: m.subject,
  text: m.text,
  html: m.html,
  headers: m.headers,
  messageId: `<${checkedId(m.id)}@${domainOf(from)}>`,
  // Same date on a retry is not needed: the Message-ID already names the message.
});

/** Makes the message's bytes without sending them (nodemailer's stream transport). */
const builder = () =>
  nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

/** Writes each message as `<id>.eml` in `dir` (written aside, then renamed: never half a file). */
export function fileMailTransport(dir: string, from: string): MailTransport {
  const build = builder();
  let made: Promise<unknown> | null = null;
  return {
    kind: 'files',
    async send(m) {
      made ??= fs.mkdir(dir, { recursive: true });
      await made;
      const info = await build.sendMail(mailOptions(from, m));
      const file = path.join(dir, `${checkedId(m.id)}.eml`);
      const temp = `${file}.${process.pid}.tmp`;
      await fs.writeFile(temp, info.message as Buffer);
      await fs.rename(temp, file);
    },
  };
}

/** Keeps each message in a list the tests read. */
export function memoryMailTransport(from: string): MemoryMailTransport {
  const build = builder();
  const sent: SentMail[] = [];
  return {
    kind: 'memory',
    sent,
    async send(m) {
      const info = await build.sendMail(mailOptions(from, m));
      sent.push({ ...m, raw: (info.message as Buffer).toString('utf8') });
    },
  };
}

/** Sends through the SMTP server at `url` (smtp:// or smtps://, credentials in the URL). */
export function smtpMailTransport(url: string, from: string): MailTransport {
  const smtp = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(m) {
      await smtp.sendMail(mailOptions(from, m));
    },
  };
}

/** The transport the configuration asks for: SMTP when set, else files in the data folder, else memory. */
export function mailTransport(opts: {
  smtpUrl: string | null;
  from: string;
  dataDir: string | null;
  memory: boolean;
}): MailTransport {
  if (opts.memory) return memoryMailTransport(opts.from);
  if (opts.smtpUrl) return smtpMailTransport(opts.smtpUrl, opts.from);
  if (opts.dataDir) return fileMailTransport(path.join(opts.dataDir, 'mail-outbox'), opts.from);
  return memoryMailTransport(opts.from);
}
