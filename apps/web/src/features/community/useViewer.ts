import { useSession } from '../auth/useSession.ts';
import { useCommunityMe } from './api.ts';
import type { Viewer } from './PostCard.tsx';

/**
 * Who is looking at a community page: 'unknown' while the session or the viewer's community
 * profile is not known yet (server render, hydration, first load), null for a visitor.
 */
export function useViewer(): { viewer: Viewer; me: ReturnType<typeof useCommunityMe>['data'] } {
  const session = useSession();
  const me = useCommunityMe(session.status === 'reader');
  if (session.status === 'visitor') return { viewer: null, me: undefined };
  if (session.status === 'unknown' || !me.data) return { viewer: 'unknown', me: undefined };
  return { viewer: { userId: me.data.userId, role: me.data.role }, me: me.data };
}
