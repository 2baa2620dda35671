import type { Platform } from '../../platform.ts';
import { healthRepo } from './repo.ts';
import { healthService } from './service.ts';
import { healthRoutes } from './routes.ts';

/** Health checks for load balancers and operators. */
export function healthModule({ app, db }: Platform) {
  healthRoutes(app, healthService(healthRepo(db)));
}
