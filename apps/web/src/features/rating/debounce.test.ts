import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDebounced } from './debounce.ts';

describe('createDebounced', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends one value for a burst, 500 ms after the last change', () => {
    const send = vi.fn();
    const d = createDebounced(send, 500);
    d.push(1);
    vi.advanceTimersByTime(300);
    d.push(2);
    vi.advanceTimersByTime(300);
    d.push(3);
    vi.advanceTimersByTime(499);
    expect(send).not.toHaveBeenCalled();
    expect(d.pending()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith(3);
    expect(d.pending()).toBe(false);
  });

  it('flush sends a waiting value at once and only once', () => {
    const send = vi.fn();
    const d = createDebounced(send, 500);
    d.push(4);
    d.flush();
    vi.advanceTimersByTime(1000);
    d.flush();
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith(4);
  });
});
