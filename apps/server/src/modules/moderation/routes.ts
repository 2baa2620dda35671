import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  DecideCommentBody,
  DecidePostBody,
  DecidePostCommentBody,
  DecideProfileBody,
  DecisionAnswer,
  ErrorBody,
  FlagAnswer,
  FlagPostBody,
  FlagProfileBody,
  Ok,
  ReviewPage,
  ReviewPageQuery,
  ReviewWordAnswer,
  ReviewWordBody,
  ReviewWordList,
  ReviewWordParams,
  ReviewWordRemoved,
  reviewPaths,
  type Decision,
  type ReviewKind,
} from '@kathamala/domain';
import { requireViewer } from '../../plugins/auth.ts';
import { requireRole } from '../community/roles.ts';
import type { ModerationService } from './service.ts';

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  429: ErrorBody,
};
const tags = ['review'];
const loggedIn = { auth: 'required' } as const;
const editors = (req: FastifyRequest) => requireRole(req, 'editor');
const privateAnswer = { 'cache-control': 'private, no-store' };

/**
 * The editors' review (SPEC.md 7; issue 28): anyone logged in flags; editors and admins read
 * the queue, decide and keep the word list (readers get 403, visitors 401).
 */
export function moderationRoutes(app: FastifyInstance, review: ModerationService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.put(
    reviewPaths.flagPost(),
    {
      schema: {
        tags,
        summary: 'Flag a post for the editors, with a reason (one flag per person and post)',
        body: FlagPostBody,
        response: { 200: Ok(FlagAnswer), ...errors },
      },
      config: loggedIn,
    },
    async (req) => ({
      code: 0 as const,
      object: await review.flagPost(requireViewer(req), req.body.post_id, req.body.reason),
    }),
  );

  r.post(
    reviewPaths.flagProfile(),
    {
      schema: {
        tags,
        summary: "Flag a person's profile for the editors, with a reason",
        body: FlagProfileBody,
        response: { 200: Ok(FlagAnswer), ...errors },
      },
      config: loggedIn,
    },
    async (req) => ({
      code: 0 as const,
      object: await review.flagProfile(requireViewer(req), req.body.id, req.body.reason),
    }),
  );

  r.get(
    '/api/v1/community/reviews',
    {
      schema: {
        tags,
        summary: 'The review queue (editors): held and flagged items, oldest first',
        querystring: ReviewPageQuery,
        response: { 200: Ok(ReviewPage), ...errors },
      },
      config: loggedIn,
    },
    async (req, reply) => {
      await editors(req);
      reply.headers(privateAnswer);
      return { code: 0 as const, object: await review.queue(req.query.page) };
    },
  );

  const decision = (
    method: 'post' | 'put',
    url: string,
    kind: ReviewKind,
    body:
      | typeof DecidePostBody
      | typeof DecideProfileBody
      | typeof DecideCommentBody
      | typeof DecidePostCommentBody,
    idOf: (b: Record<string, unknown>) => number,
    summary: string,
  ) =>
    r.route({
      method: method.toUpperCase() as 'POST' | 'PUT',
      url,
      schema: { tags, summary, body, response: { 200: Ok(DecisionAnswer), ...errors } },
      config: loggedIn,
      handler: async (req) => {
        const editor = await editors(req);
        const b = req.body as { decision: Decision; reason?: string } & Record<string, unknown>;
        return {
          code: 0 as const,
          object: await review.decide(editor, kind, idOf(b), b.decision, b.reason),
        };
      },
    });

  decision(
    'post',
    reviewPaths.decidePost(),
    'post',
    DecidePostBody,
    (b) => b.post_id as number,
    'Decide on a post in the queue (editors): approve, reject or ignore',
  );
  decision(
    'put',
    reviewPaths.decideProfile(),
    'profile',
    DecideProfileBody,
    (b) => b.id as number,
    'Decide on a flagged profile (editors); a rejected profile loses its bio and picture',
  );
  decision(
    'post',
    reviewPaths.decideComment(),
    'comment',
    DecideCommentBody,
    (b) => b.commentId as number,
    'Decide on a reported story comment (editors); a rejected one shows to its writer only',
  );
  decision(
    'post',
    reviewPaths.decidePostComment(),
    'post_comment',
    DecidePostCommentBody,
    (b) => b.id as number,
    'Decide on a held or flagged comment on a post (editors)',
  );

  r.get(
    reviewPaths.words(),
    {
      schema: {
        tags,
        summary: 'The kept word list (editors)',
        response: { 200: Ok(ReviewWordList), ...errors },
      },
      config: loggedIn,
    },
    async (req, reply) => {
      await editors(req);
      reply.headers(privateAnswer);
      return { code: 0 as const, object: await review.words() };
    },
  );

  r.post(
    reviewPaths.words(),
    {
      schema: {
        tags,
        summary:
          'Add a word (editors): posts and comments with it, in Sinhala script with or without ZWJ or in Singlish, wait for review',
        body: ReviewWordBody,
        response: { 200: Ok(ReviewWordAnswer), ...errors },
      },
      config: loggedIn,
    },
    async (req) => {
      const editor = await editors(req);
      return { code: 0 as const, object: await review.addWord(editor, req.body.word) };
    },
  );

  r.delete(
    '/api/v1/community/review/words/:id',
    {
      schema: {
        tags,
        summary: 'Remove a word from the list (editors)',
        params: ReviewWordParams,
        response: { 200: Ok(ReviewWordRemoved), ...errors },
      },
      config: loggedIn,
    },
    async (req) => {
      const editor = await editors(req);
      return { code: 0 as const, object: await review.removeWord(editor, req.params.id) };
    },
  );
}
