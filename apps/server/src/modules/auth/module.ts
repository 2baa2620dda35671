import type { Platform } from '../../platform.ts';
import { installAuth } from '../../plugins/auth.ts';
import { authRepo } from './repo.ts';
import { authService } from './service.ts';
import { authRoutes } from './routes.ts';

/** Accounts and sessions: the bearer-token hook every later route runs behind, and the auth calls. */
export function authModule({ app, db, keys, cache, config }: Platform) {
  const auth = authService(authRepo(db), keys, cache);
  installAuth(app, auth);
  authRoutes(app, auth, { max: config.rateLimit.authMax, timeWindow: '1 minute' });
  return auth;
}
