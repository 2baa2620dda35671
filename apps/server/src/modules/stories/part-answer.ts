import type { FastifyReply, FastifyRequest } from 'fastify';
import { compress, encodingForBody, type Encoding } from '../../plugins/response-cache.ts';
import type { DetailsView, SharedDetails } from './service.ts';

/** The part route's headers: one reader's text, kept by nobody. */
const PART_HEADERS = {
  'cache-control': 'private, no-store',
  'content-type': 'application/json; charset=utf-8',
  vary: 'accept-encoding',
} as const;
const encodedHeaders = (encoding: Encoding) => ({ ...PART_HEADERS, 'content-encoding': encoding });
const ENCODED_HEADERS: Record<Encoding, Record<string, string>> = {
  br: encodedHeaders('br'),
  gzip: encodedHeaders('gzip'),
  deflate: encodedHeaders('deflate'),
};

/**
 * Sends an episode answer, compressed when the reader accepts it: a kept body (see
 * partAnswerBody) is compressed once, not on every page turn as @fastify/compress would (its
 * hook passes an answer that already has a content-encoding through).
 */
export function sendPart(request: FastifyRequest, reply: FastifyReply, body: Buffer): void {
  const encoding = encodingForBody(body.length, request.headers['accept-encoding']);
  if (!encoding) reply.headers(PART_HEADERS).send(body);
  else reply.headers(ENCODED_HEADERS[encoding]).send(compress(encoding, body));
}

/**
 * Whole answers kept per episode version: its two commonest kinds of reader (a member and a
 * visitor, say). Each is as large as the text, and the stories service keeps up to 5,000 parts,
 * so this bounds the memory at three times their texts (the head and two answers); a reader
 * with other fields gets an answer made from the head, as cheaply, but compressed anew.
 */
const BODIES_PER_VERSION = 2;

interface Kept {
  /** The shared part's JSON without its closing "}}", as UTF-8. */
  head: Buffer;
  /** Whole answers by the reader's own fields as JSON, oldest first. */
  bodies: Map<string, Buffer>;
}

// A reader's own fields as JSON, by the object the stories service keeps for them (frozen, and
// replaced when the reader's state changes): a page turn writes no JSON at all.
const ownJson = new WeakMap<object, string>();

// Keyed by the shared object itself: the stories service hands out the same one until a row
// under it changes, and then a new one, so what is kept here is never stale.
const kept = new WeakMap<SharedDetails, Kept>();

/**
 * The episode answer `{code: 0, object: {...shared, ...mine}}` as JSON.stringify writes it. The
 * shared part (story, episode text, author: kilobytes of mostly Sinhala) is written and encoded
 * once per version; so are the whole answers of its first two kinds of reader (the same Buffer
 * each time, so its compressed forms are kept by it).
 */
export function partAnswerBody({ shared, mine }: DetailsView): Buffer {
  let entry = kept.get(shared);
  if (!entry) {
    const json = JSON.stringify({ code: 0, object: shared });
    // Without its closing "}}": the viewer's fields follow the shared ones, as in {...shared, ...mine}.
    entry = { head: Buffer.from(json.slice(0, -2), 'utf8'), bodies: new Map() };
    kept.set(shared, entry);
  }
  let own = ownJson.get(mine);
  if (own === undefined) {
    own = JSON.stringify(mine);
    if (Object.isFrozen(mine)) ownJson.set(mine, own);
  }
  let body = entry.bodies.get(own);
  if (body) return body;
  const tail = own === '{}' ? '}}' : `,${own.slice(1)}}`;
  body = Buffer.concat([entry.head, Buffer.from(tail, 'utf8')]);
  if (entry.bodies.size < BODIES_PER_VERSION) entry.bodies.set(own, body);
  return body;
}
