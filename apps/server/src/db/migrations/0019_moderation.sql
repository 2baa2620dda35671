-- The editors' review: one queue of cases. A case is one target (a community post, a profile,
-- a story comment, a community post comment) waiting for an editor; it opens when the target
-- is held back or first flagged, gathers flags while open, and closes with a decision. A target
-- has at most one open case; its closed ones are its history.
CREATE TABLE "review_cases" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL CHECK ("kind" IN ('post', 'profile', 'comment', 'post_comment')),
	"target_id" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL CHECK ("status" IN ('open', 'approved', 'rejected', 'ignored')),
	"held_reason" text,
	"hidden" boolean DEFAULT false NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" integer REFERENCES "users"("id") ON DELETE SET NULL,
	"decided_at" timestamp with time zone,
	"decision_reason" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "review_cases_open_key" ON "review_cases" ("kind", "target_id") WHERE "status" = 'open';
--> statement-breakpoint
CREATE INDEX "review_cases_queue_idx" ON "review_cases" ("opened_at", "id") WHERE "status" = 'open';
--> statement-breakpoint
CREATE INDEX "review_cases_target_idx" ON "review_cases" ("kind", "target_id");
--> statement-breakpoint
-- One flag per person per target, ever: flagging again changes nothing.
CREATE TABLE "review_flags" (
	"kind" text NOT NULL,
	"target_id" integer NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"case_id" integer NOT NULL REFERENCES "review_cases"("id") ON DELETE CASCADE,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	PRIMARY KEY ("kind", "target_id", "user_id")
);
--> statement-breakpoint
CREATE INDEX "review_flags_case_idx" ON "review_flags" ("case_id", "created_at");
--> statement-breakpoint
-- A case's history: held, flagged, hidden, and the decision, with who and when.
CREATE TABLE "review_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"case_id" integer NOT NULL REFERENCES "review_cases"("id") ON DELETE CASCADE,
	"action" text NOT NULL CHECK ("action" IN ('held', 'flagged', 'hidden', 'approved', 'rejected', 'ignored')),
	"actor_id" integer REFERENCES "users"("id") ON DELETE SET NULL,
	"note" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "review_events_case_idx" ON "review_events" ("case_id", "at", "id");
--> statement-breakpoint
-- The words editors keep: each with the folded keys it matches by (Sinhala script with or
-- without joiners, and Singlish, fold to the same key); one word per main key.
CREATE TABLE "review_words" (
	"id" serial PRIMARY KEY NOT NULL,
	"word" text NOT NULL,
	"key" text NOT NULL,
	"keys" text[] NOT NULL,
	"added_by" integer REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "review_words_key" ON "review_words" ("key");
--> statement-breakpoint
-- Story comments an editor rejected: hidden from everyone but their writer.
CREATE TABLE "rejected_comments" (
	"comment_id" integer PRIMARY KEY NOT NULL REFERENCES "comments"("id") ON DELETE CASCADE,
	"reason" text,
	"rejected_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- A story comment's Report (comments module) puts the comment in the same queue: the report
-- opens its case (or joins the open one) and becomes one of its flags, in the same transaction.
CREATE OR REPLACE FUNCTION review_comment_report() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cid integer;
BEGIN
  INSERT INTO review_cases (kind, target_id, opened_at) VALUES ('comment', NEW.comment_id, NEW.created_at)
    ON CONFLICT (kind, target_id) WHERE status = 'open' DO NOTHING;
  SELECT id INTO cid FROM review_cases WHERE kind = 'comment' AND target_id = NEW.comment_id AND status = 'open';
  INSERT INTO review_flags (kind, target_id, user_id, case_id, reason, created_at)
    VALUES ('comment', NEW.comment_id, NEW.user_id, cid, NEW.reason, NEW.created_at)
    ON CONFLICT DO NOTHING;
  INSERT INTO review_events (case_id, action, actor_id, note, at)
    VALUES (cid, 'flagged', NEW.user_id, NEW.reason, NEW.created_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "comment_reports_review" AFTER INSERT ON "comment_reports"
	FOR EACH ROW EXECUTE FUNCTION review_comment_report();
--> statement-breakpoint
-- Reports filed before the queue existed join it too.
INSERT INTO review_cases (kind, target_id, opened_at)
	SELECT 'comment', comment_id, min(created_at) FROM comment_reports WHERE status = 'open' GROUP BY comment_id;
--> statement-breakpoint
INSERT INTO review_flags (kind, target_id, user_id, case_id, reason, created_at)
	SELECT 'comment', r.comment_id, r.user_id, c.id, r.reason, r.created_at
	FROM comment_reports r JOIN review_cases c ON c.kind = 'comment' AND c.target_id = r.comment_id
	WHERE r.status = 'open';
--> statement-breakpoint
INSERT INTO review_events (case_id, action, actor_id, note, at)
	SELECT c.id, 'flagged', r.user_id, r.reason, r.created_at
	FROM comment_reports r JOIN review_cases c ON c.kind = 'comment' AND c.target_id = r.comment_id
	WHERE r.status = 'open';
--> statement-breakpoint
-- A community post or post comment stored as pending (holds.ts held it: a new account's first
-- posts, a kept word) waits in the queue with its reason, whoever stored it.
CREATE OR REPLACE FUNCTION review_held() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text;
  cid integer;
BEGIN
  IF NEW.status <> 'pending' OR (TG_OP = 'UPDATE' AND OLD.status = 'pending') THEN RETURN NULL; END IF;
  IF TG_TABLE_NAME = 'community_posts' THEN k := 'post'; ELSE k := 'post_comment'; END IF;
  INSERT INTO review_cases (kind, target_id, held_reason) VALUES (k, NEW.id, NEW.status_reason)
    ON CONFLICT (kind, target_id) WHERE status = 'open'
    DO UPDATE SET held_reason = coalesce(review_cases.held_reason, EXCLUDED.held_reason)
    RETURNING id INTO cid;
  INSERT INTO review_events (case_id, action, note) VALUES (cid, 'held', NEW.status_reason);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "community_posts_review_held" AFTER INSERT OR UPDATE OF status ON "community_posts"
	FOR EACH ROW EXECUTE FUNCTION review_held();
--> statement-breakpoint
CREATE TRIGGER "community_comments_review_held" AFTER INSERT OR UPDATE OF status ON "community_comments"
	FOR EACH ROW EXECUTE FUNCTION review_held();
--> statement-breakpoint
-- A writer is told when an editor rejects their post or comment: a community notification of
-- its own kind, 'review', whose excerpt is the editor's sentence.
ALTER TABLE "community_notifications" DROP CONSTRAINT IF EXISTS "community_notifications_kind_check";
--> statement-breakpoint
ALTER TABLE "community_notifications" ADD CONSTRAINT "community_notifications_kind_check"
	CHECK ("kind" IN ('like', 'comment', 'mention', 'share', 'follow', 'review'));
