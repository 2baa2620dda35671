import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  Badges,
  ContestStandings,
  EntryAnswer,
  EntryBody,
  JudgeBody,
  CampaignDetail,
  CampaignList,
  ErrorBody,
  IdParam,
  ManageAnswer,
  ManageBody,
  ManagedCampaign,
  ManagedList,
  Ok,
  ParticipationAnswer,
  ParticipationBody,
  Questioner,
  ResponseAnswer,
  ResponseBody,
  ResultCode,
  campaignPaths as paths,
} from '@kathamala/domain';
import { requireViewer } from '../../plugins/auth.ts';
import { requireRole } from '../community/roles.ts';
import type { CampaignsService } from './service.ts';
import type { ContestService } from './contest-service.ts';
import { REPORT_SIMULATOR_PATH, SIMULATED_REPORTS } from './report.ts';
import { acceptUploads, readImage, serveStoredImages, uploadError } from '../covers/routes.ts';
import { BANNER_FILE_PATTERN, BANNER_LIMITS, type CampaignBanners } from './banner.ts';

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  410: ErrorBody,
  429: ErrorBody,
  503: ErrorBody,
};
const Params = Type.Object({ id: IdParam });
const loggedIn = { auth: 'required' } as const;
const privateAnswer = (reply: FastifyReply) => reply.header('cache-control', 'private, no-store');

/** The campaign calls of SPEC.md 7 and the editors' calls (issue 30). */
export function campaignRoutes(app: FastifyInstance, campaigns: CampaignsService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['campaigns'];

  r.get(
    paths.list(),
    { schema: { tags, response: { 200: Ok(CampaignList), ...errors } } },
    async () => ({
      code: 0 as const,
      object: await campaigns.list(),
    }),
  );

  r.get(
    paths.detail(),
    { schema: { tags, params: Params, response: { 200: Ok(CampaignDetail), ...errors } } },
    async (req) => ({ code: 0 as const, object: await campaigns.detail(req.params.id) }),
  );

  r.post(
    paths.manage(),
    {
      schema: { tags, body: ManageBody, response: { 200: Ok(ManageAnswer), ...errors } },
      config: loggedIn,
    },
    async (req, reply) => {
      const editor = await requireRole(req, 'editor');
      privateAnswer(reply);
      return { code: 0 as const, object: await campaigns.manage(editor, req.body.campaign) };
    },
  );

  r.get(
    paths.manage(),
    { schema: { tags, response: { 200: Ok(ManagedList), ...errors } }, config: loggedIn },
    async (req, reply) => {
      await requireRole(req, 'editor');
      privateAnswer(reply);
      return { code: 0 as const, object: await campaigns.managedList() };
    },
  );

  r.get(
    paths.manageOne(),
    {
      schema: { tags, params: Params, response: { 200: Ok(ManagedCampaign), ...errors } },
      config: loggedIn,
    },
    async (req, reply) => {
      await requireRole(req, 'editor');
      privateAnswer(reply);
      return { code: 0 as const, object: await campaigns.managed(req.params.id) };
    },
  );

  r.get(
    paths.csv(),
    {
      schema: { tags, params: Params, response: { 200: Type.String(), ...errors } },
      config: loggedIn,
    },
    async (req, reply) => {
      await requireRole(req, 'editor');
      const { name, body } = await campaigns.csv(req.params.id);
      privateAnswer(reply);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(body);
    },
  );

  r.post(
    paths.report(),
    {
      schema: { tags, params: Params, response: { 200: Ok(ManageAnswer), ...errors } },
      config: loggedIn,
    },
    async (req, reply) => {
      await requireRole(req, 'editor');
      privateAnswer(reply);
      return { code: 0 as const, object: await campaigns.refetchReport(req.params.id) };
    },
  );

  r.post(
    paths.participation(),
    {
      schema: {
        tags,
        body: ParticipationBody,
        response: { 200: Ok(ParticipationAnswer), ...errors },
      },
      config: loggedIn,
    },
    async (req, reply) => {
      privateAnswer(reply);
      return {
        code: 0 as const,
        object: await campaigns.participate(requireViewer(req), req.body),
      };
    },
  );

  r.get(
    paths.questioner(),
    {
      schema: { tags, params: Params, response: { 200: Ok(Questioner), ...errors } },
      config: loggedIn,
    },
    async (req, reply) => {
      privateAnswer(reply);
      return { code: 0 as const, object: await campaigns.questioner(req.params.id) };
    },
  );

  r.post(
    paths.response(),
    {
      schema: { tags, body: ResponseBody, response: { 200: Ok(ResponseAnswer), ...errors } },
      config: loggedIn,
    },
    async (req, reply) => {
      privateAnswer(reply);
      return { code: 0 as const, object: await campaigns.respond(requireViewer(req), req.body) };
    },
  );
}

/** The contest calls: entries, the ranking (SPEC.md 7 stats/campaign), judging and badges. */
export function contestRoutes(app: FastifyInstance, contests: ContestService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['campaigns'];

  r.post(
    paths.entry(),
    {
      schema: {
        tags,
        params: Params,
        body: EntryBody,
        response: { 200: Ok(EntryAnswer), ...errors },
      },
      config: loggedIn,
    },
    async (req, reply) => {
      privateAnswer(reply);
      return {
        code: 0 as const,
        object: await contests.enter(requireViewer(req), req.params.id, req.body.storyId),
      };
    },
  );

  r.get(
    paths.stats(),
    { schema: { tags, params: Params, response: { 200: Ok(ContestStandings), ...errors } } },
    async (req, reply) => {
      // Live while the contest runs: never kept by a shared cache for long.
      reply.header('cache-control', 'public, max-age=30');
      return { code: 0 as const, object: await contests.standings(req.params.id) };
    },
  );

  r.post(
    paths.judge(),
    {
      schema: {
        tags,
        params: Params,
        body: JudgeBody,
        response: { 200: Ok(ManageAnswer), ...errors },
      },
      config: loggedIn,
    },
    async (req, reply) => {
      const editor = await requireRole(req, 'editor');
      privateAnswer(reply);
      return { code: 0 as const, object: await contests.judge(editor, req.params.id, req.body) };
    },
  );

  r.get(
    paths.badges(),
    { schema: { tags, params: Params, response: { 200: Ok(Badges), ...errors } } },
    async (req) => ({ code: 0 as const, object: await contests.badges(req.params.id) }),
  );
}

/**
 * The ad-metrics report simulator (development only): report shapes by name, and `redirect`,
 * which points off the allowed list.
 */
export function reportSimulatorRoutes(app: FastifyInstance) {
  app.get<{ Params: { shape: string } }>(
    `${REPORT_SIMULATOR_PATH}:shape`,
    { schema: { hide: true } },
    async (req, reply) => {
      const shape = req.params.shape.replace(/\.json$/, '');
      if (shape === 'redirect') return reply.redirect('http://127.0.0.1:9/report.json', 302);
      const body = SIMULATED_REPORTS[shape];
      if (!body)
        return reply
          .code(404)
          .send({ code: ResultCode.notFound, message: `No simulated report ${shape}.` });
      return reply.header('cache-control', 'no-store').send(body);
    },
  );
}

/** The banner upload (multipart, field `image`, editors) and the served banner files. */
export async function bannerRoutes(app: FastifyInstance, banners: CampaignBanners) {
  const form = { maxBytes: BANNER_LIMITS.maxBytes, noun: 'banner' };
  await app.register(async (scope) => {
    await acceptUploads(scope, (e) => uploadError(e, form));
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      paths.banner(),
      {
        schema: {
          tags: ['campaigns'],
          consumes: ['multipart/form-data'],
          params: Params,
          response: {
            200: Ok(Type.Object({ campaignId: Type.Integer(), bannerUrl: Type.String() })),
            ...errors,
            413: ErrorBody,
            415: ErrorBody,
          },
        },
        config: { auth: 'required', rateLimit: { max: 30, timeWindow: '1 minute' } },
      },
      async (req, reply) => {
        // Who may upload is settled before a byte of the body is read.
        const editor = await requireRole(req, 'editor');
        privateAnswer(reply);
        return {
          code: 0 as const,
          object: await banners.upload(editor, req.params.id, await readImage(req, form)),
        };
      },
    );
  });

  serveStoredImages(app, {
    prefix: '/images/campaigns/',
    pattern: BANNER_FILE_PATTERN,
    read: (file) => banners.read(file),
    missing: 'There is no such banner.',
  });
}
