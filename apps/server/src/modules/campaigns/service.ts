import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  MEMBERSHIP,
  PRODUCT_APP_ID,
  ResultCode,
  maskMobile,
  normalizeMobile,
  type CampaignInput,
  type CampaignState,
  type CampaignSummary,
  type ManagedCampaign,
  type ParticipationAnswer,
  type ParticipationBody,
  type Question,
  type Questioner,
  type ResponseBody,
} from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { SmsAdapter } from '../../adapters/sms/types.ts';
import { CarrierError } from '../../adapters/billing/types.ts';
import { AppError, conflict, invalid, notFound } from '../../errors.ts';
import { recordAudit } from '../community/audit.ts';
import { SMS_SEND_JOB, type SmsJob } from '../alerts/service.ts';
import { answersProblem, csvCell, normalizeAnswers, questionsProblem } from './answers.ts';
import { campaignsRepo, type CampaignRow } from './repo.ts';
import { REPORT_FETCH_JOB } from './report.ts';
import { bannerPath } from './banner.ts';
import { urlRefusal } from './safe-fetch.ts';

export interface CampaignsDeps {
  db: Db;
  queue: JobQueue;
  sms: SmsAdapter;
  publicUrl: string;
  /** Where ad-metrics reports may come from (see safe-fetch.ts). */
  report: { allowedHosts: string[]; trustedOrigin: string | null };
}

const iso = (d: Date | string) => new Date(d).toISOString();
/** '2026-11-26 08:00 UTC': a date a refusal can name. */
const when = (d: Date | string) => `${iso(d).slice(0, 16).replace('T', ' ')} UTC`;
const sha256 = (s: string) => createHash('sha256').update(s).digest();
const gone = (message: string) => new AppError(410, ResultCode.notFound, message);
const tooMany = (message: string) => new AppError(429, ResultCode.tooManyRequests, message);
const waitText = (seconds: number) =>
  seconds < 60 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;

/** Whether the campaign runs now, is still to come, or is over. */
export const stateOf = (c: { startsAt: Date | string; endsAt: Date | string }, now = Date.now()) =>
  (now < new Date(c.startsAt).getTime()
    ? 'upcoming'
    : now >= new Date(c.endsAt).getTime()
      ? 'ended'
      : 'running') satisfies CampaignState as CampaignState;

/** A campaign as lists show it. */
export const summaryOf = (c: CampaignRow): CampaignSummary => ({
  campaignId: c.id,
  title: { en: c.titleEn, si: c.titleSi },
  description: { en: c.descriptionEn, si: c.descriptionSi },
  prizes: { en: c.prizesEn, si: c.prizesSi },
  startsAt: iso(c.startsAt),
  endsAt: iso(c.endsAt),
  state: stateOf(c),
  kinds: [...(c.questionerId ? ['questionnaire'] : []), ...(c.contest ? ['contest'] : [])],
  questionerId: c.questionerId,
  contest: c.contest,
  bannerUrl: c.bannerVersion ? bannerPath(c.id, c.bannerVersion) : null,
});

/** The 409 of a campaign that does not run now, with its dates. */
export const notOpen = (c: CampaignRow) => {
  const state = stateOf(c);
  return conflict(
    state === 'upcoming'
      ? `This campaign is not open yet: it runs from ${when(c.startsAt)} to ${when(c.endsAt)}.`
      : `This campaign is closed: it ran from ${when(c.startsAt)} to ${when(c.endsAt)}.`,
  );
};

const alreadyAnswered = () =>
  conflict('This mobile number has already answered this campaign. Thank you for taking part!');

/**
 * Campaigns: editors create them; readers take part with a code sent by SMS to their mobile
 * and answer the questionnaire once per number (the campaign flow of SPEC.md 4).
 */
export function campaignsService(deps: CampaignsDeps) {
  const { db, queue, sms } = deps;
  const repo = campaignsRepo(db);
  const inTransaction = <T>(work: (tx: Db) => Promise<T>) =>
    db.transaction(async (tx) => work(tx as unknown as Db));

  const campaign = async (id: number) => {
    const c = await repo.byId(id);
    if (!c) throw notFound('We could not find that campaign.');
    return c;
  };

  return {
    /** Every campaign (running, upcoming, ended) with dates and kinds. */
    list: async () => ({ campaigns: (await repo.all()).map(summaryOf) }),

    /** One campaign as its page shows it. */
    detail: async (id: number) => ({ campaign: summaryOf(await campaign(id)) }),

    /**
     * Creates (no campaignId) or edits a campaign, audited. Changed questions become a new
     * version: responses already given keep the questions they answered.
     */
    manage: async (viewer: Viewer, input: CampaignInput) => {
      const startsAt = new Date(input.startsAt);
      const endsAt = new Date(input.endsAt);
      if (!(endsAt > startsAt)) throw invalid('A campaign must end after it starts.', 'endsAt');
      if (!input.questionnaire && !input.contest)
        throw invalid('A campaign needs a questionnaire, a contest, or both.');
      const questions = input.questionnaire?.questions ?? null;
      const problem = questions && questionsProblem(questions);
      if (problem) throw invalid(problem, 'questionnaire');
      const reportUrl = input.reportUrl?.trim() || null;
      const urlProblem = reportUrl && urlRefusal(reportUrl, deps.report);
      if (urlProblem) throw invalid(urlProblem, 'reportUrl');
      const values = {
        titleEn: input.title.en.trim(),
        titleSi: input.title.si.trim(),
        descriptionEn: input.description.en,
        descriptionSi: input.description.si,
        prizesEn: input.prizes?.en ?? '',
        prizesSi: input.prizes?.si ?? '',
        startsAt: startsAt.toISOString(),
        endsAt: endsAt.toISOString(),
        contest: input.contest ?? null,
        reportUrl,
      };
      return inTransaction(async (tx) => {
        const r = campaignsRepo(tx);
        let id = input.campaignId;
        let previous: Question[] | null = null;
        if (id) {
          const before = await r.byId(id);
          if (!before) throw notFound('We could not find that campaign.');
          previous = before.questions;
          await r.update(id, values);
        } else id = await r.insert(values, viewer.userId);
        if (questions && JSON.stringify(questions) !== JSON.stringify(previous))
          await r.addVersion(id, questions);
        await recordAudit(tx, {
          actorId: viewer.userId,
          action: input.campaignId ? 'campaign.update' : 'campaign.create',
          targetKind: 'campaign',
          targetId: id,
          detail: { title: values.titleEn, startsAt: values.startsAt, endsAt: values.endsAt },
        });
        // A report address set: the job fetches it now (again on each save).
        if (reportUrl)
          await queue.send(REPORT_FETCH_JOB, { campaignId: id }, { retryLimit: 1 }, tx);
        return { campaignId: id };
      });
    },

    /** A questionnaire version as a participant answers it. */
    questioner: async (id: number): Promise<Questioner> => {
      const q = await repo.questionnaire(id);
      if (!q) throw notFound('We could not find that questionnaire.');
      return {
        questionerId: q.id,
        campaignId: q.campaignId,
        version: q.version,
        title: { en: q.titleEn, si: q.titleSi },
        questions: q.questions,
      };
    },

    /**
     * Step 1: registers the participant and sends a 6-digit code by SMS, under the limits of
     * membership codes (per number and per account), counted before the SMS goes out.
     */
    participate: async (viewer: Viewer, body: ParticipationBody): Promise<ParticipationAnswer> => {
      const c = await campaign(body.campaignId);
      const q = await repo.questionnaire(body.questionerId);
      if (!q || q.campaignId !== c.id)
        throw notFound('That questionnaire does not belong to this campaign.');
      if (stateOf(c) !== 'running') throw notOpen(c);
      const mobile = normalizeMobile(body.mobile);
      if (!mobile)
        throw invalid('Please enter a Sri Lankan mobile number, like 077 123 4567.', 'mobile');
      if (await repo.answered(c.id, mobile)) throw alreadyAnswered();

      const code = String(randomInt(0, 10 ** MEMBERSHIP.codeDigits)).padStart(
        MEMBERSHIP.codeDigits,
        '0',
      );
      const refId = randomBytes(18).toString('base64url');
      const participantId = await inTransaction(async (tx) => {
        const r = campaignsRepo(tx);
        await r.lock(viewer.userId, mobile);
        const byMobile = await r.recentForMobile(mobile, MEMBERSHIP.codesPerMobileWindowMinutes);
        if (byMobile.count >= MEMBERSHIP.codesPerMobile)
          throw tooMany(
            `We have sent ${MEMBERSHIP.codesPerMobile} codes to this number in the last ${MEMBERSHIP.codesPerMobileWindowMinutes} minutes. Please try again in ${waitText(byMobile.waitSeconds)}.`,
          );
        const byAccount = await r.recentForAccount(
          viewer.userId,
          MEMBERSHIP.codesPerAccountWindowMinutes,
        );
        if (byAccount.count >= MEMBERSHIP.codesPerAccount)
          throw tooMany(
            `You have asked for ${MEMBERSHIP.codesPerAccount} codes in the last ${MEMBERSHIP.codesPerAccountWindowMinutes} minutes. Please try again in ${waitText(byAccount.waitSeconds)}.`,
          );
        return r.addParticipant({
          campaignId: c.id,
          questionnaireId: q.id,
          userId: viewer.userId,
          mobile,
          carrier: body.carrier,
          refId,
          codeHash: sha256(`${refId}:${code}`).toString('hex'),
          ttlMinutes: MEMBERSHIP.codeTtlMinutes,
        });
      });
      // Sent outside the transaction: a slow carrier holds no lock.
      try {
        await sms.send({
          to: [mobile],
          text: `Your Kathamala code for "${c.titleEn}" is ${code}. It is valid for ${MEMBERSHIP.codeTtlMinutes} minutes.`,
          appId: PRODUCT_APP_ID,
          ref: `campaign-code:${participantId}`,
        });
      } catch (err) {
        await repo.dropParticipant(participantId);
        if (err instanceof CarrierError)
          throw new AppError(
            503,
            ResultCode.internal,
            'We could not send the code by SMS just now. Please try again in a few minutes.',
          );
        throw err;
      }
      return {
        participantId,
        refId,
        mobile: maskMobile(mobile),
        expiresInMinutes: MEMBERSHIP.codeTtlMinutes,
      };
    },

    /**
     * Step 3: checks every answer against the questions, then the code (a try counted before
     * it is compared), then stores the response once per number and queues the thank-you SMS
     * in the same transaction.
     */
    respond: async (viewer: Viewer, body: ResponseBody) => {
      const p = await repo.participant(body.participantId, body.refId, viewer.userId);
      if (!p) throw notFound('We could not find that participation. Please ask for a new code.');
      const c = await campaign(p.campaignId);
      if (stateOf(c) !== 'running') throw notOpen(c);
      if (p.consumed)
        throw conflict('That code has already been used. Please ask for a new one.', 'mfaCode');
      if (p.expired) throw gone('That code has expired. Please ask for a new one.');
      if (p.attempts >= MEMBERSHIP.codeMaxTries)
        throw gone(
          `That code was entered wrongly ${MEMBERSHIP.codeMaxTries} times, so it no longer works. Please ask for a new one.`,
        );
      const q = (await repo.questionnaire(p.questionnaireId))!;
      const answers = normalizeAnswers(q.questions, body.answers);
      const problem = answersProblem(q.questions, answers);
      if (problem) throw invalid(problem.message, problem.questionId);
      if (await repo.answered(c.id, p.mobile)) throw alreadyAnswered();

      const typed = body.mfaCode.replace(/\s+/g, '');
      if (!new RegExp(`^\\d{${MEMBERSHIP.codeDigits}}$`).test(typed))
        throw invalid(
          `The code is the ${MEMBERSHIP.codeDigits} digits in the SMS we sent you.`,
          'mfaCode',
        );
      const tries = await repo.countTry(p.id, MEMBERSHIP.codeMaxTries);
      if (tries === null) throw gone('That code no longer works. Please ask for a new one.');
      if (!timingSafeEqual(sha256(`${body.refId}:${typed}`), Buffer.from(p.codeHash, 'hex'))) {
        const left = MEMBERSHIP.codeMaxTries - tries;
        throw invalid(
          left > 0
            ? `That code is not right. ${left} ${left === 1 ? 'try' : 'tries'} left.`
            : 'That code is not right, and it cannot be tried again. Please ask for a new one.',
          'mfaCode',
        );
      }
      const responseId = await inTransaction(async (tx) => {
        const r = campaignsRepo(tx);
        if (!(await r.consume(p.id)))
          throw conflict('That code has already been used. Please ask for a new one.', 'mfaCode');
        const id = await r.addResponse({
          campaignId: c.id,
          questionnaireId: q.id,
          participantId: p.id,
          mobile: p.mobile,
          answers,
        });
        if (id === null) throw alreadyAnswered();
        await queue.send(
          SMS_SEND_JOB,
          {
            to: p.mobile,
            text: `Thank you for answering "${c.titleEn}" on Kathamala. ස්තූතියි!`,
            appId: PRODUCT_APP_ID,
            ref: `campaign-thanks:${id}`,
          } satisfies SmsJob,
          { singletonKey: `campaign-thanks:${id}` },
          tx,
        );
        return id;
      });
      return { responseId };
    },

    /** What editors see: the campaign, its questions, counts per choice, masked responses. */
    managed: async (id: number): Promise<ManagedCampaign> => {
      const c = await campaign(id);
      const versions = await repo.versions(id);
      const responses = await repo.responses(id);
      const reports = await repo.reports(id);
      const counts: Record<string, Record<string, number>> = {};
      const kinds = new Map<string, Question['kind']>();
      for (const v of versions) for (const q of v.questions) kinds.set(q.id, q.kind);
      for (const r of responses)
        for (const [qid, value] of Object.entries(r.answers)) {
          const kind = kinds.get(qid);
          if (kind !== 'single' && kind !== 'multiple' && kind !== 'rating') continue;
          const bucket = (counts[qid] ??= {});
          for (const v of Array.isArray(value) ? value : [value])
            bucket[String(v)] = (bucket[String(v)] ?? 0) + 1;
        }
      return {
        campaign: summaryOf(c),
        reportUrl: c.reportUrl,
        questions: c.questions ?? [],
        responseCount: responses.length,
        reports: reports.map((r) => ({ ...r, fetchedAt: iso(r.fetchedAt) })),
        counts,
        responses: responses.map((r) => ({
          responseId: r.id,
          mobile: maskMobile(r.mobile),
          createdAt: iso(r.createdAt),
          version: r.version,
        })),
      };
    },

    /** Fetches the campaign's ad-metrics report again, by the job. */
    refetchReport: async (id: number) => {
      const c = await campaign(id);
      if (!c.reportUrl)
        throw invalid('This campaign has no ad-metrics report address.', 'reportUrl');
      await queue.send(REPORT_FETCH_JOB, { campaignId: id }, { retryLimit: 1 });
      return { campaignId: id };
    },

    /** Every campaign for the editors' page. */
    managedList: async () => ({ campaigns: (await repo.all()).map(summaryOf) }),

    /**
     * The responses as CSV, UTF-8 with a BOM so Excel shows Sinhala: one column per question
     * of any version (English label), choices by their English labels, full mobiles.
     */
    csv: async (id: number): Promise<{ name: string; body: string }> => {
      await campaign(id);
      const versions = await repo.versions(id);
      const questions = new Map<string, Question>();
      for (const v of versions) for (const q of v.questions) questions.set(q.id, q);
      const labelOf = (q: Question, v: unknown) =>
        q.options?.find((o) => o.id === v)?.label.en ?? String(v);
      const header = ['responseId', 'submittedAt', 'version', 'mobile'].concat(
        [...questions.values()].map((q) => q.label.en),
      );
      const lines = [header.map(csvCell).join(',')];
      for (const r of await repo.responses(id)) {
        const cells = [String(r.id), iso(r.createdAt), String(r.version), `+${r.mobile}`];
        for (const q of questions.values()) {
          const v = r.answers[q.id];
          cells.push(
            v === undefined
              ? ''
              : Array.isArray(v)
                ? v.map((x) => labelOf(q, x)).join('; ')
                : labelOf(q, v),
          );
        }
        lines.push(cells.map(csvCell).join(','));
      }
      return { name: `campaign-${id}-responses.csv`, body: `\uFEFF${lines.join('\r\n')}\r\n` };
    },
  };
}

export type CampaignsService = ReturnType<typeof campaignsService>;
