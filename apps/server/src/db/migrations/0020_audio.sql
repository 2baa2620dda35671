-- Audio episodes (issue 29): an author's tracks per story, and where each listener is in them.
-- A track is 'processing' until its job has written both renditions under a new `prefix` and
-- flipped it to 'ready' in one statement; `prefix` is null until then, so nothing half made is live.
CREATE TABLE "audio_tracks" (
	"id" serial PRIMARY KEY NOT NULL,
	"story_id" integer NOT NULL REFERENCES "stories"("id") ON DELETE CASCADE,
	"title" text NOT NULL,
	"part_number" integer,
	"members_only" boolean DEFAULT false NOT NULL,
	"position" integer NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"reason" text,
	"source_key" text,
	"prefix" text,
	"duration_seconds" real,
	"standard_bytes" integer,
	"saver_bytes" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audio_tracks_status_check" CHECK ("status" IN ('processing', 'ready', 'failed'))
);
--> statement-breakpoint
CREATE INDEX "audio_tracks_story_idx" ON "audio_tracks" ("story_id", "position");
--> statement-breakpoint
CREATE UNIQUE INDEX "audio_tracks_prefix_idx" ON "audio_tracks" ("prefix");
--> statement-breakpoint
CREATE TABLE "audio_positions" (
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"track_id" integer NOT NULL REFERENCES "audio_tracks"("id") ON DELETE CASCADE,
	"position_seconds" real NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audio_positions_pk" PRIMARY KEY("user_id", "track_id")
);
--> statement-breakpoint
-- As migration 0013: every instance keeps a story's tracks and a listener's positions in memory.
-- A track's change is its story's ('story:' drops the story's kept answers too); a position is
-- the listener's own state ('viewer:').
CREATE OR REPLACE FUNCTION kathamala_notify_audio() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  IF TG_TABLE_NAME = 'audio_tracks' THEN
    PERFORM pg_notify('kathamala_cache', 'story:' || r.story_id);
  ELSE
    PERFORM pg_notify('kathamala_cache', 'viewer:' || r.user_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER audio_tracks_cache_notify AFTER INSERT OR UPDATE OR DELETE ON audio_tracks
  FOR EACH ROW EXECUTE FUNCTION kathamala_notify_audio();
--> statement-breakpoint
CREATE TRIGGER audio_positions_cache_notify AFTER INSERT OR UPDATE OR DELETE ON audio_positions
  FOR EACH ROW EXECUTE FUNCTION kathamala_notify_audio();
