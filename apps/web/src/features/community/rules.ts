import {
  COMMUNITY,
  mentionParts,
  type FeedPage,
  type MentionCandidate,
  type Post,
  type PostPage,
} from '@kathamala/domain';

/** The image types a post or profile picture may be (the server judges the bytes again). */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** Why a chosen file is not taken. */
export type ImageRefusal =
  | { kind: 'tooMany'; max: number }
  | { kind: 'notImage'; name: string }
  | { kind: 'tooBig'; name: string; mb: number };

/**
 * Which chosen files a post takes: images of an allowed type and size, up to the post's limit
 * counting those already chosen; each file left out says why (once for "too many").
 */
export function pickImages<F extends { name: string; type: string; size: number }>(
  already: number,
  files: readonly F[],
  max: number = COMMUNITY.imagesPerPost,
): { taken: F[]; refused: ImageRefusal[] } {
  const taken: F[] = [];
  const refused: ImageRefusal[] = [];
  let tooMany = false;
  for (const file of files) {
    if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) {
      refused.push({ kind: 'notImage', name: file.name });
    } else if (file.size > COMMUNITY.imageBytes) {
      refused.push({ kind: 'tooBig', name: file.name, mb: COMMUNITY.imageBytes / 1024 / 1024 });
    } else if (already + taken.length >= max) {
      tooMany = true;
    } else {
      taken.push(file);
    }
  }
  if (tooMany) refused.unshift({ kind: 'tooMany', max });
  return { taken, refused };
}

/** Characters as a post's limit counts them (code points, ZWJ included). */
export const postChars = (text: string): number => Array.from(text.trim().normalize('NFC')).length;

/** A post may go when it has text or images, and its text is within the limit. */
export const canSendPost = (text: string, images: number): boolean => {
  const n = postChars(text);
  return (n > 0 || images > 0) && n <= COMMUNITY.postChars;
};

/** A like as the page shows it. */
export interface LikeState {
  liked: boolean;
  likes: number;
}

/** The state shown at once when the viewer taps Like (optimistic; the server's answer follows). */
export const flipLike = (s: LikeState): LikeState => ({
  liked: !s.liked,
  likes: Math.max(0, s.likes + (s.liked ? -1 : 1)),
});

/**
 * A tap on Like: the flipped state is shown at once, then the server's answer; when the server
 * refuses (or cannot be reached) the state before the tap comes back. Resolves with the error,
 * or null when the like was kept.
 */
export async function likeOptimistically(
  before: LikeState,
  send: (liked: boolean) => Promise<LikeState>,
  show: (state: LikeState) => void,
): Promise<unknown> {
  const next = flipLike(before);
  show(next);
  try {
    const answer = await send(next.liked);
    show({ liked: answer.liked, likes: answer.likes });
    return null;
  } catch (error) {
    show(before);
    return error;
  }
}

/** One item of a feed page: a post, or (in Following) a new episode. */
export type FeedEntry = FeedPage['list'][number];

/** The entries of any feed tab's page, as one list (Everyone and Pinned carry posts only). */
export const feedEntries = (answer: PostPage | FeedPage): FeedEntry[] =>
  answer.list.map((item) =>
    'kind' in item && (item.kind === 'post' || item.kind === 'episode')
      ? (item as FeedEntry)
      : { kind: 'post', post: item as Post },
  );

/** A piece of a post's text: plain text, a link, or a mention of someone. */
export type TextPart =
  | { kind: 'text'; text: string }
  | { kind: 'link'; text: string; href: string }
  | { kind: 'mention'; text: string; userId: number };

// Addresses written in a post: http(s) only, never javascript: or data:. A trailing full stop,
// comma or closing bracket belongs to the sentence, not the address.
const URL_RE = /\bhttps?:\/\/[^\s<>"]+/gi;
const TRAILING = /[.,;:!?)\]}'"’”]+$/;

/** Cuts plain text at the http(s) addresses in it. */
export function linkParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const m of text.matchAll(URL_RE)) {
    const raw = m[0];
    const href = raw.replace(TRAILING, '');
    const start = m.index;
    if (start > at) parts.push({ kind: 'text', text: text.slice(at, start) });
    let ok: boolean;
    try {
      ok = ['http:', 'https:'].includes(new URL(href).protocol);
    } catch {
      ok = false;
    }
    parts.push(ok ? { kind: 'link', text: href, href } : { kind: 'text', text: href });
    at = start + href.length;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  return parts;
}

/**
 * A post's or comment's text as parts to render: the names the server says it mentions become
 * mentions, http(s) addresses become links, the rest stays text. Nothing is ever read as markup.
 */
export function textParts(text: string, mentions: readonly MentionCandidate[]): TextPart[] {
  const out: TextPart[] = [];
  for (const part of mentionParts(text, mentions)) {
    if (part.userId !== undefined)
      out.push({ kind: 'mention', text: part.text, userId: part.userId });
    else out.push(...linkParts(part.text));
  }
  return out.filter((p) => p.text !== '');
}
