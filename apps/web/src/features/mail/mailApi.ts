import { apiPaths } from '@kathamala/domain';
import { apiRequest } from '../../api/client.ts';

/** What the list answers: the address masked and whether it is now subscribed. */
export interface MailAnswer {
  email: string;
  subscribed: boolean;
}

/** Puts the token's address on the mailing list or takes it off (no login: the e-mail's link). */
export const setMailSubscription = (token: string, subscribed: boolean) =>
  apiRequest<MailAnswer>(apiPaths.mailSubscribe(), {
    method: 'POST',
    body: { token, subscribed },
    // Nothing here is about a session: a refusal must not log the reader out.
    sessionGuard: false,
  });

/** Asks for an e-mail with a link that confirms the address (the answer never says more). */
export const requestMailLink = (email: string) =>
  apiRequest<{ email: string }>(apiPaths.mailRequest(), {
    method: 'POST',
    body: { email },
    sessionGuard: false,
  });
