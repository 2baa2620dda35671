import type { Platform } from '../../platform.ts';
import { socialService } from './service.ts';
import { socialRoutes } from './routes.ts';

/** Follows between readers and authors. */
export function socialModule({ app, db, queue }: Platform) {
  socialRoutes(app, socialService(db, queue));
}
