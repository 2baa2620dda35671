import type { Platform } from '../../platform.ts';
import type { StoriesRepo } from '../stories/repo.ts';
import { metaRoutes } from './routes.ts';

/** What the site says of itself: keys, sitemaps, covers' files and the like. */
export function metaModule({ app, keys, storage, config }: Platform, stories: StoriesRepo) {
  metaRoutes(app, { keys, storage, stories, publicUrl: config.publicUrl });
}
