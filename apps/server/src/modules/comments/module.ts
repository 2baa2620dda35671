import type { Platform } from '../../platform.ts';
import { commentsService } from './service.ts';
import { commentRoutes } from './routes.ts';

/** Comments and replies on stories. */
export function commentsModule({ app, db, queue }: Platform) {
  commentRoutes(app, commentsService({ db, queue }));
}
