import type { IncomingMessage } from 'node:http';
import type { FrontAnswer, FrontSource } from '../../plugins/front-lane.ts';
import { bearerOf, type ViewerResolver } from '../../plugins/auth.ts';
import { PART_HEADERS, partAnswerBody } from './part-answer.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { DetailsView, StoriesService } from './service.ts';

/** `GET /api/v1/story/{id}/part/number/{n}` spelled plainly: no leading zeros, no query. */
const PART = /^\/api\/v1\/story\/([1-9]\d{0,9})\/part\/number\/([1-9]\d{0,5})\/?$/;
/** PartParams' bounds (packages/domain): beyond them the route answers 400. */
const MAX_ID = 2_147_483_647;
const MAX_PART = 100_000;

/** What the front source needs of the auth service: the viewer, from memory when it is there. */
export interface FrontViewers extends ViewerResolver {
  keptViewer(token: string): Viewer | undefined;
}

const answerOf = (view: DetailsView): FrontAnswer => ({
  status: 200,
  headers: PART_HEADERS,
  body: partAnswerBody(view),
});

async function readPart(
  auth: ViewerResolver,
  stories: StoriesService,
  id: number,
  n: number,
  token: string,
): Promise<FrontAnswer | null> {
  const viewer = await auth.viewerFromToken(token);
  if (!viewer) return null;
  let view;
  try {
    view = await stories.partView(id, n, viewer);
  } catch {
    return null; // a refusal: the route words it
  }
  return answerOf(view);
}

/**
 * The front lane's episode read: a reader with a valid token reading a part they may read gets
 * the part route's answer from memory (session, story, access and text are all kept there),
 * at once when all of it is already there.
 * A missing or bad token, a wall, an unknown story or part and any odd spelling of the address
 * go to Fastify, whose route gives the exact refusal.
 */
export function partFrontSource(auth: FrontViewers, stories: StoriesService): FrontSource {
  return (req: IncomingMessage, url: string) => {
    const match = PART.exec(url);
    if (!match) return null;
    const id = Number(match[1]);
    const n = Number(match[2]);
    const token = bearerOf(req.headers.authorization);
    if (id > MAX_ID || n > MAX_PART || !token) return null;
    // All in memory (the usual case for a reader turning pages): answered in this turn. A
    // refusal throws, and the lane leaves the request to Fastify.
    const viewer = auth.keptViewer(token);
    const kept = viewer && stories.keptPartView(id, n, viewer);
    if (kept) return answerOf(kept);
    return readPart(auth, stories, id, n, token);
  };
}
