import { describe, expect, it } from 'vitest';
import {
  afterEnd,
  chooseQuality,
  clock,
  firstTrack,
  megabytes,
  nextTrack,
  previousTrack,
  QUALITY_TYPES,
  seekTarget,
  shouldSendProgress,
  sleepDeadline,
  sleepDue,
  START_VOLUME,
  startAt,
  validSpeed,
} from './model.ts';

const track = (prefix: string | null, partNumber: number | null = null, positionSeconds = 0) => ({
  prefix,
  partNumber,
  positionSeconds,
  durationSeconds: 600,
});

describe('megabytes', () => {
  it('says what an episode costs with one decimal', () => {
    // 20 minutes of Opus at 24 kbps (3,000 bytes a second) and of AAC at 64 kbps, in MiB.
    expect(megabytes(20 * 60 * 3000)).toBe('3.4');
    expect(megabytes(20 * 60 * 8000)).toBe('9.2');
    expect(megabytes(5 * 1024 * 1024)).toBe('5.0');
  });

  it('never reads as free for a short track, and 0 for nothing', () => {
    expect(megabytes(2_000)).toBe('0.1');
    expect(megabytes(0)).toBe('0');
  });
});

describe('chooseQuality', () => {
  const all = () => true;
  it('is standard unless the browser or the reader asks to save data', () => {
    expect(chooseQuality({ stored: null, saveData: false, canPlay: all })).toBe('standard');
    expect(chooseQuality({ stored: null, saveData: true, canPlay: all })).toBe('saver');
  });

  it('keeps the reader’s own choice over the browser’s hint', () => {
    expect(chooseQuality({ stored: 'standard', saveData: true, canPlay: all })).toBe('standard');
    expect(chooseQuality({ stored: 'saver', saveData: false, canPlay: all })).toBe('saver');
  });

  it('takes saver (Opus) in a browser without AAC, whatever was chosen', () => {
    const noAac = (type: string) => type !== QUALITY_TYPES.standard;
    expect(chooseQuality({ stored: 'standard', saveData: false, canPlay: noAac })).toBe('saver');
  });

  it('takes standard in a browser without Opus', () => {
    const noOpus = (type: string) => type !== QUALITY_TYPES.saver;
    expect(chooseQuality({ stored: 'saver', saveData: true, canPlay: noOpus })).toBe('standard');
  });
});

describe('next and previous track', () => {
  const tracks = [track('a'), track(null), track('c'), track(null)];
  it('skips locked tracks and ends after the last one the viewer may hear', () => {
    expect(nextTrack(tracks, 0)).toBe(2);
    expect(nextTrack(tracks, 2)).toBeNull();
    expect(previousTrack(tracks, 2)).toBe(0);
    expect(previousTrack(tracks, 0)).toBeNull();
  });

  it('stops at the end of the track when the sleep timer says so', () => {
    expect(afterEnd(tracks, 0, null)).toBe(2);
    expect(afterEnd(tracks, 0, Date.now() + 60_000)).toBe(2);
    expect(afterEnd(tracks, 0, 'end')).toBeNull();
  });
});

describe('firstTrack', () => {
  it('starts with the part on screen, else an unfinished one, else the first open one', () => {
    const tracks = [track(null, 1), track('b', 2), track('c', 3, 120), track('d', 4)];
    expect(firstTrack(tracks, 4)).toBe(3);
    expect(firstTrack(tracks, 1)).toBe(2);
    expect(firstTrack([track('a', 1), track('b', 2)], 9)).toBe(0);
    expect(firstTrack([track(null)], 1)).toBeNull();
  });
});

describe('startAt and seekTarget', () => {
  it('resumes at the saved place, from the start when it was (nearly) finished', () => {
    expect(startAt(42, 600)).toBe(42);
    expect(startAt(599.5, 600)).toBe(0);
    expect(startAt(0, 600)).toBe(0);
  });

  it('keeps a 5 s seek inside the track', () => {
    expect(seekTarget(10, 5, 600)).toBe(15);
    expect(seekTarget(3, -5, 600)).toBe(0);
    expect(seekTarget(598, 5, 600)).toBe(600);
    expect(seekTarget(3, 5, NaN)).toBe(8);
  });
});

describe('speed and volume', () => {
  it('starts at volume 50 and accepts only the speeds offered', () => {
    expect(START_VOLUME).toBe(0.5);
    expect(validSpeed('1.5')).toBe(1.5);
    expect(validSpeed('3')).toBe(1);
    expect(validSpeed(null)).toBe(1);
  });
});

describe('sleep timer', () => {
  it('stops after the minutes chosen, or at the end of the track', () => {
    const now = 1_000_000;
    const in15 = sleepDeadline(15, now);
    expect(in15).toBe(now + 15 * 60_000);
    expect(sleepDue(in15, now + 14 * 60_000)).toBe(false);
    expect(sleepDue(in15, now + 15 * 60_000)).toBe(true);
    expect(sleepDeadline('end', now)).toBe('end');
    expect(sleepDue('end', now + 10 ** 9)).toBe(false);
    expect(sleepDeadline('off', now)).toBeNull();
  });
});

describe('shouldSendProgress', () => {
  it('sends the first place, then at most every 10 s and only when it moved', () => {
    expect(shouldSendProgress(null, 0, 0)).toBe(true);
    const last = { at: 0, position: 10 };
    expect(shouldSendProgress(last, 5_000, 15)).toBe(false);
    expect(shouldSendProgress(last, 10_000, 20)).toBe(true);
    expect(shouldSendProgress(last, 10_000, 10.5)).toBe(false);
  });
});

describe('clock', () => {
  it('shows minutes and seconds, hours when there are some', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(65.9)).toBe('1:05');
    expect(clock(3725)).toBe('1:02:05');
    expect(clock(NaN)).toBe('0:00');
  });
});
