-- Events as an outbox: a write may record its event in its own statement and leave the jobs to
-- the dispatcher (jobs/events.ts), which enqueues them and sets dispatched_at.
ALTER TABLE "events" ADD COLUMN "dispatched_at" timestamp with time zone;--> statement-breakpoint
UPDATE "events" SET "dispatched_at" = "created_at";--> statement-breakpoint
CREATE INDEX "events_undispatched_idx" ON "events" USING btree ("id") WHERE "dispatched_at" IS NULL;
