-- Search's Singlish title arm (TITLE_TIERS in modules/stories/repo.ts): titles do not follow
-- reads, so the most-read 1 % and 10 % rarely hold 200 titles like even the most common word, and
-- the whole index answered (every title like 'owun', 1,169 of them, read and compared). Tiers of
-- stories with reads >= 50 and >= 30 (a fifth and a third of the generated stories) hold 200 of
-- them for a word in some 700 titles or more.
DROP INDEX "stories_title_singlish_reads_1000_idx";--> statement-breakpoint
DROP INDEX "stories_title_singlish_reads_100_idx";--> statement-breakpoint
CREATE INDEX "stories_title_singlish_reads_50_idx" ON "stories" USING gin ("title_key" gin_trgm_ops) WHERE "stories"."reads" >= 50;--> statement-breakpoint
CREATE INDEX "stories_title_singlish_reads_30_idx" ON "stories" USING gin ("title_key" gin_trgm_ops) WHERE "stories"."reads" >= 30;