import type { IncomingMessage } from 'node:http';
import type { FrontAnswer, FrontSource } from '../../plugins/front-lane.ts';
import { bearerOf, type ViewerResolver } from '../../plugins/auth.ts';
import type { StoriesService } from './service.ts';

/** `GET /api/v1/story/{id}/part/number/{n}` spelled plainly: no leading zeros, no query. */
const PART = /^\/api\/v1\/story\/([1-9]\d{0,9})\/part\/number\/([1-9]\d{0,5})\/?$/;
/** PartParams' bounds (packages/domain): beyond them the route answers 400. */
const MAX_ID = 2_147_483_647;
const MAX_PART = 100_000;

/** The part route's headers (routes.ts): one reader's text, kept by nobody. */
const PART_HEADERS = {
  'cache-control': 'private, no-store',
  'content-type': 'application/json; charset=utf-8',
} as const;

/** Stands in for an episode's text while the rest of its answer is written (NUL: no stored text has it). */
const TEXT_MARK = '\u0000kathamala-text\u0000';
const MARK_JSON = JSON.stringify(TEXT_MARK);
/** Texts shorter than this are written with the rest of the answer. */
const SPLICE_MIN = 1024;
const TEXTS_KEPT = 1_000;

/**
 * Writes a part answer as JSON.stringify would, with the episode's text as UTF-8 JSON made once
 * per text: the readers of one episode share the same string (kept in the stories service), and
 * escaping and encoding its few kilobytes was the largest cost of the read left.
 */
export function partAnswerBody(object: { part: { content?: string } }): Buffer {
  const text = object.part.content;
  if (text === undefined || text.length < SPLICE_MIN)
    return Buffer.from(JSON.stringify({ code: 0, object }), 'utf8');
  let bytes = texts.get(text);
  if (!bytes) {
    if (texts.size >= TEXTS_KEPT) texts.clear();
    texts.set(text, (bytes = Buffer.from(JSON.stringify(text), 'utf8')));
  }
  const json = JSON.stringify({
    code: 0,
    object: { ...object, part: { ...object.part, content: TEXT_MARK } },
  });
  const at = json.indexOf(MARK_JSON);
  return Buffer.concat([
    Buffer.from(json.slice(0, at), 'utf8'),
    bytes,
    Buffer.from(json.slice(at + MARK_JSON.length), 'utf8'),
  ]);
}
// Keyed by the text itself: the same string object each time, whose hash V8 keeps.
const texts = new Map<string, Buffer>();

/**
 * The front lane's episode read: a reader with a valid token reading a part they may read gets
 * the part route's answer from memory (session, story, access and text are all kept there).
 * A missing or bad token, a wall, an unknown story or part and any odd spelling of the address
 * go to Fastify, whose route gives the exact refusal.
 */
export function partFrontSource(auth: ViewerResolver, stories: StoriesService): FrontSource {
  const read = async (id: number, n: number, token: string): Promise<FrontAnswer | null> => {
    const viewer = await auth.viewerFromToken(token);
    if (!viewer) return null;
    let object;
    try {
      object = await stories.part(id, n, viewer);
    } catch {
      return null; // a refusal: the route words it
    }
    return { status: 200, headers: PART_HEADERS, body: partAnswerBody(object) };
  };
  return (req: IncomingMessage, url: string) => {
    const match = PART.exec(url);
    if (!match) return null;
    const id = Number(match[1]);
    const n = Number(match[2]);
    const token = bearerOf(req.headers.authorization);
    if (id > MAX_ID || n > MAX_PART || !token) return null;
    return read(id, n, token);
  };
}
