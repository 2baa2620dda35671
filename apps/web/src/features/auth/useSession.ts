import { useSyncExternalStore } from 'react';
import { getServerSession, getSession, subscribeSession, type Session } from './session.ts';

/** The session as the page should show it: 'unknown' on the server and while hydrating. */
export const useSession = (): Session =>
  useSyncExternalStore(subscribeSession, getSession, getServerSession);
