import { describe, expect, it } from 'vitest';
import type { OwnEpisode } from '@kathamala/domain';
import type { OwnEpisodeFull } from '../../api/authoring.ts';
import { translator } from '../../i18n/index.tsx';
import {
  AUTOSAVE_MAX_WAIT_MS,
  AUTOSAVE_QUIET_MS,
  autosaveDue,
  CREATE_MATCH_SLACK_MS,
  defaultTitle,
  episodeInput,
  findLostCreate,
  initialProgress,
  openingCopy,
  saveOnClose,
  saveStateText,
  sendOnLeave,
  warnOnUnload,
  type SaveProgress,
  type ServerState,
} from './autosave.ts';
import type { LocalDraft } from './drafts.ts';

const t = translator('en');
const NOW = Date.parse('2026-11-22T10:00:00Z');

/** Counters after some typing that the server does not have yet. */
const typed = (over: Partial<SaveProgress> = {}): SaveProgress => ({
  ...initialProgress(false),
  rev: 3,
  savedRev: 1,
  lastEditAt: NOW - AUTOSAVE_QUIET_MS,
  dirtySince: NOW - AUTOSAVE_QUIET_MS,
  ...over,
});

const saved: ServerState = { episodeId: 12, status: 'draft', partNumber: null, publishAt: null };

const episode: OwnEpisodeFull = {
  episodeId: 12,
  storyId: 3,
  title: 'කොටස 2',
  status: 'draft',
  partNumber: null,
  membersOnly: false,
  publishAt: null,
  publishedAt: null,
  updatedAt: '2026-11-22T09:00:00.000Z',
  words: 1,
  content: '<p>අද</p>',
};

const local = (over: Partial<LocalDraft> = {}): LocalDraft => ({
  title: 'කොටස 2',
  content: '<p>අද උදේ</p>',
  membersOnly: false,
  editedAt: NOW,
  baseUpdatedAt: episode.updatedAt,
  ...over,
});

describe('openingCopy', () => {
  it("starts a new episode empty under the story's next title", () => {
    const open = openingCopy(null, null, defaultTitle('si', 4));
    expect(open.values).toEqual({ title: 'කොටස 4', content: '', membersOnly: false });
    expect(open.restored).toBe(false);
    expect(defaultTitle('en', 1)).toBe('Episode 1');
  });

  it("opens a new episode's kept copy as restored", () => {
    const copy = local({ baseUpdatedAt: null });
    const open = openingCopy(copy, null, 'Episode 1');
    expect(open.values).toBe(copy);
    expect(open.restored).toBe(true);
  });

  it("opens the server's text unless the kept copy is newer", () => {
    const newer = openingCopy(local(), episode, 'unused');
    expect(newer.restored).toBe(true);
    expect(newer.values.content).toBe('<p>අද උදේ</p>');

    const same = local({ content: episode.content });
    const stale = openingCopy(same, episode, 'unused');
    expect(stale.restored).toBe(false);
    expect(stale.values.content).toBe(episode.content);
    // The stale copy is handed back so the editor can remove it once.
    expect(stale.local).toBe(same);

    expect(openingCopy(null, episode, 'unused')).toMatchObject({ restored: false, local: null });
  });
});

describe('initialProgress', () => {
  it('counts a restored copy as one unsaved edit, due at once', () => {
    const p = initialProgress(true);
    expect(p).toMatchObject({ rev: 1, savedRev: 0, revAtMount: 1, dirtySince: 0 });
    expect(autosaveDue(p, 'draft', NOW)).toBe(true);
  });

  it('has nothing to save on a plain opening', () => {
    const p = initialProgress(false);
    expect(p).toMatchObject({ rev: 0, savedRev: 0, dirtySince: null });
    expect(autosaveDue(p, 'draft', NOW)).toBe(false);
  });
});

describe('autosaveDue', () => {
  it('saves a draft once typing has paused', () => {
    expect(autosaveDue(typed(), 'draft', NOW)).toBe(true);
    expect(autosaveDue(typed({ lastEditAt: NOW - AUTOSAVE_QUIET_MS + 1 }), 'draft', NOW)).toBe(
      false,
    );
  });

  it('saves during long typing at the latest after the longest wait', () => {
    const busy = typed({ lastEditAt: NOW - 100, dirtySince: NOW - AUTOSAVE_MAX_WAIT_MS });
    expect(autosaveDue(busy, 'draft', NOW)).toBe(true);
    expect(autosaveDue({ ...busy, dirtySince: NOW - 100 }, 'draft', NOW)).toBe(false);
  });

  it('never saves a scheduled or published episode by itself', () => {
    expect(autosaveDue(typed(), 'scheduled', NOW)).toBe(false);
    expect(autosaveDue(typed(), 'published', NOW)).toBe(false);
  });

  it('waits while a save is on its way, when all is saved, or the version was refused', () => {
    expect(autosaveDue(typed({ inFlight: 1 }), 'draft', NOW)).toBe(false);
    expect(autosaveDue(typed({ savedRev: 3 }), 'draft', NOW)).toBe(false);
    expect(autosaveDue(typed({ blockedRev: 3 }), 'draft', NOW)).toBe(false);
    expect(autosaveDue(typed({ blockedRev: 2 }), 'draft', NOW)).toBe(true);
  });

  it('retries after no connection only once the wait is over', () => {
    expect(autosaveDue(typed({ retryAt: NOW + 1 }), 'draft', NOW)).toBe(false);
    expect(autosaveDue(typed({ retryAt: NOW }), 'draft', NOW)).toBe(true);
  });
});

describe('leaving', () => {
  it('sends an unsaved draft once when the page goes', () => {
    expect(sendOnLeave(typed(), saved)).toBe(true);
    expect(sendOnLeave(typed({ leaveSentRev: 3 }), saved)).toBe(false);
    expect(sendOnLeave(typed({ savedRev: 3 }), saved)).toBe(false);
  });

  it('does not create a new episode, or race a save on its way, while the page goes', () => {
    expect(sendOnLeave(typed(), { ...saved, episodeId: null })).toBe(false);
    expect(sendOnLeave(typed({ inFlight: 1 }), saved)).toBe(false);
  });

  it('leaves scheduled and published episodes to the author', () => {
    expect(sendOnLeave(typed(), { ...saved, status: 'scheduled' })).toBe(false);
    expect(saveOnClose(typed(), 'published')).toBe(false);
  });

  it('saves on closing the editor only what was typed since it opened', () => {
    expect(saveOnClose(typed(), 'draft')).toBe(true);
    expect(saveOnClose(typed({ savedRev: 3 }), 'draft')).toBe(false);
    // A restored copy nobody touched stays a copy: the next opening offers it again.
    expect(saveOnClose(initialProgress(true), 'draft')).toBe(false);
  });

  it('asks before the page goes only when unsaved text has no copy in this browser', () => {
    expect(warnOnUnload(typed(), false)).toBe(true);
    expect(warnOnUnload(typed(), true)).toBe(false);
    expect(warnOnUnload(typed({ savedRev: 3 }), false)).toBe(false);
  });
});

describe('episodeInput', () => {
  const values = { title: '  කොටස 2 ', content: '<p>අද</p>', membersOnly: true };

  it('creates without an id and sends the title trimmed', () => {
    expect(episodeInput(3, null, values, 'draft')).toEqual({
      storyId: 3,
      title: 'කොටස 2',
      content: '<p>අද</p>',
      membersOnly: true,
      status: 'draft',
    });
  });

  it('sends the time with a schedule only', () => {
    const at = '2026-11-23T10:00:00.000Z';
    expect(episodeInput(3, 12, values, 'scheduled', at)).toMatchObject({
      episodeId: 12,
      status: 'scheduled',
      publishAt: at,
    });
    expect(episodeInput(3, 12, values, 'published', at)).not.toHaveProperty('publishAt');
  });
});

describe('findLostCreate', () => {
  const since = NOW;
  const own = (over: Partial<OwnEpisode>): OwnEpisode => ({
    ...episode,
    updatedAt: new Date(since).toISOString(),
    ...over,
  });

  it('finds the draft of that title saved since the first save went out', () => {
    const found = own({ episodeId: 40 });
    expect(findLostCreate([own({ episodeId: 39, title: 'other' }), found], ' කොටස 2', since)).toBe(
      found,
    );
    const slack = new Date(since - CREATE_MATCH_SLACK_MS).toISOString();
    expect(findLostCreate([own({ updatedAt: slack })], 'කොටස 2', since)).toBeDefined();
  });

  it('ignores older drafts and episodes already out', () => {
    const older = new Date(since - CREATE_MATCH_SLACK_MS - 1).toISOString();
    expect(findLostCreate([own({ updatedAt: older })], 'කොටස 2', since)).toBeUndefined();
    expect(findLostCreate([own({ status: 'published' })], 'කොටස 2', since)).toBeUndefined();
  });
});

describe('saveStateText', () => {
  it('says what is going on, most urgent first', () => {
    expect(saveStateText({ kind: 'saving' }, true, 'draft', true, t)).toBe(t('publish.saving'));
    expect(saveStateText({ kind: 'failed', message: 'Too long.' }, true, 'draft', true, t)).toBe(
      t('publish.notSaved', { reason: 'Too long.' }),
    );
    expect(saveStateText({ kind: 'idle' }, false, 'draft', true, t)).toBe(t('publish.allSaved'));
    expect(saveStateText({ kind: 'idle' }, true, 'draft', true, t)).toBe(t('publish.unsaved'));
  });

  it('asks for Update or Save changes when a live or scheduled episode has changes', () => {
    expect(saveStateText({ kind: 'saved', at: NOW }, true, 'published', true, t)).toBe(
      t('publish.pendingLive'),
    );
    expect(saveStateText({ kind: 'idle' }, true, 'scheduled', true, t)).toBe(
      t('publish.pendingScheduled'),
    );
  });

  it('adds that this browser keeps no copy when it could not', () => {
    expect(saveStateText({ kind: 'offline' }, true, 'draft', false, t)).toBe(
      `${t('publish.offline')} ${t('publish.notKept')}`,
    );
    expect(saveStateText({ kind: 'saved', at: NOW }, false, 'draft', false, t)).toMatch(
      /^Saved at \d\d:\d\d$/,
    );
  });
});
