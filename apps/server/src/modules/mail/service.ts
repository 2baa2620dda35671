import { createHash } from 'node:crypto';
import { MEMBERSHIP, truncateGraphemes, type MailSubscribeAnswer } from '@kathamala/domain';
import type { TokenKeys } from '../../auth/keys.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Db } from '../../db/client.ts';
import { invalid, unauthorized } from '../../errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { mailRepo } from './repo.ts';
import type { MailMessage, MailTransport } from './transport.ts';

/** Jobs: the confirmation e-mail, the event's fan-out, and one batch of list e-mails. */
export const MAIL_CONFIRM_JOB = 'mail.confirm';
export const MAIL_NEW_STORY_JOB = 'mail.newStory';
export const MAIL_SEND_JOB = 'mail.send';

/** Where mail programs post a one-click unsubscribe (RFC 8058); the token rides in the query. */
export const MAIL_ONE_CLICK_PATH = '/api/v1/member/mail/one-click/';

/** The purpose claim of mailing-list tokens: a session token is refused, and the other way round. */
export const MAIL_TOKEN_PURPOSE = 'mail';
/** Confirmation e-mails one address may be sent in the window (counted in the database). */
export const MAIL_REQUESTS_PER_ADDRESS = 3;
export const MAIL_REQUEST_WINDOW_MINUTES = 60;
/** Addresses per send job: a job finishes well within the queue's 5-minute expiry. */
const SEND_BATCH = 50;
/** A story released later is looked at again at most this far ahead (as notifications do). */
const DEFER_MAX_MS = 3600_000;

export interface ConfirmJob {
  requestId: number;
  email: string;
}

/** The 'episode.published' payload with its event id, as recordEvent sends it. */
export interface NewStoryJob {
  eventId: number;
  storyId: number;
  episodeId: number;
  partNumber: number;
  firstEpisode: boolean;
}

/** One batch of the event's e-mail: the same text for every address, only the link differs. */
export interface SendJob {
  eventId: number;
  emails: string[];
  story: { id: number; partNumber: number; title: string; authorName: string; language: string };
}

/** A plain address check: one @, no spaces or characters that would break a header. */
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:".]+(\.[^\s@<>()[\]\\,;:".]+)+$/;

/** 'kasun@example.com' -> 'ka***@example.com': enough to recognise, not to harvest. */
export const maskEmail = (email: string) => {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  return `${local.slice(0, local.length > 2 ? 2 : 1)}***${email.slice(at)}`;
};

/** Text safe inside HTML: every character markup could use is an entity. */
export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** User text on one line for a subject or a sentence: no line breaks, at most `max` letters. */
const oneLine = (text: string, max: number) =>
  truncateGraphemes(text.replace(/\s+/g, ' ').trim(), max, '…');

/** A short, stable name for an address in file names and Message-IDs (never the address itself). */
const addressKey = (email: string) => createHash('sha256').update(email).digest('hex').slice(0, 24);

const paragraphs = (lines: string[]) =>
  lines.map((l) => (l === '<hr>' ? l : `<p>${l}</p>`)).join('\n');

const htmlPage = (lang: string, body: string) =>
  `<!doctype html>\n<html lang="${lang}"><head><meta charset="utf-8"></head>` +
  `<body style="font-family: sans-serif; line-height: 1.5">\n${body}\n</body></html>`;

const link = (url: string, label: string) =>
  `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`;

export interface MailDeps {
  db: Db;
  queue: JobQueue;
  keys: TokenKeys;
  transport: MailTransport;
  /** The site's address: links in e-mails point here. */
  publicUrl: string;
}

/** The mailing list: confirmation by a signed link, subscribe and leave, and new-story e-mails. */
export function mailService(deps: MailDeps) {
  const { db, queue, keys, transport, publicUrl } = deps;
  const repo = mailRepo(db);

  const tokenFor = (email: string) =>
    keys.signFor(MAIL_TOKEN_PURPOSE, email, MEMBERSHIP.mailTokenDays * 86_400);
  const pageUrl = (token: string, action: 'subscribe' | 'unsubscribe') =>
    `${publicUrl}/mail/?${new URLSearchParams(
      action === 'unsubscribe' ? { token, action } : { token },
    )}`;

  /** The confirmation e-mail, in English and Sinhala (we do not know the person's language). */
  const confirmMessage = (id: string, email: string, url: string): MailMessage => ({
    id,
    to: email,
    subject: 'Confirm your Kathamala mailing list subscription / කතාමාලා තැපැල් ලැයිස්තුව',
    text: [
      'Someone (we hope you) asked to join the Kathamala mailing list with this address.',
      'Open this link to confirm; nothing changes until you press Subscribe on that page:',
      url,
      '',
      'If it was not you, ignore this e-mail.',
      '',
      'කවුරුන් හෝ (බොහෝ විට ඔබ) මෙම ලිපිනයෙන් කතාමාලා තැපැල් ලැයිස්තුවට එක් වීමට ඉල්ලා ඇත.',
      'තහවුරු කිරීමට මෙම සබැඳිය විවෘත කරන්න; එම පිටුවේ "දායක වන්න" එබීමෙන් පමණක් ඔබ එක් වේ:',
      url,
      '',
      'එය ඔබ නොවේ නම්, මෙම ඊමේල් පණිවිඩය නොසලකා හරින්න.',
    ].join('\n'),
    html: htmlPage(
      'en',
      paragraphs([
        'Someone (we hope you) asked to join the Kathamala mailing list with this address.',
        `${link(url, 'Confirm on Kathamala')}: nothing changes until you press Subscribe on that page.`,
        'If it was not you, ignore this e-mail.',
        '<hr>',
        '<span lang="si">කවුරුන් හෝ (බොහෝ විට ඔබ) මෙම ලිපිනයෙන් කතාමාලා තැපැල් ලැයිස්තුවට එක් වීමට ඉල්ලා ඇත.</span>',
        `<span lang="si">${link(url, 'කතාමාලාවේ තහවුරු කරන්න')}: එම පිටුවේ "දායක වන්න" එබීමෙන් පමණක් ඔබ එක් වේ.</span>`,
        '<span lang="si">එය ඔබ නොවේ නම්, මෙම ඊමේල් පණිවිඩය නොසලකා හරින්න.</span>',
      ]),
    ),
  });

  /** A new story's e-mail in the story's language, with its own unsubscribe link. */
  const storyMessage = (
    id: string,
    email: string,
    story: SendJob['story'],
    token: string,
  ): MailMessage => {
    const unsubscribeUrl = pageUrl(token, 'unsubscribe');
    const oneClickUrl = `${publicUrl}${MAIL_ONE_CLICK_PATH}?${new URLSearchParams({ token })}`;
    const title = oneLine(story.title, 150);
    const author = oneLine(story.authorName, 80);
    const readUrl = `${publicUrl}/details/${story.id}/${story.partNumber}/`;
    const si = story.language === 'sinhala';
    const words = si
      ? {
          subject: `නව කතාවක්: ${title}`,
          intro: (t: string, a: string) => `${a} ලියූ "${t}" කතාවේ පළමු කොටස දැන් කතාමාලාවේ.`,
          read: 'කියවන්න',
          why: 'ඔබට මෙය ලැබෙන්නේ ඔබ කතාමාලා තැපැල් ලැයිස්තුවට එක් වූ නිසායි.',
          leave: 'ලැයිස්තුවෙන් ඉවත් වන්න',
        }
      : {
          subject: `New story: ${title}`,
          intro: (t: string, a: string) =>
            `The first episode of "${t}" by ${a} is out on Kathamala.`,
          read: 'Read it',
          why: 'You get this e-mail because you joined the Kathamala mailing list.',
          leave: 'Unsubscribe',
        };
    return {
      id,
      to: email,
      subject: words.subject,
      text: [
        words.intro(title, author),
        '',
        `${words.read}: ${readUrl}`,
        '',
        '--',
        words.why,
        `${words.leave}: ${unsubscribeUrl}`,
      ].join('\n'),
      html: htmlPage(
        si ? 'si' : 'en',
        paragraphs([
          escapeHtml(words.intro(title, author)),
          link(readUrl, words.read),
          '<hr>',
          `<small>${escapeHtml(words.why)} ${link(unsubscribeUrl, words.leave)}</small>`,
        ]),
      ),
      // Mail programs show their own Unsubscribe button from these (RFC 2369) and post to the
      // address without opening a page (RFC 8058 one-click); a GET of it leads to the page.
      headers: {
        'List-Unsubscribe': `<${oneClickUrl}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    };
  };

  /** The address inside a mailing-list token; nothing is changed when it is not one. */
  const addressOf = async (token: string) => {
    try {
      return await keys.verifyFor(token, MAIL_TOKEN_PURPOSE);
    } catch (e) {
      const expired = (e as { code?: string }).code === 'ERR_JWT_EXPIRED';
      throw invalid(
        expired
          ? 'This link has expired. Please ask for a new e-mail.'
          : 'This link is not valid. Please use the link from the e-mail as it is, or ask for a new one.',
      );
    }
  };

  return {
    /**
     * Queues a confirmation e-mail to `rawEmail` unless it had its share this hour. The answer
     * is the same either way and never says whether the address is on the list.
     */
    async request(rawEmail: string): Promise<{ email: string }> {
      const email = rawEmail.trim().toLowerCase();
      if (!EMAIL.test(email)) throw invalid('Please enter a valid e-mail address.');
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const requestId = await mailRepo(tx).addRequest(
          email,
          MAIL_REQUESTS_PER_ADDRESS,
          MAIL_REQUEST_WINDOW_MINUTES,
        );
        if (requestId !== null)
          await queue.send(
            MAIL_CONFIRM_JOB,
            { requestId, email } satisfies ConfirmJob,
            { retryLimit: 5 },
            tx,
          );
      });
      return { email: maskEmail(email) };
    },

    /** Sends the confirmation e-mail; a rerun writes the same outbox file (the id is the request's). */
    async sendConfirm(job: ConfirmJob) {
      const url = pageUrl(await tokenFor(job.email), 'subscribe');
      await transport.send(confirmMessage(`confirm-${job.requestId}`, job.email, url));
    },

    /** Puts the token's address on the list or takes it off (no login: the link in an e-mail). */
    async subscribe(token: string, subscribed: boolean): Promise<MailSubscribeAnswer> {
      const email = await addressOf(token);
      await repo.setSubscribed(email, subscribed);
      return { email: maskEmail(email), subscribed };
    },

    /** The viewer's address (masked) and whether it is on the list. */
    async status(viewer: Viewer): Promise<MailSubscribeAnswer> {
      const found = await repo.statusOf(viewer.userId);
      if (!found) throw unauthorized();
      return { email: maskEmail(found.email.toLowerCase()), subscribed: found.subscribed === true };
    },

    /**
     * A story's first episode went out: one delivery row per subscribed address, then send jobs
     * for the rows made just now (a rerun makes none, so starts none). A story released later
     * is looked at again at its release.
     */
    async newStory(job: NewStoryJob): Promise<{ queued: number } | { deferTo: Date }> {
      if (!job.firstEpisode) return { queued: 0 };
      const story = await repo.storyContext(job.storyId, job.episodeId);
      if (!story || story.episodeStatus !== 'published') return { queued: 0 };
      if (story.releaseAhead) {
        const deferTo = new Date(Math.min(story.releaseAhead.getTime(), Date.now() + DEFER_MAX_MS));
        await queue.send(MAIL_NEW_STORY_JOB, job, {
          startAfter: deferTo,
          singletonKey: `${MAIL_NEW_STORY_JOB}:${job.eventId}`,
        });
        return { deferTo };
      }
      const about: SendJob['story'] = {
        id: job.storyId,
        partNumber: job.partNumber,
        title: story.title,
        authorName: story.authorName,
        language: story.language,
      };
      const queued = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const emails = await mailRepo(tx).addDeliveries(job.eventId);
        for (let i = 0; i < emails.length; i += SEND_BATCH)
          await queue.send(
            MAIL_SEND_JOB,
            {
              eventId: job.eventId,
              emails: emails.slice(i, i + SEND_BATCH),
              story: about,
            } satisfies SendJob,
            {},
            tx,
          );
        return emails.length;
      });
      return { queued };
    },

    /**
     * Sends the event's e-mail to each address of the batch not yet sent to, marking each as
     * it goes. After a crash the retry skips those marked; the one in flight is sent again
     * under the same id (the outbox file is overwritten, SMTP sees the same Message-ID).
     */
    async sendBatch(job: SendJob): Promise<{ sent: string[] }> {
      const sent: string[] = [];
      for (const email of await repo.unsent(job.eventId, job.emails)) {
        const id = `story-${job.eventId}-${addressKey(email)}`;
        await transport.send(storyMessage(id, email, job.story, await tokenFor(email)));
        await repo.markSent(job.eventId, email);
        sent.push(email);
      }
      return { sent };
    },
  };
}
export type MailService = ReturnType<typeof mailService>;
