import { describe, expect, it } from 'vitest';
import { Memo } from './memo.ts';

const fill = async (memo: Memo<string, string>, key: string) =>
  memo.load(key, async () => `v${key}`);

describe('Memo grouped by reader', () => {
  it("drops one reader's entries and keeps everyone else's", async () => {
    const memo = new Memo<string, string>(100).grouped((key) => key.split(':')[0]);
    for (const key of ['1:10', '1:11', '2:10', '12:10']) await fill(memo, key);
    memo.deleteGroup('1');
    expect(memo.get('1:10')).toBeUndefined();
    expect(memo.get('1:11')).toBeUndefined();
    // '12' starts with '1' but is another reader.
    expect(memo.get('12:10')).toBe('v12:10');
    expect(memo.get('2:10')).toBe('v2:10');
    expect(memo.size).toBe(2);
  });

  it('keeps its index right as the oldest entries make room, and after a clear', async () => {
    const memo = new Memo<string, string>(2).grouped((key) => key.split(':')[0]);
    await fill(memo, '1:10');
    await fill(memo, '2:10');
    await fill(memo, '2:11'); // evicts 1:10
    expect(memo.get('1:10')).toBeUndefined();
    await fill(memo, '1:12'); // evicts 2:10
    memo.deleteGroup('2');
    expect(memo.get('2:11')).toBeUndefined();
    expect(memo.get('1:12')).toBe('v1:12');
    memo.clear();
    await fill(memo, '1:13');
    memo.deleteGroup('1');
    expect(memo.size).toBe(0);
  });

  it('does not keep a fill that began before its group was dropped', async () => {
    const memo = new Memo<string, string>(10).grouped((key) => key.split(':')[0]);
    let finish: (v: string) => void = () => {};
    const slow = memo.load('3:1', () => new Promise<string>((r) => (finish = r)));
    memo.deleteGroup('3');
    finish('old');
    expect(await slow).toBe('old');
    expect(memo.get('3:1')).toBeUndefined();
  });

  it("keeps another reader's fill that was under way when one reader's entries were dropped", async () => {
    const memo = new Memo<string, string>(10).grouped((key) => key.split(':')[0]);
    const finish: ((v: string) => void)[] = [];
    const loader = () => new Promise<string>((r) => finish.push(r));
    const mine = memo.load('3:1', loader);
    const theirs = memo.load('4:1', loader);
    memo.deleteGroup('3');
    finish[0]!('mine');
    finish[1]!('theirs');
    await Promise.all([mine, theirs]);
    expect(memo.get('3:1')).toBeUndefined();
    expect(memo.get('4:1')).toBe('theirs');
  });
});

describe('Memo fills', () => {
  it('reads a key missed by many readers at once only once', async () => {
    const memo = new Memo<string, string>(10);
    let reads = 0;
    let finish: (v: string) => void = () => {};
    const loader = () => {
      reads++;
      return new Promise<string>((r) => (finish = r));
    };
    const waiting = [memo.load('s', loader), memo.load('s', loader), memo.load('s', loader)];
    finish('row');
    expect(await Promise.all(waiting)).toEqual(['row', 'row', 'row']);
    expect(reads).toBe(1);
    expect(memo.get('s')).toBe('row');
  });

  it('does not hand a reader who came after a drop a fill that began before it', async () => {
    const memo = new Memo<string, string>(10);
    const finish: ((v: string) => void)[] = [];
    const loader = () => new Promise<string>((r) => finish.push(r));
    const before = memo.load('s', loader);
    memo.delete('s');
    const after = memo.load('s', loader);
    expect(finish).toHaveLength(2);
    finish[0]!('old');
    finish[1]!('new');
    expect(await before).toBe('old');
    expect(await after).toBe('new');
    expect(memo.get('s')).toBe('new');
  });

  it('keeps a fill of another key that was under way when one key was dropped', async () => {
    const memo = new Memo<string, string>(10);
    const finish: ((v: string) => void)[] = [];
    const loader = () => new Promise<string>((r) => finish.push(r));
    const dropped = memo.load('s', loader);
    const other = memo.load('t', loader);
    memo.delete('s');
    finish[0]!('old');
    finish[1]!('row');
    await Promise.all([dropped, other]);
    expect(memo.get('s')).toBeUndefined();
    expect(memo.get('t')).toBe('row');
  });

  it('keeps no fill that was under way when everything was dropped', async () => {
    const memo = new Memo<string, string>(10);
    let finish: (v: string) => void = () => {};
    const before = memo.load('t', () => new Promise<string>((r) => (finish = r)));
    memo.clear();
    finish('old');
    expect(await before).toBe('old');
    expect(memo.get('t')).toBeUndefined();
  });

  it('applies an update to a kept value, and keeps no fill that was under way when it came', async () => {
    const memo = new Memo<string, string>(10);
    await fill(memo, 'k');
    memo.update('k', (v) => `${v}+1`);
    expect(memo.get('k')).toBe('vk+1');
    let finish: (v: string) => void = () => {};
    const before = memo.load('s', () => new Promise<string>((r) => (finish = r)));
    memo.update('s', (v) => `${v}+1`);
    finish('old');
    expect(await before).toBe('old');
    expect(memo.get('s')).toBeUndefined();
  });
});
