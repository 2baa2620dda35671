import type { Platform } from '../../platform.ts';
import { storiesRepo } from './repo.ts';
import { storiesService } from './service.ts';
import { storyRoutes } from './routes.ts';

/** Reading: lists, search, story details and episodes, and what drops their cached answers. */
export async function storiesModule({ app, readDb, cache, changes, responseCache }: Platform) {
  // On the reading path's own connections: an episode whose reader's state was dropped by their
  // rating is read without waiting behind other readers' writes.
  const repo = storiesRepo(readDb);
  // Stories and authors saved before Singlish keys existed get theirs once (batched; cheap after).
  await repo.backfillSinglishKeys();
  const stories = storiesService(repo, cache);
  storyRoutes(app, stories);
  // One story's row or episodes changed (a rating, a new cover, an edit): its own answers now;
  // lists that show it catch up within their few seconds.
  changes.on((c) => {
    if (c.kind === 'story') responseCache.drop(`/api/v1/story/${c.id}/`);
    if (c.kind === 'episodes') responseCache.drop(`/api/v1/story/${c.storyId}/`);
  });
  return { stories, repo };
}
