-- Campaigns (issue 30): questionnaires answered by mobile, writing contests, the ad-metrics
-- report. Written by hand; keep db/campaigns-schema.ts in step.
CREATE TABLE campaigns (
  id serial PRIMARY KEY,
  title_en text NOT NULL,
  title_si text NOT NULL,
  description_en text NOT NULL DEFAULT '',
  description_si text NOT NULL DEFAULT '',
  prizes_en text NOT NULL DEFAULT '',
  prizes_si text NOT NULL DEFAULT '',
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  -- The contest's rules (null: no contest): track, minEpisodes, startWithin, rubricShare.
  contest jsonb,
  report_url text,
  created_by integer REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT campaigns_dates_check CHECK (ends_at > starts_at)
);
--> statement-breakpoint
-- Each edit of a campaign's questions is a new version; responses keep the one they answered.
CREATE TABLE campaign_questionnaires (
  id serial PRIMARY KEY,
  campaign_id integer NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  version integer NOT NULL,
  questions jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT campaign_questionnaires_version_key UNIQUE (campaign_id, version)
);
--> statement-breakpoint
-- A mobile that asked to take part, with the code sent to it (only its hash is kept).
CREATE TABLE campaign_participants (
  id serial PRIMARY KEY,
  campaign_id integer NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  questionnaire_id integer NOT NULL REFERENCES campaign_questionnaires(id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  mobile text NOT NULL,
  carrier text NOT NULL,
  ref_id text NOT NULL UNIQUE,
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX campaign_participants_mobile_idx ON campaign_participants (mobile, created_at);
--> statement-breakpoint
CREATE INDEX campaign_participants_user_idx ON campaign_participants (user_id, created_at);
--> statement-breakpoint
-- One response per mobile per campaign: the unique key is the rule.
CREATE TABLE campaign_responses (
  id serial PRIMARY KEY,
  campaign_id integer NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  questionnaire_id integer NOT NULL REFERENCES campaign_questionnaires(id) ON DELETE CASCADE,
  participant_id integer NOT NULL REFERENCES campaign_participants(id) ON DELETE CASCADE,
  mobile text NOT NULL,
  answers jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT campaign_responses_mobile_key UNIQUE (campaign_id, mobile)
);
--> statement-breakpoint
-- A contest's ranking as it stood at its end: computed once after the end, never again.
ALTER TABLE campaigns ADD COLUMN frozen_ranking jsonb;
--> statement-breakpoint
-- A story entered in a contest, by its author; the editors' rubric score and winning place.
CREATE TABLE campaign_entries (
  id serial PRIMARY KEY,
  campaign_id integer NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  story_id integer NOT NULL REFERENCES stories(id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  rubric real CONSTRAINT campaign_entries_rubric_check CHECK (rubric BETWEEN 0 AND 100),
  winner_place integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT campaign_entries_story_key UNIQUE (campaign_id, story_id)
);
--> statement-breakpoint
-- Each fetch of a campaign's ad-metrics report: accepted with its figures, or refused with why.
CREATE TABLE campaign_reports (
  id serial PRIMARY KEY,
  campaign_id integer NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  url text NOT NULL,
  status text NOT NULL CONSTRAINT campaign_reports_status_check CHECK (status IN ('accepted', 'refused')),
  reason text,
  impressions bigint,
  clicks bigint,
  spend numeric(14, 2),
  fetched_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX campaign_reports_campaign_idx ON campaign_reports (campaign_id, fetched_at);
--> statement-breakpoint
-- The campaign's banner (a hash of its WebP bytes, in its file name); null: no banner.
ALTER TABLE campaigns ADD COLUMN banner_version text;
