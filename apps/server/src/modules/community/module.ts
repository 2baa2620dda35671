import type { Platform } from '../../platform.ts';
import { communityImages } from './images.ts';
import { communityService } from './service.ts';
import { communityInbox } from './inbox.ts';
import { communityUploads } from './uploads.ts';
import { communityRoutes } from './routes.ts';
import { COMMUNITY_NOTIFY_JOB, deliverNotices, type CommunityEvent } from './notices.ts';
import { useRolesDb } from './roles.ts';

/** The community area: posts, feeds, likes, shares, post comments, profiles, roles and the audit log. */
export async function communityModule(p: Platform) {
  useRolesDb(p.db);
  const images = communityImages(p.storage, p.config.imagesHost);
  // Lists of posts kept for everyone are dropped here when a post changes; the other instances
  // keep theirs at most the lists' few seconds.
  const dropFeeds = () => {
    p.responseCache.drop('/api/v1/community/feed');
    p.responseCache.drop('/api/v1/community/user/profile/');
  };
  const community = communityService({
    db: p.db,
    queue: p.queue,
    images,
    imagesHost: p.config.imagesHost,
    dropFeeds,
  });
  const inbox = communityInbox({
    db: p.db,
    images,
    imagesHost: p.config.imagesHost,
    posts: (ids, viewer) => community.postsFor(ids, viewer),
  });
  const uploads = communityUploads({ db: p.db, images, dropFeeds });
  await communityRoutes(p.app, { community, inbox, uploads, images });
  await p.queue.work<CommunityEvent>(COMMUNITY_NOTIFY_JOB, async (job) => {
    await deliverNotices(p.db, job.data);
  });
  return { community, dropFeeds };
}
