import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  AuditPage,
  COMMUNITY,
  CommentCreateBody,
  CommunityMe,
  CommunityPageQuery,
  CommunityProfile,
  ErrorBody,
  FeedPage,
  IdParam,
  ImageAnswer,
  ImageDeleteQuery,
  ImageParams,
  ImageRemoved,
  LikeAnswer,
  LikeBody,
  LikedAnswer,
  LikedQuery,
  MentionPage,
  NotificationPage,
  Ok,
  PinAnswer,
  PostAnswer,
  PostCommentAnswer,
  PostCommentPage,
  PostCommentsQuery,
  PostCreateBody,
  PostDeleteQuery,
  PostEditBody,
  PostPage,
  ProfileBody,
  RemovedPost,
  RoleAnswer,
  RoleBody,
  ShareBody,
} from '@kathamala/domain';
import { requireViewer } from '../../plugins/auth.ts';
import { acceptUploads, readImage, serveStoredImages, uploadError } from '../covers/routes.ts';
import { requireRole } from './roles.ts';
import type { CommunityService } from './service.ts';
import type { CommunityInbox } from './inbox.ts';
import type { CommunityUploads } from './uploads.ts';
import { COMMUNITY_FILE_PATTERN, type CommunityImages } from './images.ts';

const tags = ['community'];
const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  429: ErrorBody,
};
const IdParams = Type.Object({ id: IdParam }, { additionalProperties: false });
const PinParams = Type.Object({ post_id: IdParam }, { additionalProperties: false });
const login = { auth: 'required' } as const;
/**
 * Lists the same for everyone, kept a few seconds; a post that appears, goes or is pinned drops
 * them at once on this instance (dropFeeds), the others within the time.
 */
const SHARED = { cache: { ttlMs: 5_000 } };
/** Lists that differ for their writer: kept for visitors only. */
const VISITORS = { cache: { ttlMs: 5_000, only: 'visitors' as const } };

const personal = (reply: FastifyReply) => reply.header('cache-control', 'private, no-store');
/** Shared answers: a browser asks again each time, and the ETag makes an unchanged one a 304. */
const shared = (reply: FastifyReply) => reply.header('cache-control', 'public, no-cache');
const ok = <T>(object: T) => ({ code: 0 as const, object });

/** How images attach to posts: the OpenAPI description the web client follows. */
const IMAGES_FLOW =
  'Images attach to posts in one of two ways. Before a post exists: upload each picture to ' +
  '`/api/v1/community/image/upload/post/new` (it waits as your draft, at most 4), then create ' +
  'the post with `images: [imageId, …]` in the order shown. To an existing post of yours: ' +
  'upload to `/api/v1/community/image/upload/post/{postId}` (it is added last, at most 4), or ' +
  'edit the post with the `images` it keeps. A profile picture goes to `profile/{yourUserId}`. ' +
  'The file is judged by its bytes (JPEG, PNG or WebP; 8 MB; 40 megapixels), re-encoded ' +
  'without EXIF or GPS, and answered as WebP sizes with a srcset. Drafts not used within a day ' +
  'are dropped.';

/** The community calls of SPEC.md 7 (issue 28) that this module answers. */
export async function communityRoutes(
  app: FastifyInstance,
  deps: {
    community: CommunityService;
    inbox: CommunityInbox;
    uploads: CommunityUploads;
    images: CommunityImages;
  },
) {
  const { community, inbox, uploads, images } = deps;
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  /* The caller, roles and the audit log. */

  r.get(
    '/api/v1/community/user',
    {
      schema: {
        tags,
        summary: "The caller's community profile, with their role (reader, author, editor, admin)",
        response: { 200: Ok(CommunityMe), ...errors },
      },
      config: login,
    },
    async (req, reply) => {
      personal(reply);
      return ok(await community.me(requireViewer(req)));
    },
  );

  r.put(
    '/api/v1/community/user/role',
    {
      schema: {
        tags,
        summary: 'Grants or removes a role (admins only); recorded in the audit log',
        description:
          "`role: 'editor'` or `'admin'` grants it; `'reader'` or `'author'` removes it (an " +
          'author stays an author). An admin cannot change their own role. The command line ' +
          'does the same: `npm run role -- --email someone@example.com --role editor`.',
        body: RoleBody,
        response: { 200: Ok(RoleAnswer), ...errors },
      },
      config: login,
    },
    async (req) => {
      const admin = await requireRole(req, 'admin');
      return ok(await community.setRole(admin.userId, req.body.id, req.body.role, req.body.reason));
    },
  );

  r.get(
    '/api/v1/community/audit',
    {
      schema: {
        tags,
        summary: 'The audit log, newest first (admins only)',
        querystring: CommunityPageQuery,
        response: { 200: Ok(AuditPage), ...errors },
      },
      config: login,
    },
    async (req, reply) => {
      await requireRole(req, 'admin');
      personal(reply);
      return ok(await inbox.audit(req.query.page));
    },
  );

  /* Posts. */

  r.post(
    '/api/v1/community/user/post',
    {
      schema: {
        tags,
        summary: 'Creates a post: text up to 5,000 characters and up to 4 draft images',
        description: `A post that waits for review answers status 'pending' with its reason; only its writer sees it until an editor approves it. ${IMAGES_FLOW}`,
        body: PostCreateBody,
        response: { 200: Ok(PostAnswer), ...errors },
      },
      config: login,
    },
    async (req) => ok({ post: await community.createPost(requireViewer(req), req.body) }),
  );

  r.put(
    '/api/v1/community/user/post',
    {
      schema: {
        tags,
        summary: "Edits one's own post (another's: 403)",
        description: 'Without `images` the post keeps its pictures; with it, exactly those stay.',
        body: PostEditBody,
        response: { 200: Ok(PostAnswer), ...errors },
      },
      config: login,
    },
    async (req) => ok({ post: await community.editPost(requireViewer(req), req.body) }),
  );

  // A fresh object per route: the document's transform names each route's own schema.
  const onePost = () => ({
    schema: {
      tags,
      summary: 'One post with its counts and the viewer’s like',
      params: IdParams,
      response: { 200: Ok(PostAnswer), ...errors },
    },
  });
  r.get('/api/v1/community/post/:id', onePost(), async (req, reply) => {
    personal(reply);
    return ok({ post: await community.post(req.params.id, req.viewer) });
  });
  r.get('/api/v1/community/feed/:id', onePost(), async (req, reply) => {
    personal(reply);
    return ok({ post: await community.post(req.params.id, req.viewer) });
  });

  r.delete(
    '/api/v1/community/post/:id',
    {
      schema: {
        tags,
        summary: "Removes one's own post; an editor may remove anyone's with a reason (audited)",
        params: IdParams,
        querystring: PostDeleteQuery,
        response: { 200: Ok(RemovedPost), ...errors },
      },
      config: login,
    },
    async (req) =>
      ok(await community.removePost(requireViewer(req), req.params.id, req.query.reason)),
  );

  r.put(
    '/api/v1/community/post/:post_id/pin',
    {
      schema: {
        tags,
        summary: 'Pins or unpins a post (editors; audited)',
        params: PinParams,
        response: { 200: Ok(PinAnswer), ...errors },
      },
      config: login,
    },
    async (req) => {
      const editor = await requireRole(req, 'editor');
      return ok(await community.togglePin(editor.userId, req.params.post_id));
    },
  );

  /* Feeds. */

  r.get(
    '/api/v1/community/feed',
    {
      schema: {
        tags,
        summary: 'The community feed: approved posts, newest first',
        description:
          'The same answer for everyone (kept a few seconds), so `liked` is always false here: ' +
          'ask `/api/v1/community/post/liked?post_id=…` for the viewer’s likes of the page.',
        querystring: CommunityPageQuery,
        response: { 200: Ok(PostPage), ...errors },
      },
      config: SHARED,
    },
    async (req, reply) => {
      shared(reply);
      return ok(await community.feed(req.query.page));
    },
  );

  r.get(
    '/api/v1/community/feed/pinned',
    {
      schema: {
        tags,
        summary: 'Pinned posts, most recently pinned first (liked: see /community/feed)',
        querystring: CommunityPageQuery,
        response: { 200: Ok(PostPage), ...errors },
      },
      config: SHARED,
    },
    async (req, reply) => {
      shared(reply);
      return ok(await community.pinned(req.query.page));
    },
  );

  r.get(
    '/api/v1/community/user/profile/:id/timeline',
    {
      schema: {
        tags,
        summary: "A person's posts, newest first (their own with every state, for them)",
        params: IdParams,
        querystring: CommunityPageQuery,
        response: { 200: Ok(PostPage), ...errors },
      },
      config: VISITORS,
    },
    async (req, reply) => {
      if (req.viewer) personal(reply);
      else shared(reply);
      return ok(await community.timeline(req.params.id, req.viewer, req.query.page));
    },
  );

  r.get(
    '/api/v1/feed/list/',
    {
      schema: {
        tags,
        summary:
          "The reader's own feed: posts of the people they follow, and new episodes of the authors they follow and the stories they bookmarked, newest first",
        querystring: CommunityPageQuery,
        response: { 200: Ok(FeedPage), ...errors },
      },
      config: login,
    },
    async (req, reply) => {
      personal(reply);
      return ok(await inbox.personalFeed(requireViewer(req), req.query.page));
    },
  );

  /* Likes, shares and comments. */

  r.put(
    '/api/v1/community/post/like',
    {
      schema: {
        tags,
        summary: "Toggles the caller's like (or sets `liked`); answers the new state and count",
        body: LikeBody,
        response: { 200: Ok(LikeAnswer), ...errors },
      },
      config: login,
    },
    async (req) => ok(await community.like(requireViewer(req), req.body.post_id, req.body.liked)),
  );

  r.get(
    '/api/v1/community/post/liked',
    {
      schema: {
        tags,
        summary: 'Which of these posts (up to 50 ids, comma-separated) the caller likes',
        querystring: LikedQuery,
        response: { 200: Ok(LikedAnswer), ...errors },
      },
      config: login,
    },
    async (req, reply) => {
      personal(reply);
      const ids = req.query.post_id.split(',').map(Number);
      return ok(await community.liked(requireViewer(req), ids));
    },
  );

  r.post(
    '/api/v1/community/post/share',
    {
      schema: {
        tags,
        summary: 'Shares a post (post_id) or a story (storyId) with an optional line of text',
        body: ShareBody,
        response: { 200: Ok(PostAnswer), ...errors },
      },
      config: login,
    },
    async (req) => ok({ post: await community.share(requireViewer(req), req.body) }),
  );

  r.post(
    '/api/v1/community/post/comment',
    {
      schema: {
        tags,
        summary: 'Comments on a post; @mentions as in story comments',
        body: CommentCreateBody,
        response: { 200: Ok(PostCommentAnswer), ...errors },
      },
      config: login,
    },
    async (req) =>
      ok(await community.comment(requireViewer(req), req.body.post_id, req.body.comment)),
  );

  r.get(
    '/api/v1/community/post/comments',
    {
      schema: {
        tags,
        summary: "A post's comments, oldest first, with the viewer's followers for @mentions",
        querystring: PostCommentsQuery,
        response: { 200: Ok(PostCommentPage), ...errors },
      },
    },
    async (req, reply) => {
      personal(reply);
      return ok(await community.comments(req.query.post_id, req.viewer, req.query.page));
    },
  );

  /* Profiles, notifications, mentions. */

  r.get(
    '/api/v1/community/user/profile/:id',
    {
      schema: {
        tags,
        summary: "A person's profile: name, bio, picture, role, counts, whether the viewer follows",
        params: IdParams,
        response: { 200: Ok(CommunityProfile), ...errors },
      },
    },
    async (req, reply) => {
      // Whether the viewer follows is theirs: no shared cache may keep it.
      personal(reply);
      return ok(await community.profile(req.params.id, req.viewer));
    },
  );

  r.put(
    '/api/v1/community/user/profile',
    {
      schema: {
        tags,
        summary:
          "Sets one's own bio (the name is the username: PATCH /api/v1/user/change-username)",
        body: ProfileBody,
        response: { 200: Ok(CommunityProfile), ...errors },
      },
      config: login,
    },
    async (req) => ok(await community.setBio(requireViewer(req), req.body.bio)),
  );

  r.get(
    '/api/v1/community/user/notifications',
    {
      schema: {
        tags,
        summary:
          "The caller's community notifications (like, comment, mention, share, follow), newest first; page 1 marks them read",
        querystring: CommunityPageQuery,
        response: { 200: Ok(NotificationPage), ...errors },
      },
      config: login,
    },
    async (req, reply) => {
      personal(reply);
      return ok(await inbox.notifications(requireViewer(req), req.query.page));
    },
  );

  r.get(
    '/api/v1/community/user/mentions',
    {
      schema: {
        tags,
        summary: 'Where the caller was mentioned, newest first',
        querystring: CommunityPageQuery,
        response: { 200: Ok(MentionPage), ...errors },
      },
      config: login,
    },
    async (req, reply) => {
      personal(reply);
      return ok(await inbox.mentions(requireViewer(req), req.query.page));
    },
  );

  /* Images. */

  const form = { maxBytes: COMMUNITY.imageBytes, noun: 'picture' };
  await app.register(async (scope) => {
    await acceptUploads(scope, (e) => uploadError(e, form));
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      '/api/v1/community/image/upload/:a/:b',
      {
        schema: {
          tags,
          summary: 'Uploads a post image or a profile picture (multipart, field `image`)',
          description: IMAGES_FLOW,
          consumes: ['multipart/form-data'],
          params: ImageParams,
          response: { 200: Ok(ImageAnswer), ...errors, 413: ErrorBody, 415: ErrorBody },
        },
        config: { auth: 'required', rateLimit: { max: 30, timeWindow: '1 minute' } },
      },
      async (req) => {
        const viewer = requireViewer(req);
        // Who may add here is settled before a byte of the body is read.
        const target = await uploads.authorize(viewer, req.params.a, req.params.b);
        return ok(await uploads.upload(viewer, target, await readImage(req, form)));
      },
    );
  });

  r.delete(
    '/api/v1/community/image/:a/:b',
    {
      schema: {
        tags,
        summary: 'Removes a post image (`?imageId`) or one’s profile picture',
        params: ImageParams,
        querystring: ImageDeleteQuery,
        response: { 200: Ok(ImageRemoved), ...errors },
      },
      config: login,
    },
    async (req) => {
      const viewer = requireViewer(req);
      const target = await uploads.authorize(viewer, req.params.a, req.params.b);
      return ok(await uploads.remove(viewer, target, req.query.imageId));
    },
  );

  // Named by a hash of their bytes: a file under a name never changes.
  serveStoredImages(app, {
    prefix: '/images/community/',
    pattern: COMMUNITY_FILE_PATTERN,
    read: (file) => images.read(file),
    missing: 'There is no such picture.',
  });
}
