import type { Platform } from '../../platform.ts';
import { leaderboardService } from './service.ts';
import { leaderboardRoutes } from './routes.ts';

/** Author rankings. */
export function leaderboardModule({ app, db }: Platform) {
  const leaderboard = leaderboardService(db);
  leaderboardRoutes(app, leaderboard);
  return leaderboard;
}
