import { canReadEpisode, type Viewer as ViewerKind } from '@kathamala/domain';
import type { Viewer } from '../../auth/viewer.ts';

/** Which kind of viewer a request is, for the paywall rules in packages/domain. */
export const viewerKind = (viewer: Viewer | null, subscribed: boolean): ViewerKind =>
  !viewer ? 'visitor' : subscribed ? 'subscriber' : 'reader';

/** Whether this viewer may be sent the text of this episode. */
export const mayReadEpisode = (
  viewer: Viewer | null,
  subscribed: boolean,
  story: { membersOnly: boolean },
  episode: { membersOnly: boolean },
) => canReadEpisode(viewerKind(viewer, subscribed), story, episode);
