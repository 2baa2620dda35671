-- Search's Singlish title arm matches title words, not whole titles (modules/stories/repo.ts).
-- `key <% title_key` let a short key's trigrams match across two title words ('kilaya' in
-- 'puskolaya kisi': "aya", "ya ", "  k", " ki"), so a common key's titles were mostly such
-- matches, each rechecked (1,874 candidates for 198 matches). Now the words like each query word
-- are looked up in title_words (word_similarity within one word, by trigram), and the stories
-- whose titles hold one come from a full-text index of the title key's words, with the same read
-- tiers (reads >= 50 and >= 30). The title-key trigram indexes go.
CREATE TABLE "title_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
DROP INDEX "stories_title_singlish_trgm_idx";--> statement-breakpoint
DROP INDEX "stories_title_singlish_reads_50_idx";--> statement-breakpoint
DROP INDEX "stories_title_singlish_reads_30_idx";--> statement-breakpoint
CREATE INDEX "title_words_trgm_idx" ON "title_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "stories_title_words_idx" ON "stories" USING gin (to_tsvector('simple', coalesce("title_key", '')));--> statement-breakpoint
CREATE INDEX "stories_title_words_reads_50_idx" ON "stories" USING gin (to_tsvector('simple', coalesce("title_key", ''))) WHERE "stories"."reads" >= 50;--> statement-breakpoint
CREATE INDEX "stories_title_words_reads_30_idx" ON "stories" USING gin (to_tsvector('simple', coalesce("title_key", ''))) WHERE "stories"."reads" >= 30;--> statement-breakpoint
INSERT INTO "title_words" ("word") SELECT DISTINCT w FROM "stories", unnest(tsvector_to_array(to_tsvector('simple', coalesce("title_key", '')))) AS w ON CONFLICT DO NOTHING;
