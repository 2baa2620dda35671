/**
 * @mentions in comment text. Usernames may contain spaces ('Kasun Perera'), so a mention is not
 * simply the word after '@': it is the longest known name the text continues with. The server
 * resolves mentions with these rules when a comment is posted; the page uses the same rules for
 * suggestions while the reader types.
 */
import { ENGAGEMENT, LIMITS } from './constants.ts';

/** Someone who may be mentioned: the writer's followers and the people in the thread. */
export interface MentionCandidate {
  userId: number;
  username: string;
}

/** At most this many people are mentioned by one comment; the rest of the '@'s are plain text. */
export const MAX_MENTIONS = 10;

const JOINERS = /[\u200C\u200D]/;
/** A name ends where the text has a space, punctuation or a symbol next, or nothing at all. */
const NAME_END = /^(?:$|[\s\p{P}\p{S}])/u;
/** '@' starts a mention only at the start or after something that is not a letter (not an e-mail). */
const WORD_CHAR = /[\p{L}\p{M}\p{N}_\u200C\u200D]/u;

/** Case and zero-width joiners aside, as search compares names (`toSearchKey`). */
export const mentionKey = (name: string): string =>
  name
    .normalize('NFC')
    .replace(/[\u200C\u200D]/g, '')
    .toLowerCase()
    .trim();

/**
 * The text after an '@', folded like `mentionKey`, with where each folded character ends in the
 * original: a match of a folded name maps back to exactly the original characters it covers.
 */
const foldWithEnds = (text: string): { folded: string; ends: number[] } => {
  let folded = '';
  const ends: number[] = [0];
  let at = 0;
  for (const ch of text) {
    at += ch.length;
    if (JOINERS.test(ch)) {
      // A joiner belongs to the character before it.
      ends[folded.length] = at;
      continue;
    }
    const lower = ch.toLowerCase();
    folded += lower;
    for (let i = 0; i < lower.length; i++) ends.push(at);
  }
  return { folded, ends };
};

/** Where each mention may start: an '@' at the start of the text or after a non-letter. */
const mentionStarts = (text: string): number[] => {
  const starts: number[] = [];
  for (let i = text.indexOf('@'); i !== -1; i = text.indexOf('@', i + 1)) {
    const before = i === 0 ? '' : Array.from(text.slice(Math.max(0, i - 2), i)).pop()!;
    if (!before || !WORD_CHAR.test(before)) starts.push(i);
  }
  return starts;
};

/** The one-word name after an '@' (trailing punctuation left off), when no known name matched. */
const oneWord = (rest: string): string | null => {
  const word = /^[^\s@]+/u.exec(rest)?.[0].replace(/[\p{P}\p{S}]+$/u, '') ?? '';
  const n = Array.from(word).length;
  return n >= LIMITS.usernameMinChars && n <= LIMITS.usernameMaxChars ? word : null;
};

/**
 * Known names folded like `mentionKey`, each with its people; the keys longest first, so
 * 'Kasun Perera' wins over 'Kasun' for '@Kasun Perera'.
 */
const nameIndex = (candidates: readonly MentionCandidate[], exclude?: number) => {
  const byKey = new Map<string, number[]>();
  for (const c of candidates) {
    const key = mentionKey(c.username);
    if (!key || c.userId === exclude) continue;
    const ids = byKey.get(key) ?? [];
    if (!ids.includes(c.userId)) ids.push(c.userId);
    byKey.set(key, ids);
  }
  return { byKey, keys: [...byKey.keys()].sort((a, b) => b.length - a.length) };
};

/**
 * The known name an '@' at `start` mentions: the longest one the text continues with (case and
 * joiners aside) that ends at a space, punctuation or the end; with where the mention ends.
 */
const nameAt = (text: string, start: number, keys: readonly string[]) => {
  const rest = text.slice(start + 1, start + 1 + LIMITS.usernameMaxChars * 4);
  const { folded, ends } = foldWithEnds(rest);
  const key = keys.find((k) => folded.startsWith(k) && NAME_END.test(rest.slice(ends[k.length])));
  return { rest, match: key === undefined ? null : { key, end: start + 1 + ends[key.length]! } };
};

export interface ResolvedMentions {
  /** Candidates the text mentions, in the order they appear, each once. */
  userIds: number[];
  /** One-word names after an '@' that matched no candidate, each once (the server looks them up). */
  unresolved: string[];
}

/**
 * Who a comment mentions among the candidates: at each '@', the longest candidate username the
 * text continues with (case and joiners aside) and that ends at a space, punctuation or the end.
 * Candidates sharing that name are all mentioned. An '@' no candidate matches gives its one word
 * to `unresolved`. `exclude` (the writer) is never mentioned. At most MAX_MENTIONS in all.
 */
export function resolveMentions(
  text: string,
  candidates: readonly MentionCandidate[],
  exclude?: number,
): ResolvedMentions {
  const { byKey, keys } = nameIndex(candidates, exclude);
  const userIds: number[] = [];
  const unresolved: string[] = [];
  for (const start of mentionStarts(text)) {
    if (userIds.length + unresolved.length >= MAX_MENTIONS) break;
    const { rest, match } = nameAt(text, start, keys);
    if (match) {
      for (const id of byKey.get(match.key)!) if (!userIds.includes(id)) userIds.push(id);
      continue;
    }
    const word = oneWord(rest);
    if (word && !unresolved.some((w) => mentionKey(w) === mentionKey(word))) unresolved.push(word);
  }
  return { userIds: userIds.slice(0, MAX_MENTIONS), unresolved };
}

/** A piece of a comment's text: as written, or one '@name' that mentions `userId`. */
export type MentionPart = { text: string; userId?: undefined } | { text: string; userId: number };

/**
 * A posted comment's text cut at its mentions of `mentioned` (the people the server recorded),
 * found by the rules `resolveMentions` uses, so the page can show each one as a link to the
 * person. Pieces are text, never markup; joined, they are the text again.
 */
export function mentionParts(text: string, mentioned: readonly MentionCandidate[]): MentionPart[] {
  const { byKey, keys } = nameIndex(mentioned);
  const parts: MentionPart[] = [];
  let at = 0;
  for (const start of mentionStarts(text)) {
    if (start < at) continue;
    const { match } = nameAt(text, start, keys);
    if (!match) continue;
    if (start > at) parts.push({ text: text.slice(at, start) });
    parts.push({ text: text.slice(start, match.end), userId: byKey.get(match.key)![0]! });
    at = match.end;
  }
  if (at < text.length || parts.length === 0) parts.push({ text: text.slice(at) });
  return parts;
}

/** The mention being typed at the caret: where its '@' is and what follows it so far. */
export interface ActiveMention {
  /** Index of the '@' in the text. */
  start: number;
  /** What the reader typed after the '@' (may be empty, may contain spaces). */
  query: string;
}

/**
 * The mention the reader is typing at `caret`, or null: the nearest '@' before the caret that
 * may start a mention, with no line break and at most a username's length after it.
 */
export function activeMention(text: string, caret = text.length): ActiveMention | null {
  const head = text.slice(0, caret);
  const starts = mentionStarts(head);
  const start = starts[starts.length - 1];
  if (start === undefined) return null;
  const query = head.slice(start + 1);
  if (/[\n\r]/.test(query) || Array.from(query).length > LIMITS.usernameMaxChars) return null;
  return { start, query };
}

/**
 * Suggestions for a mention being typed: people whose name starts with the query first, then
 * those with a word starting with it, each person once, at most `max`. An empty query lists all.
 */
export function suggestMentions(
  query: string,
  people: readonly MentionCandidate[],
  opts: { exclude?: number; max?: number } = {},
): MentionCandidate[] {
  const q = mentionKey(query);
  const seen = new Set<number>();
  const starts: MentionCandidate[] = [];
  const words: MentionCandidate[] = [];
  for (const p of people) {
    if (p.userId === opts.exclude || seen.has(p.userId)) continue;
    const key = mentionKey(p.username);
    if (!key) continue;
    if (key.startsWith(q)) starts.push(p);
    else if (key.split(/\s+/).some((w) => w.startsWith(q))) words.push(p);
    else continue;
    seen.add(p.userId);
  }
  return [...starts, ...words].slice(0, opts.max ?? ENGAGEMENT.mentionSuggestions);
}

/**
 * Puts a chosen name in place of the mention being typed: '@' + username + a space. Answers the
 * new text and where the caret goes (after the space).
 */
export function insertMention(
  text: string,
  mention: ActiveMention,
  username: string,
): { text: string; caret: number } {
  const before = text.slice(0, mention.start);
  const after = text.slice(mention.start + 1 + mention.query.length).replace(/^ /, '');
  const inserted = `@${username} `;
  return { text: before + inserted + after, caret: before.length + inserted.length };
}
