import type { IncomingMessage } from 'node:http';
import type { FrontAnswer, FrontSource } from '../../plugins/front-lane.ts';
import { bearerOf, type ViewerResolver } from '../../plugins/auth.ts';
import { PART_HEADERS, partAnswerBody } from './part-answer.ts';
import type { StoriesService } from './service.ts';

/** `GET /api/v1/story/{id}/part/number/{n}` spelled plainly: no leading zeros, no query. */
const PART = /^\/api\/v1\/story\/([1-9]\d{0,9})\/part\/number\/([1-9]\d{0,5})\/?$/;
/** PartParams' bounds (packages/domain): beyond them the route answers 400. */
const MAX_ID = 2_147_483_647;
const MAX_PART = 100_000;

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
  return { status: 200, headers: PART_HEADERS, body: partAnswerBody(view) };
}

/**
 * The front lane's episode read: a reader with a valid token reading a part they may read gets
 * the part route's answer from memory (session, story, access and text are all kept there).
 * A missing or bad token, a wall, an unknown story or part and any odd spelling of the address
 * go to Fastify, whose route gives the exact refusal.
 */
export function partFrontSource(auth: ViewerResolver, stories: StoriesService): FrontSource {
  return (req: IncomingMessage, url: string) => {
    const match = PART.exec(url);
    if (!match) return null;
    const id = Number(match[1]);
    const n = Number(match[2]);
    const token = bearerOf(req.headers.authorization);
    if (id > MAX_ID || n > MAX_PART || !token) return null;
    return readPart(auth, stories, id, n, token);
  };
}
