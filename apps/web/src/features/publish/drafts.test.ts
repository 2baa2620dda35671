import { describe, expect, it } from 'vitest';
import {
  adoptNewDraft,
  draftKey,
  readDraft,
  removeDraft,
  shouldRestore,
  writeDraft,
  type LocalDraft,
} from './drafts.ts';
import { formatWhen, fromLocalInput, nextHourInput, toLocalInput } from './when.ts';

/** A Storage in memory; `full` makes every write fail as a full browser storage does. */
class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  full = false;
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    if (this.full) throw new DOMException('full', 'QuotaExceededError');
    this.items.set(key, value);
  }
}

const draft = (over: Partial<LocalDraft> = {}): LocalDraft => ({
  title: 'කොටස 1',
  content: '<p>අද <strong>උදේ</strong></p>',
  membersOnly: false,
  editedAt: Date.parse('2026-11-22T10:00:00Z'),
  baseUpdatedAt: '2026-11-22T09:00:00.000Z',
  ...over,
});

const server = {
  title: 'කොටස 1',
  content: '<p>අද</p>',
  membersOnly: false,
  updatedAt: '2026-11-22T09:00:00.000Z',
};

describe('local drafts', () => {
  it('keeps one copy per story and episode, new ones under "new"', () => {
    const store = new MemoryStorage();
    expect(writeDraft(7, 'new', draft(), store)).toBe(true);
    expect(writeDraft(7, 12, draft({ title: 'other' }), store)).toBe(true);
    expect(readDraft(7, 'new', store)?.title).toBe('කොටස 1');
    expect(readDraft(7, 12, store)?.title).toBe('other');
    expect(readDraft(8, 12, store)).toBeNull();
    expect(draftKey(7, 'new')).not.toBe(draftKey(7, 12));
    removeDraft(7, 12, store);
    expect(readDraft(7, 12, store)).toBeNull();
  });

  it('says so when the browser refuses to keep a copy', () => {
    const store = new MemoryStorage();
    store.full = true;
    expect(writeDraft(1, 'new', draft(), store)).toBe(false);
    expect(writeDraft(1, 'new', draft(), null)).toBe(false);
  });

  it('ignores what is not a draft', () => {
    const store = new MemoryStorage();
    store.setItem(draftKey(1, 2), '{"title": 3}');
    expect(readDraft(1, 2, store)).toBeNull();
    store.setItem(draftKey(1, 2), 'not json');
    expect(readDraft(1, 2, store)).toBeNull();
  });

  it("moves a new episode's copy under its id once the server gave one", () => {
    const store = new MemoryStorage();
    const d = draft({ creatingSince: 5 });
    writeDraft(3, 'new', d, store);
    adoptNewDraft(3, 41, d, store);
    expect(readDraft(3, 'new', store)).toBeNull();
    const moved = readDraft(3, 41, store);
    expect(moved?.content).toBe(d.content);
    expect(moved?.creatingSince).toBeUndefined();
  });
});

describe('shouldRestore', () => {
  it('restores a copy made from the server copy that is still there, whatever the clocks say', () => {
    expect(shouldRestore(draft({ editedAt: 0 }), server)).toBe(true);
  });

  it('keeps the server copy when the copy says the same', () => {
    expect(shouldRestore(draft({ content: server.content }), server)).toBe(false);
    expect(shouldRestore(null, server)).toBe(false);
  });

  it('lets the newer win when the server copy changed since', () => {
    const newerServer = { ...server, updatedAt: '2026-11-22T11:00:00.000Z' };
    expect(shouldRestore(draft(), newerServer)).toBe(false);
    expect(
      shouldRestore(draft({ editedAt: Date.parse('2026-11-22T12:00:00Z') }), newerServer),
    ).toBe(true);
  });

  it('restores a new episode typed before any save (no server copy to start from)', () => {
    expect(shouldRestore(draft({ baseUpdatedAt: null }), server)).toBe(true);
  });
});

describe('times the author types', () => {
  it('reads a date-time input as local time and writes it back the same', () => {
    const iso = fromLocalInput('2026-11-22T10:30');
    expect(iso).not.toBeNull();
    expect(new Date(iso!).getHours()).toBe(10);
    expect(new Date(iso!).getMinutes()).toBe(30);
    expect(toLocalInput(iso)).toBe('2026-11-22T10:30');
    expect(formatWhen(iso)).toBe('2026-11-22 10:30');
  });

  it('refuses what is not a date-time', () => {
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('tomorrow')).toBeNull();
    expect(toLocalInput(null)).toBe('');
    expect(toLocalInput('nonsense')).toBe('');
  });

  it('offers the next whole hour at least ten minutes ahead', () => {
    const now = new Date(2026, 10, 22, 10, 55).getTime();
    expect(nextHourInput(now)).toBe('2026-11-22T12:00');
    expect(nextHourInput(new Date(2026, 10, 22, 10, 20).getTime())).toBe('2026-11-22T11:00');
  });
});
