/**
 * The browser's copy of an episode being written. Every change is written here at once and
 * kept until the server has confirmed that exact version, so a reload, a closed tab or a lost
 * connection loses nothing. One key per story and episode ('new' before the server has one).
 */

const PREFIX = 'kathamala:draft:';

/** What the author has typed, and when, as this browser last saw it. */
export interface LocalDraft {
  title: string;
  content: string;
  membersOnly: boolean;
  /** When the author last changed it (this device's clock, ms). */
  editedAt: number;
  /** The server copy's updatedAt this draft was started from (null for a new episode). */
  baseUpdatedAt: string | null;
  /** Set while the first save of a new episode is on its way (ms): the answer may get lost. */
  creatingSince?: number;
}

export type EpisodeKey = number | 'new';

export const draftKey = (storyId: number, episode: EpisodeKey): string =>
  `${PREFIX}${storyId}:${episode}`;

const storage = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
};

const isDraft = (value: unknown): value is LocalDraft => {
  const d = value as LocalDraft | null;
  return (
    typeof d === 'object' &&
    d !== null &&
    typeof d.title === 'string' &&
    typeof d.content === 'string' &&
    typeof d.editedAt === 'number'
  );
};

/** The kept copy, or null (also when what is stored there is not a draft). */
export function readDraft(
  storyId: number,
  episode: EpisodeKey,
  store: Storage | null = storage(),
): LocalDraft | null {
  const raw = store?.getItem(draftKey(storyId, episode));
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!isDraft(parsed)) return null;
    return { ...parsed, membersOnly: parsed.membersOnly === true };
  } catch {
    return null;
  }
}

/**
 * Keeps a copy. Returns false when the browser refused it (storage full or blocked): the page
 * then says that the text lives only in the page until the server has it.
 */
export function writeDraft(
  storyId: number,
  episode: EpisodeKey,
  draft: LocalDraft,
  store: Storage | null = storage(),
): boolean {
  if (!store) return false;
  try {
    store.setItem(draftKey(storyId, episode), JSON.stringify(draft));
    return true;
  } catch {
    return false;
  }
}

export function removeDraft(
  storyId: number,
  episode: EpisodeKey,
  store: Storage | null = storage(),
): void {
  try {
    store?.removeItem(draftKey(storyId, episode));
  } catch {
    // Nothing to do: a copy that cannot be removed is offered again and can be discarded.
  }
}

/** The episode as the server has it, for comparing with the kept copy. */
export interface ServerCopy {
  title: string;
  content: string;
  membersOnly: boolean;
  updatedAt: string;
}

/** True when the copy says something the server copy does not. */
export const differs = (draft: LocalDraft, server: ServerCopy): boolean =>
  draft.title !== server.title ||
  draft.content !== server.content ||
  draft.membersOnly !== server.membersOnly;

/**
 * Whether the kept copy should replace the server's on opening the episode: only when it
 * differs and is newer. If the server copy has not changed since the copy was started from
 * it, the copy is newer whatever the clocks say; otherwise the clocks decide.
 */
export function shouldRestore(draft: LocalDraft | null, server: ServerCopy): boolean {
  if (!draft || !differs(draft, server)) return false;
  if (draft.baseUpdatedAt !== null && draft.baseUpdatedAt === server.updatedAt) return true;
  const serverTime = Date.parse(server.updatedAt);
  return Number.isNaN(serverTime) || draft.editedAt > serverTime;
}

/** Moves the copy of a new episode under the id the server gave it. */
export function adoptNewDraft(
  storyId: number,
  episodeId: number,
  draft: LocalDraft,
  store: Storage | null = storage(),
): void {
  const { creatingSince: _creating, ...kept } = draft;
  writeDraft(storyId, episodeId, kept, store);
  removeDraft(storyId, 'new', store);
}
