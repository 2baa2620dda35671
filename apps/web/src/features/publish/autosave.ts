/**
 * The rules of the episode editor's saving, as plain functions: what it opens with, when it
 * saves by itself, what it sends on the way out. useEpisodeAutosave keeps the counters and the
 * timers and asks these; they read the clock only through the `now` they are given.
 */
import type { EpisodeInput, EpisodeStatus, OwnEpisode } from '@kathamala/domain';
import type { OwnEpisodeFull } from '../../api/authoring.ts';
import type { Translate } from '../../i18n/index.tsx';
import { shouldRestore, type LocalDraft } from './drafts.ts';
import { formatClock } from './when.ts';

/** Autosave: this long after the last keystroke, or at the latest this long after the first. */
export const AUTOSAVE_QUIET_MS = 2_000;
export const AUTOSAVE_MAX_WAIT_MS = 10_000;
/** After a save found no connection, the next autosave waits this long (or until online). */
export const RETRY_OFFLINE_MS = 5_000;
/** How often the autosave timer looks. */
export const TICK_MS = 1_000;
/** A new episode whose first save got no answer: a draft of the same title saved since is it. */
export const CREATE_MATCH_SLACK_MS = 60_000;

/** What the author edits. */
export interface Values {
  title: string;
  content: string;
  membersOnly: boolean;
}

/** Where the episode stands on the server, as the last answer said. */
export interface ServerState {
  episodeId: number | null;
  status: EpisodeStatus;
  partNumber: number | null;
  publishAt: string | null;
}

/** How saving goes, for the line beside the episode's status. */
export type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved'; at: number }
  | { kind: 'offline' }
  | { kind: 'failed'; message: string };

/**
 * Versions of the text: every edit adds one to `rev`; the rest say which version the server
 * has, which one must not go again, and when a save may go next.
 */
export interface SaveProgress {
  rev: number;
  /** The newest version the server confirmed. */
  savedRev: number;
  /** A version refused (by the checks or the server): autosave waits for the next edit. */
  blockedRev: number;
  /** The version sent while leaving the page, so it is sent once. */
  leaveSentRev: number;
  /** The version on opening: nothing typed since means nothing to save on closing. */
  revAtMount: number;
  /** When the author last typed (ms). */
  lastEditAt: number;
  /** When the oldest unsaved edit was made (ms); null when the server has everything. */
  dirtySince: number | null;
  /** No autosave before this time (ms): the last one found no connection. */
  retryAt: number;
  /** Saves on their way. */
  inFlight: number;
}

/** The counters on opening; a restored copy counts as one edit the server does not have. */
export function initialProgress(restored: boolean): SaveProgress {
  const rev = restored ? 1 : 0;
  return {
    rev,
    savedRev: 0,
    blockedRev: -1,
    leaveSentRev: -1,
    revAtMount: rev,
    lastEditAt: 0,
    dirtySince: restored ? 0 : null,
    retryAt: 0,
    inFlight: 0,
  };
}

/** The text the editor opens with, and the copy this browser kept (if any). */
export interface OpeningCopy {
  values: Values;
  /** The copy this browser kept is newer than the server's and is what the editor shows. */
  restored: boolean;
  local: LocalDraft | null;
}

/** A new episode's title until the author gives one, in the story's language (it is story text). */
export const defaultTitle = (lang: 'si' | 'en', n: number): string =>
  lang === 'si' ? `කොටස ${n}` : `Episode ${n}`;

/**
 * The text to start from: the server's, or this browser's copy when that is newer. A new
 * episode starts from the copy when there is one, else empty under `newTitle`.
 */
export function openingCopy(
  local: LocalDraft | null,
  initial: OwnEpisodeFull | null,
  newTitle: string,
): OpeningCopy {
  if (!initial) {
    const fresh: Values = { title: newTitle, content: '', membersOnly: false };
    return { values: local ?? fresh, restored: local !== null, local };
  }
  const serverCopy = {
    title: initial.title,
    content: initial.content,
    membersOnly: initial.membersOnly,
    updatedAt: initial.updatedAt,
  };
  const restore = shouldRestore(local, serverCopy);
  return { values: restore && local ? local : serverCopy, restored: restore, local };
}

/** Whether the autosave timer saves the draft now. */
export function autosaveDue(p: SaveProgress, status: EpisodeStatus, now: number): boolean {
  // Drafts only: edits of a scheduled or published episode go out when the author says so
  // (Save changes, Update), never half-written.
  if (status !== 'draft' || p.inFlight > 0) return false;
  if (p.rev === p.savedRev || p.rev === p.blockedRev) return false;
  if (now < p.retryAt) return false;
  const quiet = now - p.lastEditAt >= AUTOSAVE_QUIET_MS;
  const waited = p.dirtySince !== null && now - p.dirtySince >= AUTOSAVE_MAX_WAIT_MS;
  return quiet || waited;
}

/**
 * Whether leaving the page (tab hidden, closed, reloaded) sends the draft with a request that
 * outlives the page. A new episode is not created then: its answer could be lost and the copy
 * kept in this browser would create it a second time; the copy is enough until the next visit.
 */
export function sendOnLeave(p: SaveProgress, server: ServerState): boolean {
  if (server.status !== 'draft' || server.episodeId === null) return false;
  if (p.rev === p.savedRev || p.rev === p.leaveSentRev) return false;
  // A save on its way carries an older text and could land after this one: leave it, the
  // copy in this browser has the rest until the next visit.
  return p.inFlight === 0;
}

/** Whether closing the editor inside the app saves the draft on the way out. */
export const saveOnClose = (p: SaveProgress, status: EpisodeStatus): boolean =>
  status === 'draft' && p.rev !== p.savedRev && p.rev !== p.revAtMount;

/** Whether the browser should ask before the page goes: only when unsaved text has no copy. */
export const warnOnUnload = (p: SaveProgress, localOk: boolean): boolean =>
  !localOk && p.rev !== p.savedRev;

/** The episode as the save endpoint takes it; the time goes only with 'scheduled'. */
export const episodeInput = (
  storyId: number,
  episodeId: number | null,
  values: Values,
  status: EpisodeStatus,
  publishAt: string | null = null,
): EpisodeInput => ({
  ...(episodeId === null ? {} : { episodeId }),
  storyId,
  title: values.title.trim(),
  content: values.content,
  membersOnly: values.membersOnly,
  status,
  ...(status === 'scheduled' ? { publishAt } : {}),
});

/**
 * The episode a first save created although its answer never came: a draft of that title saved
 * since the save went out (`since`, ms, give or take the clocks).
 */
export const findLostCreate = (
  episodes: OwnEpisode[],
  title: string,
  since: number,
): OwnEpisode | undefined =>
  episodes.find(
    (e) =>
      e.status === 'draft' &&
      e.title === title.trim() &&
      Date.parse(e.updatedAt) >= since - CREATE_MATCH_SLACK_MS,
  );

/** The save line's words: what is saving or unsaved, and whether this browser keeps a copy. */
export function saveStateText(
  state: SaveState,
  dirty: boolean,
  status: EpisodeStatus,
  localOk: boolean,
  t: Translate,
): string {
  const device = localOk ? '' : ` ${t('publish.notKept')}`;
  if (state.kind === 'saving') return t('publish.saving');
  if (state.kind === 'offline') return t('publish.offline') + device;
  if (state.kind === 'failed') return t('publish.notSaved', { reason: state.message });
  if (dirty && status === 'published') return t('publish.pendingLive') + device;
  if (dirty && status === 'scheduled') return t('publish.pendingScheduled') + device;
  if (dirty) return t('publish.unsaved') + device;
  if (state.kind === 'saved') return t('publish.savedAt', { time: formatClock(state.at) });
  return t('publish.allSaved');
}
