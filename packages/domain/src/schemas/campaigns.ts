import { Type, type Static } from 'typebox';
import { IdParam } from './common.ts';

/* Campaigns: questionnaires answered by mobile, writing contests (issue 30). */

/** The campaign calls (SPEC.md 7) and the editors' calls beside them. */
export const campaignPaths = {
  list: () => '/api/v1/campaign/list',
  detail: (id: number | string = ':id') => `/api/v1/campaign/${id}/`,
  manage: () => '/api/v1/campaign/manage/',
  manageOne: (id: number | string = ':id') => `/api/v1/campaign/manage/${id}/`,
  participation: () => '/api/v1/campaign/submit/participation/',
  questioner: (id: number | string = ':id') => `/api/v1/campaign/questioner/${id}/`,
  response: () => '/api/v1/campaign/participant/submit/response/',
  csv: (id: number | string = ':id') => `/api/v1/campaign/${id}/responses.csv`,
  entry: (id: number | string = ':id') => `/api/v1/campaign/${id}/entry/`,
  stats: (id: number | string = ':id') => `/api/v1/stats/campaign/${id}/`,
  judge: (id: number | string = ':id') => `/api/v1/campaign/manage/${id}/judge/`,
  report: (id: number | string = ':id') => `/api/v1/campaign/manage/${id}/report/`,
  banner: (id: number | string = ':id') => `/api/v1/campaign/manage/${id}/banner/`,
  badges: (authorId: number | string = ':id') => `/api/v1/campaign/badges/author/${authorId}/`,
};

/** Carriers SPEC.md 9 names (Dialog, Hutch, Etisalat, Airtel, Mobitel). */
export const CAMPAIGN_CARRIERS = ['dialog', 'mobitel', 'hutch', 'etisalat', 'airtel'] as const;
export type CampaignCarrier = (typeof CAMPAIGN_CARRIERS)[number];

/** Question kinds: single choice, multiple choice, short text, long text, rating 1-5. */
export const QUESTION_KINDS = ['single', 'multiple', 'short', 'long', 'rating'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** Characters a text answer may hold, by kind. */
export const TEXT_LIMITS = { short: 200, long: 2000 } as const;

const Bilingual = (max: number, min = 0) =>
  Type.Object(
    {
      en: Type.String({ minLength: min, maxLength: max }),
      si: Type.String({ minLength: min, maxLength: max }),
    },
    { additionalProperties: false },
  );
export type Bilingual = { en: string; si: string };

const Key = Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_-]+$' });

export const QuestionOption = Type.Object(
  { id: Key, label: Bilingual(200, 1) },
  { additionalProperties: false },
);
export const Question = Type.Object(
  {
    id: Key,
    kind: Type.Unsafe<QuestionKind>({ type: 'string', enum: [...QUESTION_KINDS] }),
    required: Type.Boolean(),
    label: Bilingual(500, 1),
    /** The choices of a single or multiple choice question. */
    options: Type.Optional(Type.Array(QuestionOption, { maxItems: 30 })),
  },
  { additionalProperties: false },
);
export type Question = Static<typeof Question>;

/** A contest's rules, as an editor sets them. */
export const ContestRules = Type.Object(
  {
    /** 'sinhala', 'english', or 'both' (ranked apart). */
    track: Type.Unsafe<'sinhala' | 'english' | 'both'>({
      type: 'string',
      enum: ['sinhala', 'english', 'both'],
    }),
    minEpisodes: Type.Integer({ minimum: 0, maximum: 500 }),
    /** The story must have been created within the contest's dates. */
    startWithin: Type.Boolean(),
    /** The share (0-1) of the total the editors' rubric counts for. */
    rubricShare: Type.Number({ minimum: 0, maximum: 1 }),
  },
  { additionalProperties: false },
);
export type ContestRules = Static<typeof ContestRules>;

/** What an editor sends to create (no campaignId) or edit a campaign. */
export const CampaignInput = Type.Object(
  {
    campaignId: Type.Optional(IdParam),
    title: Bilingual(200, 1),
    description: Bilingual(5000),
    prizes: Type.Optional(Bilingual(2000)),
    startsAt: Type.String({ format: 'date-time' }),
    endsAt: Type.String({ format: 'date-time' }),
    questionnaire: Type.Optional(
      Type.Object(
        { questions: Type.Array(Question, { minItems: 1, maxItems: 50 }) },
        { additionalProperties: false },
      ),
    ),
    contest: Type.Optional(ContestRules),
    /** An external ad-metrics report (https). */
    reportUrl: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type CampaignInput = Static<typeof CampaignInput>;
export const ManageBody = Type.Object({ campaign: CampaignInput }, { additionalProperties: false });
export type ManageBody = Static<typeof ManageBody>;
export const ManageAnswer = Type.Object({ campaignId: Type.Integer() });

export const CampaignState = Type.Unsafe<'running' | 'upcoming' | 'ended'>({
  type: 'string',
  enum: ['running', 'upcoming', 'ended'],
});
export type CampaignState = 'running' | 'upcoming' | 'ended';

/** A campaign as lists and its page show it. */
export const CampaignSummary = Type.Object({
  campaignId: Type.Integer(),
  title: Bilingual(200),
  description: Bilingual(5000),
  prizes: Bilingual(2000),
  startsAt: Type.String(),
  endsAt: Type.String(),
  state: CampaignState,
  kinds: Type.Array(Type.String()),
  /** The questionnaire's current version, to take part with; null without one. */
  questionerId: Type.Union([Type.Integer(), Type.Null()]),
  contest: Type.Union([ContestRules, Type.Null()]),
  /** The banner image (WebP, up to 1200 px wide), or null. */
  bannerUrl: Type.Union([Type.String(), Type.Null()]),
});
export type CampaignSummary = Static<typeof CampaignSummary>;
export const CampaignList = Type.Object({ campaigns: Type.Array(CampaignSummary) });
export const CampaignDetail = Type.Object({ campaign: CampaignSummary });

export const ParticipationBody = Type.Object(
  {
    campaignId: IdParam,
    questionerId: IdParam,
    mobile: Type.String({ maxLength: 30 }),
    carrier: Type.Unsafe<CampaignCarrier>({ type: 'string', enum: [...CAMPAIGN_CARRIERS] }),
  },
  { additionalProperties: false },
);
export type ParticipationBody = Static<typeof ParticipationBody>;
export const ParticipationAnswer = Type.Object({
  participantId: Type.Integer(),
  refId: Type.String(),
  mobile: Type.String(),
  expiresInMinutes: Type.Integer(),
});
export type ParticipationAnswer = Static<typeof ParticipationAnswer>;

export const Questioner = Type.Object({
  questionerId: Type.Integer(),
  campaignId: Type.Integer(),
  version: Type.Integer(),
  title: Bilingual(200),
  questions: Type.Array(Question),
});
export type Questioner = Static<typeof Questioner>;

/** An answer: an option id, option ids, a text, or a rating 1-5. */
export const AnswerValue = Type.Union([
  Type.String({ maxLength: 10_000 }),
  Type.Array(Type.String({ maxLength: 40 }), { maxItems: 30 }),
  Type.Integer(),
]);
export type AnswerValue = Static<typeof AnswerValue>;
export const ResponseBody = Type.Object(
  {
    participantId: IdParam,
    refId: Type.String({ minLength: 1, maxLength: 100 }),
    mfaCode: Type.String({ maxLength: 20 }),
    answers: Type.Record(Type.String({ maxLength: 40 }), AnswerValue),
  },
  { additionalProperties: false },
);
export type ResponseBody = Static<typeof ResponseBody>;
export const ResponseAnswer = Type.Object({ responseId: Type.Integer() });

/** What editors see of a campaign: its input, counts per choice, responses with masked mobiles. */
export const ManagedCampaign = Type.Object({
  campaign: CampaignSummary,
  reportUrl: Type.Union([Type.String(), Type.Null()]),
  questions: Type.Array(Question),
  responseCount: Type.Integer(),
  /** The latest ad-metrics report fetches: accepted, or refused with the reason. */
  reports: Type.Array(
    Type.Object({
      status: Type.Unsafe<'accepted' | 'refused'>({
        type: 'string',
        enum: ['accepted', 'refused'],
      }),
      reason: Type.Union([Type.String(), Type.Null()]),
      url: Type.String(),
      fetchedAt: Type.String(),
    }),
  ),
  /** Per question id: per option id (or rating '1'..'5'), how many answered it. */
  counts: Type.Record(Type.String(), Type.Record(Type.String(), Type.Integer())),
  responses: Type.Array(
    Type.Object({
      responseId: Type.Integer(),
      mobile: Type.String(),
      createdAt: Type.String(),
      version: Type.Integer(),
    }),
  ),
});
export type ManagedCampaign = Static<typeof ManagedCampaign>;
export const ManagedList = Type.Object({ campaigns: Type.Array(CampaignSummary) });

export const EntryBody = Type.Object({ storyId: IdParam }, { additionalProperties: false });
export const EntryAnswer = Type.Object({ entryId: Type.Integer(), storyId: Type.Integer() });

const Track = Type.Unsafe<'sinhala' | 'english'>({ type: 'string', enum: ['sinhala', 'english'] });
/** One ranked entry of `object.contestantList`. */
export const Contestant = Type.Object({
  track: Track,
  rank: Type.Integer(),
  storyId: Type.Integer(),
  title: Type.String(),
  authorId: Type.Integer(),
  author: Type.String(),
  score: Type.Number(),
  engagedReaders: Type.Integer(),
  ratingWeight: Type.Number(),
  rubric: Type.Union([Type.Number(), Type.Null()]),
  winnerPlace: Type.Union([Type.Integer(), Type.Null()]),
});
export type Contestant = Static<typeof Contestant>;

/** Accepted ad-metrics figures (SPEC.md 5), or null when none was accepted yet. */
export const AdMetrics = Type.Object({
  impressions: Type.Number(),
  clicks: Type.Number(),
  spend: Type.Number(),
  fetchedAt: Type.String(),
});
export type AdMetrics = Static<typeof AdMetrics>;

export const ContestStandings = Type.Object({
  campaign: CampaignSummary,
  /** True once the contest ended: the ranking no longer changes. */
  frozen: Type.Boolean(),
  contestantList: Type.Array(Contestant),
  adMetrics: Type.Union([AdMetrics, Type.Null()]),
});
export type ContestStandings = Static<typeof ContestStandings>;

export const JudgeBody = Type.Object(
  {
    rubric: Type.Optional(
      Type.Array(
        Type.Object(
          { storyId: IdParam, score: Type.Number({ minimum: 0, maximum: 100 }) },
          { additionalProperties: false },
        ),
        { maxItems: 500 },
      ),
    ),
    /** Story ids in winning order (first place first). */
    winners: Type.Optional(Type.Array(IdParam, { maxItems: 20 })),
  },
  { additionalProperties: false },
);
export type JudgeBody = Static<typeof JudgeBody>;

export const Badges = Type.Object({
  badges: Type.Array(
    Type.Object({ campaignId: Type.Integer(), title: Bilingual(200), place: Type.Integer() }),
  ),
});
