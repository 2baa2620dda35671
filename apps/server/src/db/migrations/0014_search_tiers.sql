-- Search's read tiers (READ_TIERS in modules/stories/repo.ts): search indexes of the most-read
-- stories only (full text, Singlish document, Singlish title trigrams). A word in most stories
-- finds its 200 most-read matches among these without visiting every story that holds it; rarer
-- words fall through to the whole index.
CREATE INDEX "stories_search_reads_1000_idx" ON "stories" USING gin ("search_doc") WHERE "stories"."reads" >= 1000;--> statement-breakpoint
CREATE INDEX "stories_search_reads_100_idx" ON "stories" USING gin ("search_doc") WHERE "stories"."reads" >= 100;--> statement-breakpoint
CREATE INDEX "stories_singlish_reads_1000_idx" ON "stories" USING gin ("singlish_doc") WHERE "stories"."reads" >= 1000;--> statement-breakpoint
CREATE INDEX "stories_singlish_reads_100_idx" ON "stories" USING gin ("singlish_doc") WHERE "stories"."reads" >= 100;--> statement-breakpoint
CREATE INDEX "stories_title_singlish_reads_1000_idx" ON "stories" USING gin ("title_key" gin_trgm_ops) WHERE "stories"."reads" >= 1000;--> statement-breakpoint
CREATE INDEX "stories_title_singlish_reads_100_idx" ON "stories" USING gin ("title_key" gin_trgm_ops) WHERE "stories"."reads" >= 100;
