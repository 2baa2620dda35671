/**
 * A bounded in-memory map filled from the database, safe against a change that lands while a
 * fill is in flight: every drop moves a generation on, and a fill that began before it is not kept
 * (the reader still gets its answer; the next one reads again).
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

  /** The kept value, or undefined. */
  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** The kept value, else `load()`'s, kept unless a drop happened meanwhile or it is undefined. */
  async load(key: K, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const startedAt = this.generation;
    const value = await load();
    if (value !== undefined && startedAt === this.generation && this.live()) this.set(key, value);
    return value;
  }

  private set(key: K, value: V) {
    if (this.entries.size >= this.max) {
      // Maps iterate in insertion order: the first key is the oldest fill.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
  }

  /** Drops one entry. */
  delete(key: K): void {
    this.generation++;
    this.entries.delete(key);
  }

  /** Drops the entries a test picks. */
  deleteWhere(test: (key: K, value: V) => boolean): void {
    this.generation++;
    for (const [k, v] of this.entries) if (test(k, v)) this.entries.delete(k);
  }

  /** Drops everything. */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
