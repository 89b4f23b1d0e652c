/**
 * The documents this tab is processing right now (extracting and ingesting after an upload or
 * "Erneut verarbeiten"). The list never shows them as stuck, however long a big PDF takes here,
 * and offers no second run of them. Other tabs cannot know: for them such a document turns stuck
 * after the threshold, and a second run there only writes the same passages again.
 */
type Listener = () => void;

export class ProcessingRegistry {
  private readonly counts = new Map<string, number>();
  private readonly listeners = new Set<Listener>();
  private snapshot: ReadonlySet<string> = new Set();

  /** Marks a document as being processed here; call the returned function when done (once). */
  begin(documentId: string): () => void {
    this.counts.set(documentId, (this.counts.get(documentId) ?? 0) + 1);
    this.publish();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.counts.get(documentId) ?? 1) - 1;
      if (left > 0) this.counts.set(documentId, left);
      else this.counts.delete(documentId);
      this.publish();
    };
  }

  /** The ids being processed here (a new set after every change, for useSyncExternalStore). */
  readonly current = (): ReadonlySet<string> => this.snapshot;

  readonly subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private publish(): void {
    this.snapshot = new Set(this.counts.keys());
    for (const listener of this.listeners) listener();
  }
}

export const processingHere = new ProcessingRegistry();
