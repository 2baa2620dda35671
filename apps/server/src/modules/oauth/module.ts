import type { SignInProvider } from '@kathamala/domain';
import type { Platform } from '../../platform.ts';
import type { AuthService } from '../auth/service.ts';
import type { MailTransport } from '../mail/transport.ts';
import { verificationMail } from './mail.ts';
import {
  FACEBOOK_ENDPOINTS,
  facebookAdapter,
  GOOGLE_ENDPOINTS,
  googleAdapter,
  type SignInAdapter,
} from './providers.ts';
import { oauthRepo } from './repo.ts';
import { oauthRoutes } from './routes.ts';
import { oauthService, VERIFY_EMAIL_JOB } from './service.ts';
import { SIMULATOR_CLIENT, simulatorEndpoints, simulatorRoutes } from './simulator.ts';

/**
 * Sign-in with Google and Facebook, linked accounts, and e-mail verification. Each provider
 * talks to the real one when its client is configured; else, with the simulator setting on,
 * to the simulator at /dev/oauth/{provider}/ over the same HTTP protocol; else it is not offered.
 */
export async function oauthModule(
  { app, db, keys, queue, config }: Platform,
  deps: { auth: AuthService; mail: MailTransport },
) {
  const redirectUri = (p: SignInProvider) => `${config.publicUrl}/api/v1/auth/${p}/callback`;
  const adapters = new Map<SignInProvider, SignInAdapter>();
  const simulated: SignInProvider[] = [];
  const { google, facebook, simulator } = config.oauth;
  if (google)
    adapters.set('google', googleAdapter(google, GOOGLE_ENDPOINTS, redirectUri('google')));
  else if (simulator) {
    const endpoints = simulatorEndpoints('google', config.publicUrl, app);
    adapters.set('google', googleAdapter(SIMULATOR_CLIENT, endpoints, redirectUri('google')));
    simulated.push('google');
  }
  if (facebook)
    adapters.set(
      'facebook',
      facebookAdapter(facebook, FACEBOOK_ENDPOINTS, redirectUri('facebook')),
    );
  else if (simulator) {
    const endpoints = simulatorEndpoints('facebook', config.publicUrl, app);
    adapters.set('facebook', facebookAdapter(SIMULATOR_CLIENT, endpoints, redirectUri('facebook')));
    simulated.push('facebook');
  }

  const oauth = oauthService({ repo: oauthRepo(db), auth: deps.auth, keys, queue, adapters });
  oauthRoutes(app, oauth, {
    rateLimit: { max: config.rateLimit.authMax, timeWindow: '1 minute' },
    secure: config.publicUrl.startsWith('https://'),
  });
  if (simulated.length > 0)
    await simulatorRoutes(app, { providers: simulated, publicUrl: config.publicUrl, redirectUri });

  await queue.work<{ id: string }>(VERIFY_EMAIL_JOB, async (job) => {
    const row = await oauth.findVerification(job.data.id);
    if (!row || row.usedAt || row.expiresAt.getTime() < Date.now()) return;
    const link = `${config.publicUrl}/account/#verify=${await oauth.linkToken(row.id)}`;
    await deps.mail.send(verificationMail({ id: `verify-${row.id}`, to: row.email, link }));
  });
  return oauth;
}
