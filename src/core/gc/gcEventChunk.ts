/**
 * A block of rows of GcEventTable's columns: one typed array per field. The table fills blocks of a
 * fixed size one after another, so nothing is copied as it grows (a log of millions of lines would
 * copy hundreds of MB, and hold the old and the new arrays at once); only the first block starts
 * small and grows, so that a run of a few hundred GCs does not reserve megabytes.
 */

export const CHUNK_SHIFT = 16;
/** Rows in a full chunk: 65,536 rows of ~90 bytes. */
export const CHUNK_ROWS = 1 << CHUNK_SHIFT;
export const CHUNK_MASK = CHUNK_ROWS - 1;

type Float = Float64Array<ArrayBuffer>;
type U32 = Uint32Array<ArrayBuffer>;
type I32 = Int32Array<ArrayBuffer>;

export class EventChunk {
  readonly rows: number;
  /** Index into the table's isolates. */
  readonly isolate: U32;
  readonly timeMs: Float;
  readonly type: U32;
  /** Index into the table's qualifier texts; 0: none. */
  readonly qualifiers: U32;
  readonly reason: U32;
  readonly collectorReason: U32;
  /** NVP | INTERLEAVED | REDUCE. */
  readonly flags: Uint8Array<ArrayBuffer>;
  readonly heapBeforeMB: Float;
  readonly committedBeforeMB: Float;
  readonly heapAfterMB: Float;
  readonly committedAfterMB: Float;
  /** NaN: not printed. */
  readonly pooledMB: Float;
  readonly pauseMs: Float;
  readonly externalMs: Float;
  /** Index into the table's marking entries; -1 for none (only Mark-Compacts have them). */
  readonly marking: I32;
  /** Index into the table's mutator utilisation entries; -1 for none (NVP). */
  readonly mu: I32;

  constructor(rows: number, from?: EventChunk) {
    this.rows = rows;
    this.isolate = new Uint32Array(rows);
    this.timeMs = new Float64Array(rows);
    this.type = new Uint32Array(rows);
    this.qualifiers = new Uint32Array(rows);
    this.reason = new Uint32Array(rows);
    this.collectorReason = new Uint32Array(rows);
    this.flags = new Uint8Array(rows);
    this.heapBeforeMB = new Float64Array(rows);
    this.committedBeforeMB = new Float64Array(rows);
    this.heapAfterMB = new Float64Array(rows);
    this.committedAfterMB = new Float64Array(rows);
    this.pooledMB = new Float64Array(rows);
    this.pauseMs = new Float64Array(rows);
    this.externalMs = new Float64Array(rows);
    this.marking = new Int32Array(rows);
    this.mu = new Int32Array(rows);
    if (from !== undefined) {
      this.isolate.set(from.isolate);
      this.timeMs.set(from.timeMs);
      this.type.set(from.type);
      this.qualifiers.set(from.qualifiers);
      this.reason.set(from.reason);
      this.collectorReason.set(from.collectorReason);
      this.flags.set(from.flags);
      this.heapBeforeMB.set(from.heapBeforeMB);
      this.committedBeforeMB.set(from.committedBeforeMB);
      this.heapAfterMB.set(from.heapAfterMB);
      this.committedAfterMB.set(from.committedAfterMB);
      this.pooledMB.set(from.pooledMB);
      this.pauseMs.set(from.pauseMs);
      this.externalMs.set(from.externalMs);
      this.marking.set(from.marking);
      this.mu.set(from.mu);
    }
  }
}
