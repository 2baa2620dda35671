ALTER TABLE "authors" ADD COLUMN "name_key" text;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "title_key" text;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "description_key" text;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "singlish_doc" "tsvector";--> statement-breakpoint
CREATE INDEX "authors_name_singlish_trgm_idx" ON "authors" USING gin ("name_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "stories_title_singlish_trgm_idx" ON "stories" USING gin ("title_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "stories_singlish_idx" ON "stories" USING gin ("singlish_doc");
--> statement-breakpoint
-- No backfill here: the keys come from singlishKey in TypeScript (packages/domain), so the
-- server fills every row whose key is null at start-up (backfillSinglishKeys) and on each save.
SELECT 1;
