import type { Platform } from '../../platform.ts';
import type { StoriesService } from '../stories/service.ts';
import { commentsService } from './service.ts';
import { commentRoutes } from './routes.ts';

/** Comments and replies on stories; the stories they are on come from the stories service. */
export function commentsModule({ app, db, events }: Platform, stories: StoriesService) {
  commentRoutes(
    app,
    commentsService({
      db,
      events,
      story: stories.story,
      episode: stories.publishedEpisode,
      part: stories.publishedPart,
      subscribed: stories.subscribed,
    }),
  );
}
