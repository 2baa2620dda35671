// The player's rules, apart from the page: which quality, which track next, what an episode
// costs in MB, when the sleep timer stops, when progress goes to the server. Pure functions,
// so the unit tests run them without a browser.
import {
  AUDIO_DEFAULT_VOLUME,
  AUDIO_SEEK_STEP_S,
  type AudioBook,
  type AudioQuality,
} from '@kathamala/domain';

/** The starting volume, 0..1 (SPEC.md 9: volume 50). */
export const START_VOLUME = AUDIO_DEFAULT_VOLUME / 100;
/** Seconds one press of back or forward moves (SPEC.md 9). */
export const SEEK_STEP = AUDIO_SEEK_STEP_S;
/** Playback speeds offered, slowest first; 1 is the default. */
export const SPEEDS = [0.75, 1, 1.25, 1.5, 1.75, 2] as const;
/** How often the listening place goes to the server while playing (the page shows it each second). */
export const PROGRESS_SEND_MS = 10_000;
/** Sleep timer choices: off, at the end of the track, or after so many minutes. */
export const SLEEP_CHOICES = ['off', 'end', 15, 30, 60] as const;
export type SleepChoice = (typeof SLEEP_CHOICES)[number];

/** The browser's MIME type of each rendition (AAC-LC in M4A, Opus in WebM). */
export const QUALITY_TYPES: Record<AudioQuality, string> = {
  standard: 'audio/mp4; codecs="mp4a.40.2"',
  saver: 'audio/webm; codecs="opus"',
};

/** The stream address of a track's rendition (SPEC.md 7). */
export const streamUrl = (prefix: string, quality: AudioQuality): string =>
  `/api/v1/audio/stream/${encodeURIComponent(prefix)}?quality=${quality}`;

/** Bytes as megabytes with one decimal ("4.2"); below 0.1 MB says "0.1" so it never reads free. */
export const megabytes = (bytes: number): string =>
  bytes <= 0 ? '0' : Math.max(0.1, Math.round(bytes / 104_857.6) / 10).toFixed(1);

/** What the browser can play: `canPlay` answers canPlayType for a MIME type. */
export type CanPlay = (type: string) => boolean;

/**
 * The quality to stream. A browser that cannot play AAC gets `saver`; otherwise the reader's own
 * choice when they made one; otherwise `saver` when the browser asks to save data, else standard.
 */
export function chooseQuality(opts: {
  stored: AudioQuality | null;
  saveData: boolean;
  canPlay: CanPlay;
}): AudioQuality {
  if (!opts.canPlay(QUALITY_TYPES.standard)) return 'saver';
  if (!opts.canPlay(QUALITY_TYPES.saver)) return 'standard';
  return opts.stored ?? (opts.saveData ? 'saver' : 'standard');
}

/** A track the viewer may hear (a members-only track for a non-member has no prefix). */
export const playable = (track: Pick<AudioBook, 'prefix'>): boolean => track.prefix !== null;

/** The index of the next track the viewer may hear after `from`, or null at the end. */
export function nextTrack(tracks: Pick<AudioBook, 'prefix'>[], from: number): number | null {
  for (let i = from + 1; i < tracks.length; i++) if (playable(tracks[i]!)) return i;
  return null;
}

/** The index of the track before `from` the viewer may hear, or null at the start. */
export function previousTrack(tracks: Pick<AudioBook, 'prefix'>[], from: number): number | null {
  for (let i = from - 1; i >= 0; i--) if (playable(tracks[i]!)) return i;
  return null;
}

/**
 * The track to start with: the one narrating the part on screen when there is one, else the
 * first track the viewer left unfinished, else the first they may hear; null when none.
 */
export function firstTrack(
  tracks: Pick<AudioBook, 'prefix' | 'partNumber' | 'positionSeconds' | 'durationSeconds'>[],
  partNumber: number | null,
): number | null {
  const open = tracks.map((t, i) => ({ t, i })).filter(({ t }) => playable(t));
  const forPart = open.find(({ t }) => partNumber !== null && t.partNumber === partNumber);
  if (forPart) return forPart.i;
  const started = open.find(
    ({ t }) => t.positionSeconds > 0 && t.positionSeconds < t.durationSeconds - 1,
  );
  return (started ?? open[0])?.i ?? null;
}

/**
 * Where to start a track: its saved place, unless that is (nearly) its end, where a listener
 * who finished it would hear a second of nothing: then from the start.
 */
export const startAt = (positionSeconds: number, durationSeconds: number): number =>
  positionSeconds > 0 && positionSeconds < durationSeconds - 1 ? positionSeconds : 0;

/** A seek target kept inside the track. */
export const seekTarget = (current: number, delta: number, duration: number): number =>
  Math.min(
    Math.max(0, current + delta),
    Number.isFinite(duration) && duration > 0 ? duration : Infinity,
  );

/** A stored speed if it is one of ours, else 1. */
export const validSpeed = (raw: unknown): number => {
  const n = Number(raw);
  return (SPEEDS as readonly number[]).includes(n) ? n : 1;
};

/** When a sleep timer chosen at `now` stops playing: a time, 'end' (of the track), or null. */
export function sleepDeadline(choice: SleepChoice, now: number): number | 'end' | null {
  if (choice === 'off') return null;
  if (choice === 'end') return 'end';
  return now + choice * 60_000;
}

/** True when a sleep deadline has passed at `now` (the end-of-track timer stops on `ended`). */
export const sleepDue = (deadline: number | 'end' | null, now: number): boolean =>
  typeof deadline === 'number' && now >= deadline;

/** After a track ends: the next track to play, or null (end of the list, or the sleep timer). */
export const afterEnd = (
  tracks: Pick<AudioBook, 'prefix'>[],
  from: number,
  deadline: number | 'end' | null,
): number | null => (deadline === 'end' ? null : nextTrack(tracks, from));

/**
 * Whether to send the listening place now: while playing, at most every PROGRESS_SEND_MS and only
 * when it moved by a second or more since the last one sent.
 */
export const shouldSendProgress = (
  last: { at: number; position: number } | null,
  now: number,
  position: number,
): boolean =>
  last === null || (now - last.at >= PROGRESS_SEND_MS && Math.abs(position - last.position) >= 1);

/** m:ss or h:mm:ss of a number of seconds, for the time shown beside the bar. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
