import type {
  FastifyDynamicSwaggerOptions,
  SwaggerTransform,
  SwaggerTransformObject,
} from '@fastify/swagger';
import type { OpenAPIV3 } from 'openapi-types';
import { ErrorBody } from '@kathamala/domain';
import { PRESSURE_EXEMPT } from './pressure.ts';

/** The name of the bearer-token scheme in the document's components. */
export const BEARER = 'bearerAuth';

/** The document's tags, in the order the docs page lists them. */
const TAGS: Record<string, string> = {
  user: 'Accounts: sign-up, login, the session token and the username.',
  stories: 'Story lists, search, previews and parts.',
  engagement: 'Ratings, bookmarks, reading progress and views.',
  comments: 'Comments and replies on episodes.',
  community: 'The community: posts, feeds, likes, shares, comments, profiles, follows, roles.',
  review: "The editors' review: flags, the review queue, decisions and the kept word list.",
  audio: "Audio episodes: authors' tracks, streaming and listening positions.",
  campaigns: 'Campaigns: questionnaires, writing contests and their rankings.',
  author: 'Authors: registration, publishing, covers and statistics.',
  stats: 'Public statistics.',
  membership: 'Membership through the mobile carrier (subscribe by code, details, leave).',
  alerts: 'SMS alerts for new episodes.',
  notifications: 'In-app and Web Push notifications.',
  member: 'The mailing list.',
  carrier: 'Notifications from the mobile carrier, signed with the webhook secret.',
  site: 'Site files: categories, token keys, health.',
};

/** Readers' tokens: `Authorization: Bearer <token>`, the token login and sign-up answer. */
const bearerScheme: OpenAPIV3.HttpSecurityScheme = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'JWT',
  description:
    'The access token that sign-up, login and refresh answer (`accesstoken`), sent as `Authorization: Bearer <token>`.',
};

/** Calls that take no reader's token: site files, and the carrier's signed notifications. */
const tokenless = (url: string, tags: readonly string[] | undefined) =>
  !url.startsWith('/api/') || (tags ?? []).includes('carrier');

const error = (description: string) => ({ ...ErrorBody, description });

/** What the route's own words say about the token, for its description. */
const TOKEN_SAYS = {
  required: 'Needs a logged-in reader’s bearer token.',
  optional: 'A bearer token is optional: with one, the answer is the viewer’s own.',
  none: '',
} as const;

/** `get` + `/api/v1/story/comment/reply/:commentId/list/` → `getStoryCommentReplyList`. */
export const operationIdOf = (method: string, url: string): string => {
  const words = url
    .replace(/^\/api\/v\d+\//, '/')
    .split('/')
    .filter((segment) => segment && !segment.startsWith(':') && !segment.startsWith('*'))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
};

type RouteSchema = {
  hide?: boolean;
  tags?: string[];
  summary?: string;
  description?: string;
  operationId?: string;
  security?: Record<string, string[]>[];
  body?: unknown;
  response?: Record<string, unknown>;
};

/**
 * Fills each route's document entry from what the route already declares: an operationId from
 * its method and path, the bearer scheme from its `auth` config (required: the scheme; else
 * optional, except for site files and the carrier's webhook), a description saying so, and the
 * failures every route can answer besides its own: 400 (a bad address or input), 401 (a token
 * that has ended), 413/415 for a body, 429 (the rate limit, unless the route is exempt) and 503
 * (load shedding, plugins/pressure.ts). The route's own responses win. The document only: the
 * route's serializer never sees this.
 */
export const documentRoute: SwaggerTransform = ({ schema, url, route }) => {
  const own = (schema ?? {}) as RouteSchema;
  if (own.hide) return { schema, url };
  const method = [route.method].flat()[0] ?? 'GET';
  const config = (route.config ?? {}) as { auth?: string; rateLimit?: unknown };
  const token = tokenless(url, own.tags)
    ? 'none'
    : config.auth === 'required'
      ? 'required'
      : 'optional';
  const hasBody = own.body !== undefined;
  const failures: Record<string, unknown> = {
    400: error(
      'The request is not valid: the address, the query or a field (the message says which).',
    ),
    ...(token === 'none'
      ? {}
      : {
          401: error(
            token === 'required'
              ? 'No token, or the session has ended: log in again.'
              : 'The token sent has ended or is not valid: log in again, or call without one.',
          ),
        }),
    ...(hasBody
      ? {
          413: error('The request body is too large.'),
          415: error(
            'The body is not in the type this call takes (JSON unless it says otherwise).',
          ),
        }
      : {}),
    ...(config.rateLimit === false
      ? {}
      : { 429: error('Too many requests: wait the seconds Retry-After says and try again.') }),
    ...(PRESSURE_EXEMPT.test(url)
      ? {}
      : { 503: error('The server is busy: try again after the seconds Retry-After says.') }),
  };
  const documented: RouteSchema = {
    ...own,
    operationId: own.operationId ?? operationIdOf(method, url),
    description:
      own.description ?? ([own.summary, TOKEN_SAYS[token]].filter(Boolean).join(' ') || undefined),
    security:
      own.security ??
      (token === 'required'
        ? [{ [BEARER]: [] }]
        : token === 'optional'
          ? [{}, { [BEARER]: [] }]
          : []),
    response: { ...failures, ...own.response },
  };
  if (!documented.description) delete documented.description;
  return { schema: documented as typeof schema, url };
};

type Document = OpenAPIV3.Document;

/**
 * The whole document, once built: every tag a route uses is declared (with its sentence), and
 * operationIds stay unique (a second route of the same name gets its path parameters: ById).
 */
export const finishDocument: SwaggerTransformObject = (built) => {
  const doc = ('openapiObject' in built ? built.openapiObject : {}) as Document;
  const used = new Set<string>();
  const taken = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const op of Object.values(item ?? {}) as OpenAPIV3.OperationObject[]) {
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      for (const tag of op.tags ?? []) used.add(tag);
      if (!op.operationId) continue;
      let id = op.operationId;
      if (taken.has(id)) {
        const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
        id += params.map((p) => `By${p[0]!.toUpperCase()}${p.slice(1)}`).join('');
        for (let n = 2; taken.has(id); n++) id = `${op.operationId}${n}`;
        op.operationId = id;
      }
      taken.add(id);
    }
  }
  const declared = new Set((doc.tags ?? []).map((t) => t.name));
  doc.tags = [
    ...(doc.tags ?? []),
    ...[...used]
      .filter((name) => !declared.has(name))
      .map((name) => ({ name, description: TAGS[name] ?? name })),
  ];
  return doc;
};

/** @fastify/swagger's options: the API's description, the bearer scheme, and the two hooks above. */
export function openApiOptions(opts: { publicUrl: string }): FastifyDynamicSwaggerOptions {
  const site = new URL(opts.publicUrl);
  return {
    openapi: {
      info: {
        title: 'Kathamala API',
        version: '1.0.0',
        description:
          'Serialized Sinhala and English fiction. Every answer is `{code: 0, object}`; every failure `{code, message}` with a sentence a person understands.',
        contact: { name: 'Kathamala', url: site.origin },
      },
      servers: [{ url: site.origin, description: 'This server' }],
      components: { securitySchemes: { [BEARER]: bearerScheme } },
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    },
    transform: documentRoute,
    transformObject: finishDocument,
  };
}
