import { useQuery, type QueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  type AlertAnswer,
  type MembershipDetails,
  type StoryDetails,
  type SubscribeAnswer,
  type SubscribeBody,
} from '@kathamala/domain';
import { apiRequest } from './client.ts';
import { viewerKey } from './engagement.ts';

/*
 * Membership by mobile carrier, SMS alerts and the mailing list, as the web app calls them.
 * Query keys are [path, viewer] like the other personal data, so another account in the same
 * tab never sees the previous one's memberships.
 */

/**
 * Asks the carrier to text a code to `mobile` for the app `appId`; answers the refId. `storyId`:
 * the story whose wall the reader joins from, counted in its author's Members gained.
 */
export const requestMemberCode = (body: SubscribeBody) =>
  apiRequest<SubscribeAnswer>(apiPaths.memberSubscribe(), { method: 'POST', body });

/** The code typed on the wall: activates (or links) the membership. */
export const verifyMemberCode = (body: { mfaCode: string; appId: string; refId: string }) =>
  apiRequest<{ subscribed: true; appId: string }>(apiPaths.memberVerify(), {
    method: 'POST',
    body,
  });

/** Leaves the app's membership: the carrier is told (UNREG). */
export const leaveMembership = (appId: string) =>
  apiRequest<{ subscribed: false; appId: string }>(apiPaths.memberUnsubscribe(), {
    method: 'POST',
    body: { appId },
  });

/** The key of the reader's memberships. */
export const membershipsKey = () => [apiPaths.memberDetails(), viewerKey()];

/** The reader's memberships (active, lapsed and ended), for the account page. */
export const useMemberships = (enabled: boolean) =>
  useQuery({
    queryKey: membershipsKey(),
    queryFn: ({ signal }) => apiRequest<MembershipDetails>(apiPaths.memberDetails(), { signal }),
    enabled,
  });

/**
 * Toggles the reader's SMS alert for a story (GET, SPEC.md 7). A failure throws the ApiError,
 * whose `code` is -1 when the request never reached the server (SPEC.md 8).
 */
export const toggleAlert = (storyId: number) => apiRequest<AlertAnswer>(apiPaths.alert(storyId));

const partKeyPrefix = (storyId: number) => apiPaths.part(storyId, 0).replace(/0$/, '');

/** After an alert toggle: every loaded part of the story shows the new state. */
export const applyAlert = (client: QueryClient, storyId: number, alertEnabled: boolean): void => {
  client.setQueriesData<StoryDetails>(
    {
      predicate: (q) =>
        typeof q.queryKey[0] === 'string' && q.queryKey[0].startsWith(partKeyPrefix(storyId)),
    },
    (old) => old && { ...old, alertEnabled },
  );
};

/** Whether the account's address is on the mailing list. */
export interface MailStatus {
  /** Masked address. */
  email: string;
  subscribed: boolean;
}

/** The key of the account's mailing-list status. */
export const mailStatusKey = () => [apiPaths.mailStatus(), viewerKey()];

export const useMailStatus = (enabled: boolean) =>
  useQuery({
    queryKey: mailStatusKey(),
    queryFn: ({ signal }) => apiRequest<MailStatus>(apiPaths.mailStatus(), { signal }),
    enabled,
  });

/** Asks for a confirmation e-mail whose link puts `email` on the mailing list. */
export const requestMailConfirmation = (email: string) =>
  apiRequest<unknown>(apiPaths.mailRequest(), { method: 'POST', body: { email } });
