import { sql, type SQL } from 'drizzle-orm';
import type { ContestRules, Question } from '@kathamala/domain';
import type { Db } from '../../db/client.ts';

/** A campaign row as the service reads it, with its questionnaire's current version. */
export interface CampaignRow {
  id: number;
  titleEn: string;
  titleSi: string;
  descriptionEn: string;
  descriptionSi: string;
  prizesEn: string;
  prizesSi: string;
  startsAt: Date | string;
  endsAt: Date | string;
  contest: ContestRules | null;
  reportUrl: string | null;
  bannerVersion: string | null;
  questionerId: number | null;
  questions: Question[] | null;
}

/** A participant with what checking their code needs; `expired` by the database's clock. */
export interface ParticipantRow {
  id: number;
  campaignId: number;
  questionnaireId: number;
  userId: number;
  mobile: string;
  codeHash: string;
  attempts: number;
  consumed: boolean;
  expired: boolean;
}

const CAMPAIGN_COLUMNS = sql`c.id, c.title_en as "titleEn", c.title_si as "titleSi",
  c.description_en as "descriptionEn", c.description_si as "descriptionSi",
  c.prizes_en as "prizesEn", c.prizes_si as "prizesSi", c.starts_at as "startsAt",
  c.ends_at as "endsAt", c.contest, c.report_url as "reportUrl", c.banner_version as "bannerVersion",
  q.id as "questionerId", q.questions`;
/** The campaign's newest questionnaire version, if any. */
const CURRENT_QUESTIONNAIRE = sql`left join lateral (select id, questions from campaign_questionnaires
  where campaign_id = c.id order by version desc limit 1) q on true`;

/** Keeps code requests for one number in a line across instances (the limits count them). */
const MOBILE_LOCK = 727_300;

/** The SQL of campaigns, questionnaires, participants and responses. */
export const campaignsRepo = (db: Db) => {
  const rows = async <T>(query: SQL) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const one = async <T>(query: SQL) => (await rows<T>(query))[0];

  /** Codes sent in the window matching `where`, and seconds until the oldest leaves it. */
  const recent = async (where: SQL, windowMinutes: number) => {
    const r = await one<{ n: number; wait: number | null }>(sql`
        select count(*)::int as n,
          ceil(extract(epoch from (min(created_at) + make_interval(mins => ${windowMinutes}) - now())))::int as wait
        from campaign_participants
        where ${where} and created_at > now() - make_interval(mins => ${windowMinutes})`);
    return { count: Number(r?.n ?? 0), waitSeconds: Math.max(1, Number(r?.wait ?? 1)) };
  };

  return {
    rows,
    /** Every campaign, newest start first. */
    all: () =>
      rows<CampaignRow>(sql`select ${CAMPAIGN_COLUMNS} from campaigns c ${CURRENT_QUESTIONNAIRE}
        order by c.starts_at desc, c.id desc`),

    /** One campaign; undefined when there is none. */
    byId: (id: number) =>
      one<CampaignRow>(sql`select ${CAMPAIGN_COLUMNS} from campaigns c ${CURRENT_QUESTIONNAIRE}
        where c.id = ${id}`),

    /** Adds a campaign; answers its id. */
    insert: async (v: Record<string, unknown>, userId: number) =>
      (await one<{ id: number }>(sql`insert into campaigns (title_en, title_si, description_en,
          description_si, prizes_en, prizes_si, starts_at, ends_at, contest, report_url, created_by)
        values (${v.titleEn}, ${v.titleSi}, ${v.descriptionEn}, ${v.descriptionSi}, ${v.prizesEn},
          ${v.prizesSi}, ${v.startsAt}::timestamptz, ${v.endsAt}::timestamptz,
          ${v.contest === null ? null : JSON.stringify(v.contest)}::jsonb, ${v.reportUrl}, ${userId})
        returning id`))!.id,

    /** Changes a campaign; false when there is none. */
    update: async (id: number, v: Record<string, unknown>) =>
      (
        await rows(sql`update campaigns set title_en = ${v.titleEn}, title_si = ${v.titleSi},
          description_en = ${v.descriptionEn}, description_si = ${v.descriptionSi},
          prizes_en = ${v.prizesEn}, prizes_si = ${v.prizesSi},
          starts_at = ${v.startsAt}::timestamptz, ends_at = ${v.endsAt}::timestamptz,
          contest = ${v.contest === null ? null : JSON.stringify(v.contest)}::jsonb,
          report_url = ${v.reportUrl}, updated_at = now()
        where id = ${id} returning id`)
      ).length > 0,

    /** Adds the next version of a campaign's questions. */
    addVersion: (campaignId: number, questions: Question[]) =>
      db.execute(sql`insert into campaign_questionnaires (campaign_id, version, questions)
        select ${campaignId}, coalesce(max(version), 0) + 1, ${JSON.stringify(questions)}::jsonb
        from campaign_questionnaires where campaign_id = ${campaignId}`),

    /** A questionnaire version with its campaign's id and titles. */
    questionnaire: (id: number) =>
      one<{
        id: number;
        campaignId: number;
        version: number;
        questions: Question[];
        titleEn: string;
        titleSi: string;
      }>(sql`select q.id, q.campaign_id as "campaignId", q.version, q.questions,
          c.title_en as "titleEn", c.title_si as "titleSi"
        from campaign_questionnaires q join campaigns c on c.id = q.campaign_id where q.id = ${id}`),

    /** Every version of a campaign's questions, oldest first. */
    versions: (campaignId: number) =>
      rows<{ id: number; version: number; questions: Question[] }>(sql`select id, version, questions
        from campaign_questionnaires where campaign_id = ${campaignId} order by version`),

    /** Whether the number has answered this campaign. */
    answered: async (campaignId: number, mobile: string) =>
      (
        await rows(sql`select 1 from campaign_responses
          where campaign_id = ${campaignId} and mobile = ${mobile}`)
      ).length > 0,

    /** Waits for other code requests for this number and this account in flight. */
    lock: async (userId: number, mobile: string) => {
      await db.execute(sql`select pg_advisory_xact_lock(${MOBILE_LOCK}, ${userId})`);
      await db.execute(sql`select pg_advisory_xact_lock(${MOBILE_LOCK + 1}, hashtext(${mobile}))`);
    },

    /** Codes sent to the number in the window, and seconds until the oldest leaves it. */
    recentForMobile: (mobile: string, windowMinutes: number) =>
      recent(sql`mobile = ${mobile}`, windowMinutes),

    /** Codes the account asked for in the window. */
    recentForAccount: (userId: number, windowMinutes: number) =>
      recent(sql`user_id = ${userId}`, windowMinutes),

    /** Records a participant and the hash of their code; answers its id. */
    addParticipant: async (v: {
      campaignId: number;
      questionnaireId: number;
      userId: number;
      mobile: string;
      carrier: string;
      refId: string;
      codeHash: string;
      ttlMinutes: number;
    }) =>
      (await one<{ id: number }>(sql`insert into campaign_participants (campaign_id,
          questionnaire_id, user_id, mobile, carrier, ref_id, code_hash, expires_at)
        values (${v.campaignId}, ${v.questionnaireId}, ${v.userId}, ${v.mobile}, ${v.carrier},
          ${v.refId}, ${v.codeHash}, now() + make_interval(mins => ${v.ttlMinutes}))
        returning id`))!.id,

    /** Forgets a participant whose SMS could not be sent. */
    dropParticipant: (id: number) =>
      db.execute(sql`delete from campaign_participants where id = ${id}`),

    /** The account's participant by id and refId; undefined for anyone else's. */
    participant: async (id: number, refId: string, userId: number) => {
      const r = await one<ParticipantRow>(sql`select id, campaign_id as "campaignId",
          questionnaire_id as "questionnaireId", user_id as "userId", mobile,
          code_hash as "codeHash", attempts, consumed_at is not null as consumed,
          expires_at <= now() as expired
        from campaign_participants
        where id = ${id} and ref_id = ${refId} and user_id = ${userId}`);
      return r && { ...r, attempts: Number(r.attempts) };
    },

    /** Counts one try while the code is live with tries left; answers the tries, or null. */
    countTry: async (id: number, maxTries: number) => {
      const r = await one<{ attempts: number }>(sql`update campaign_participants
        set attempts = attempts + 1
        where id = ${id} and attempts < ${maxTries} and consumed_at is null and expires_at > now()
        returning attempts`);
      return r ? Number(r.attempts) : null;
    },

    /** Marks the code used; false when a parallel request got there first. */
    consume: async (id: number) =>
      (
        await rows(sql`update campaign_participants set consumed_at = now()
          where id = ${id} and consumed_at is null returning id`)
      ).length > 0,

    /** Stores a response; null when the number already answered this campaign. */
    addResponse: async (v: {
      campaignId: number;
      questionnaireId: number;
      participantId: number;
      mobile: string;
      answers: unknown;
    }) =>
      (
        await one<{ id: number }>(sql`insert into campaign_responses (campaign_id,
          questionnaire_id, participant_id, mobile, answers)
        values (${v.campaignId}, ${v.questionnaireId}, ${v.participantId}, ${v.mobile},
          ${JSON.stringify(v.answers)}::jsonb)
        on conflict (campaign_id, mobile) do nothing returning id`)
      )?.id ?? null,

    /** The campaign's latest report fetches, newest first. */
    reports: (campaignId: number) =>
      rows<{
        status: 'accepted' | 'refused';
        reason: string | null;
        url: string;
        fetchedAt: Date | string;
      }>(
        sql`select status, reason, url, fetched_at as "fetchedAt" from campaign_reports
          where campaign_id = ${campaignId} order by fetched_at desc, id desc limit 10`,
      ),

    /** A campaign's responses, oldest first, with their questionnaire version. */
    responses: (campaignId: number) =>
      rows<{
        id: number;
        mobile: string;
        answers: Record<string, unknown>;
        createdAt: Date | string;
        version: number;
        questionnaireId: number;
      }>(sql`select r.id, r.mobile, r.answers, r.created_at as "createdAt", q.version,
          r.questionnaire_id as "questionnaireId"
        from campaign_responses r join campaign_questionnaires q on q.id = r.questionnaire_id
        where r.campaign_id = ${campaignId} order by r.id`),
  };
};

export type CampaignsRepo = ReturnType<typeof campaignsRepo>;
