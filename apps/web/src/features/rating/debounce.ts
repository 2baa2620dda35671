/** A value that is sent `ms` after the last change: one call for a burst (SPEC.md 4, 9). */
export interface Debounced<T> {
  /** A new value: (re)starts the wait. */
  push(value: T): void;
  /** Sends a waiting value now (the page is going away). */
  flush(): void;
  /** Whether a value is waiting to be sent. */
  pending(): boolean;
}

export function createDebounced<T>(send: (value: T) => void, ms: number): Debounced<T> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let waiting: { value: T } | null = null;
  const fire = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const w = waiting;
    waiting = null;
    if (w) send(w.value);
  };
  return {
    push(value) {
      waiting = { value };
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(fire, ms);
    },
    flush: fire,
    pending: () => waiting !== null,
  };
}
