/** A fill under way. */
interface Flight<V> {
  generation: number;
  stale: boolean;
  value: Promise<V | undefined>;
}

/**
 * A bounded in-memory map filled from the database, safe against a change that lands while a
 * fill is in flight: a fill that began before a drop of its key is not kept (the reader still
 * gets its answer; the next one reads again). Dropping one key or one group spoils only those
 * keys' fills: under a stream of one reader's writes, everyone else's fills still land.
 */
export class Memo<K, V> {
  private readonly entries = new Map<K, V>();
  private generation = 0;

  /**
   * @param max entries kept; past it the oldest go first.
   * @param live false while changes may go unheard: then nothing new is kept.
   */
  constructor(
    private readonly max: number,
    private readonly live: () => boolean = () => true,
  ) {}

  /** Keys by group, for memos made with groupOf (see grouped()). */
  private groups: Map<unknown, Set<K>> | null = null;
  private groupOf: ((key: K) => unknown) | null = null;

  /**
   * Keeps an index of the keys by `groupOf(key)` (a reader's id, say), so that deleteGroup()
   * drops one group's entries without walking every key. Returns this memo.
   */
  grouped(groupOf: (key: K) => unknown): this {
    this.groupOf = groupOf;
    this.groups = new Map();
    return this;
  }

  /** Drops the entries of one group (a memo made grouped()). */
  deleteGroup(group: unknown): void {
    for (const [key, flight] of this.flights)
      if (this.groupOf?.(key) === group) flight.stale = true;
    const keys = this.groups?.get(group);
    if (!keys) return;
    this.groups!.delete(group);
    for (const key of keys) this.entries.delete(key);
  }

  /** The kept value, or undefined. */
  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  /**
   * Fills in flight, each with the generation it began in (moved on by drops of many keys) and
   * whether its own key was dropped since.
   */
  private readonly flights = new Map<K, Flight<V>>();

  /**
   * The kept value, else `load()`'s, kept unless a drop happened meanwhile or it is undefined.
   * Readers missing the same key at once share one fill (a dropped story is read once, not once
   * per reader waiting for it), but never one that began before a drop: it may hold what the
   * drop announced changed.
   */
  load(key: K, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.entries.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    const flying = this.flights.get(key);
    if (flying && flying.generation === this.generation && !flying.stale) return flying.value;
    // The fill reads its own flight: a drop marks it stale while it is under way.
    const flight = { generation: this.generation, stale: false } as Flight<V>;
    const value = (flight.value = (async () => {
      const found = await load();
      const current = flight.generation === this.generation && !flight.stale;
      if (found !== undefined && current && this.live()) this.set(key, found);
      return found;
    })());
    const landed = () => {
      if (this.flights.get(key) === flight) this.flights.delete(key);
    };
    value.then(landed, landed);
    this.flights.set(key, flight);
    return value;
  }

  /**
   * Keeps a value made from other values kept now (so as current as they are), unless changes
   * may go unheard; answers the value.
   */
  keep(key: K, value: V): V {
    if (this.live()) this.set(key, value);
    return value;
  }

  /** Keeps a value announced for a key unless one is kept already (as new, or newer). */
  offer(key: K, value: V): void {
    if (this.get(key) === undefined) this.keep(key, value);
  }

  private set(key: K, value: V) {
    if (this.entries.size >= this.max) {
      // Maps iterate in insertion order: the first key is the oldest fill.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.forget(oldest.value);
    }
    this.entries.set(key, value);
    if (this.groupOf) {
      const group = this.groupOf(key);
      let keys = this.groups!.get(group);
      if (!keys) this.groups!.set(group, (keys = new Set()));
      keys.add(key);
    }
  }

  private forget(key: K) {
    this.entries.delete(key);
    if (!this.groupOf) return;
    const group = this.groupOf(key);
    const keys = this.groups!.get(group);
    if (keys?.delete(key) && keys.size === 0) this.groups!.delete(group);
  }

  /**
   * Replaces a kept value with `change(value)`: what a notice says changed, applied in place of a
   * drop and a read. A fill in flight is spoiled, as by a drop (it may hold the value before).
   */
  update(key: K, change: (value: V) => V): void {
    const flying = this.flights.get(key);
    if (flying) flying.stale = true;
    const kept = this.entries.get(key);
    if (kept === undefined) return;
    if (this.live()) this.entries.set(key, change(kept));
    else this.forget(key);
  }

  /** Drops one entry. */
  delete(key: K): void {
    const flying = this.flights.get(key);
    if (flying) flying.stale = true;
    this.forget(key);
  }

  /** Drops the entries a test picks. */
  deleteWhere(test: (key: K, value: V) => boolean): void {
    this.generation++;
    for (const [k, v] of this.entries) if (test(k, v)) this.forget(k);
  }

  /** Drops everything. */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.groups?.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
