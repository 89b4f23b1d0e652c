/**
 * A live list (the admin's documents, open questions) kept consistent when loads and realtime
 * changes overlap: a load that started before a later one finished is stale and dropped (responses
 * can arrive out of order), and every change heard while a load was under way is applied again on
 * top of that load's result, since the query may have read the table before or after the change.
 * Pure: how a change applies to the list is handed in.
 */
export class LiveListSync<T, C> {
  private current: T[] = [];
  private nextLoad = 0;
  private appliedLoad = -1;
  private nextChange = 0;
  /** Load token → number of changes heard when it started. */
  private readonly pending = new Map<number, number>();
  private readonly log: { seq: number; change: C }[] = [];

  private readonly apply: (list: readonly T[], change: C) => T[];

  constructor(apply: (list: readonly T[], change: C) => T[]) {
    this.apply = apply;
  }

  get items(): T[] {
    return this.current;
  }

  /** Marks the start of a load; pass the token to loaded() or failed(). */
  beginLoad(): number {
    const token = this.nextLoad++;
    this.pending.set(token, this.nextChange);
    return token;
  }

  /** Applies a change now and remembers it for the loads under way. */
  change(change: C): T[] {
    this.current = this.apply(this.current, change);
    if (this.pending.size > 0) this.log.push({ seq: this.nextChange, change });
    this.nextChange++;
    return this.current;
  }

  /** A load's result; false when a later load has already been applied (the result is dropped). */
  loaded(token: number, list: readonly T[]): boolean {
    const startedAt = this.pending.get(token);
    if (startedAt === undefined || token < this.appliedLoad) {
      this.failed(token);
      return false;
    }
    this.appliedLoad = token;
    this.current = this.log
      .filter((entry) => entry.seq >= startedAt)
      .reduce<T[]>((next, entry) => this.apply(next, entry.change), [...list]);
    // Loads started before this one can only be dropped now: stop keeping changes for them.
    for (const older of [...this.pending.keys()]) if (older <= token) this.pending.delete(older);
    this.prune();
    return true;
  }

  /** A load that failed: its buffered changes are no longer needed for it. */
  failed(token: number): void {
    this.pending.delete(token);
    this.prune();
  }

  private prune(): void {
    const oldestNeeded = Math.min(...this.pending.values());
    const keepFrom = this.log.findIndex((entry) => entry.seq >= oldestNeeded);
    this.log.splice(0, keepFrom === -1 ? this.log.length : keepFrom);
  }
}
