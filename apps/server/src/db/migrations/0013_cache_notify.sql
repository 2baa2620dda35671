-- Every instance keeps verified sessions, stories, episodes and readers' own state in memory.
-- These triggers tell all of them (LISTEN kathamala_cache) what changed, whoever wrote it: a
-- request, a job, the carrier's webhook or the seed. NOTIFY is delivered only when the writing
-- transaction commits, so no instance can drop an entry and refill it from before the change.
-- Payloads are 'kind:id'; identical ones in one transaction arrive once. A story's row (its
-- rating, reads) and its episodes are separate kinds: a rating must not drop episode texts.
CREATE OR REPLACE FUNCTION kathamala_notify_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  IF TG_TABLE_NAME = 'sessions' THEN
    PERFORM pg_notify('kathamala_cache', 'session:' || r.id);
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('kathamala_cache', 'user:' || r.id);
  ELSIF TG_TABLE_NAME = 'stories' THEN
    PERFORM pg_notify('kathamala_cache', 'story:' || r.id);
  ELSIF TG_TABLE_NAME = 'episodes' THEN
    PERFORM pg_notify('kathamala_cache', 'episodes:' || r.story_id);
  ELSE
    -- ratings, bookmarks, story_alerts: one reader's own state.
    PERFORM pg_notify('kathamala_cache', 'viewer:' || r.user_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Changes that touch many readers or stories at once: subscriptions (any reader's access) and
-- the authors and apps a story names.
CREATE OR REPLACE FUNCTION kathamala_notify_table() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'subscriptions' THEN
    PERFORM pg_notify('kathamala_cache', 'members:');
  ELSE
    PERFORM pg_notify('kathamala_cache', 'stories:');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_cache_notify AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION kathamala_notify_row();
--> statement-breakpoint
CREATE TRIGGER users_cache_notify AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION kathamala_notify_row();
--> statement-breakpoint
CREATE TRIGGER stories_cache_notify AFTER UPDATE OR DELETE ON stories
  FOR EACH ROW EXECUTE FUNCTION kathamala_notify_row();
--> statement-breakpoint
CREATE TRIGGER episodes_cache_notify AFTER INSERT OR UPDATE OR DELETE ON episodes
  FOR EACH ROW EXECUTE FUNCTION kathamala_notify_row();
--> statement-breakpoint
CREATE TRIGGER ratings_cache_notify AFTER INSERT OR UPDATE OR DELETE ON ratings
  FOR EACH ROW EXECUTE FUNCTION kathamala_notify_row();
--> statement-breakpoint
CREATE TRIGGER bookmarks_cache_notify AFTER INSERT OR UPDATE OR DELETE ON bookmarks
  FOR EACH ROW EXECUTE FUNCTION kathamala_notify_row();
--> statement-breakpoint
CREATE TRIGGER story_alerts_cache_notify AFTER INSERT OR UPDATE OR DELETE ON story_alerts
  FOR EACH ROW EXECUTE FUNCTION kathamala_notify_row();
--> statement-breakpoint
CREATE TRIGGER subscriptions_cache_notify AFTER INSERT OR UPDATE OR DELETE ON subscriptions
  FOR EACH STATEMENT EXECUTE FUNCTION kathamala_notify_table();
--> statement-breakpoint
CREATE TRIGGER authors_cache_notify AFTER UPDATE OR DELETE ON authors
  FOR EACH STATEMENT EXECUTE FUNCTION kathamala_notify_table();
--> statement-breakpoint
CREATE TRIGGER billing_apps_cache_notify AFTER UPDATE OR DELETE ON billing_apps
  FOR EACH STATEMENT EXECUTE FUNCTION kathamala_notify_table();
