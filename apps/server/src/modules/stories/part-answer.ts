import type { DetailsView, SharedDetails } from './service.ts';

/** The part route's headers: one reader's text, kept by nobody. */
export const PART_HEADERS = {
  'cache-control': 'private, no-store',
  'content-type': 'application/json; charset=utf-8',
} as const;

// Keyed by the shared object itself: the stories service hands out the same one until a row
// under it changes, and then a new one, so a kept head is never stale.
const heads = new WeakMap<SharedDetails, Buffer>();

/**
 * The episode answer `{code: 0, object: {...shared, ...mine}}` as JSON.stringify writes it. The
 * shared part (story, episode text, author: kilobytes of mostly Sinhala) is written and encoded
 * once per version and kept; each reader's answer adds only their own few fields. Escaping and
 * encoding the text per read was the largest cost of a read from memory.
 */
export function partAnswerBody({ shared, mine }: DetailsView): Buffer {
  let head = heads.get(shared);
  if (!head) {
    const json = JSON.stringify({ code: 0, object: shared });
    // Without its closing "}}": the viewer's fields follow the shared ones, as in {...shared, ...mine}.
    heads.set(shared, (head = Buffer.from(json.slice(0, -2), 'utf8')));
  }
  const own = JSON.stringify(mine);
  const tail = own === '{}' ? '}}' : `,${own.slice(1)}}`;
  return Buffer.concat([head, Buffer.from(tail, 'utf8')]);
}
