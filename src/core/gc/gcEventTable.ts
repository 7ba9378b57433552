import type { Buffer } from 'node:buffer';
import type { GcEvent, IncrementalMarking } from './gcEvent';
import { CHUNK_MASK, CHUNK_ROWS, CHUNK_SHIFT, EventChunk } from './gcEventChunk';
import { hasQualifier, qualifiersOf, qualifierTextOf } from './qualifiers';
import { TextTable } from './textTable';

/**
 * GC events as columns: one typed array per number, in fixed-size chunks (gcEventChunk.ts), strings
 * (isolates, types, qualifiers, reasons) kept once in a table and referenced by index. A day-long
 * trace has millions of lines; an object per event cost ~300 bytes (every double its own heap
 * number) and most of the reading time, the columns ~90 bytes and nothing for the collector.
 * `event(i)` makes the object of one event for code that wants objects; `view(i)` a read-only row
 * over the columns for code that only reads the fields (the summary of a multi-million-line log).
 *
 * A --trace-gc line is written by its scanner (traceGcLine.ts) straight into the row at `length`,
 * which `commit` then adds; a line that does not parse leaves nothing behind.
 */

/** An isolate, in the order of its first event. */
export interface TableIsolate {
  pid: number;
  isolate: string;
}

export const NVP = 1;
export const INTERLEAVED = 2;
export const REDUCE = 4;

type Float = Float64Array<ArrayBuffer>;

function grown(column: Float, capacity: number): Float {
  const next = new Float64Array(capacity);
  next.set(column);
  return next;
}

let tables = 0;

export class GcEventTable {
  /** @internal Tells tables apart for the scanner, which remembers what the last line gave in its table. */
  readonly id = ++tables;
  private count = 0;
  private readonly chunks: EventChunk[];
  /** The last chunk, and the row in it that event `count` goes into (when it has room). */
  private chunk: EventChunk;
  private row = 0;

  private markingCount = 0;
  private marking: Float = new Float64Array(64);
  private muCount = 0;
  private mu: Float = new Float64Array(64);
  /** The row being written has a marking entry / a new mutator utilisation entry, added at commit. */
  private pendingMarking = false;
  private pendingMu = false;
  /** The mutator utilisation objects events share (consecutive equal values are one entry). */
  private readonly muObjects: Array<{ average: number; current: number } | undefined> = [];
  /** An NVP line's every pair, by event index. */
  private readonly nvp = new Map<number, Record<string, number | string>>();

  private readonly isolateList: TableIsolate[] = [];
  private readonly isolateKeys = new Map<string, number>();
  private lastPid = -1;
  private lastIsolate = '';
  private lastIsolateIndex = -1;
  /** The isolate text index of the last isolate when it came from bytes, else -1. */
  private lastIsolateText = -1;
  private readonly isolateTexts = new TextTable();
  private readonly isolateByNumber = new Map<number, number>();
  /** @internal Types, for the scanner. */
  readonly types = new TextTable();
  /** @internal Qualifier texts (" (a) (b)"), for the scanner; index 0: none. */
  readonly qualifierTexts = new TextTable(false, '');
  /** @internal Reasons and collector reasons, for the scanner; read from bytes without trailing spaces. */
  readonly reasons = new TextTable(true, '');
  /** INTERLEAVED | REDUCE by qualifier text index. */
  private readonly qualifierFlags: number[] = [0];

  /** `capacity`: the events to make room for at once (the first chunk's rows, at most a chunk). */
  constructor(capacity = 1024) {
    this.chunk = new EventChunk(Math.max(16, Math.min(CHUNK_ROWS, Math.floor(capacity) || 0)));
    this.chunks = [this.chunk];
  }

  get length(): number {
    return this.count;
  }

  /** Isolates in the order of their first event; `isolateOf(i)` indexes this list. */
  get isolates(): readonly TableIsolate[] {
    return this.isolateList;
  }

  /**
   * @internal For the scanner: the chunk that holds event `length`, written at its row `slotRow`
   * before `commit` adds it.
   */
  slot(): EventChunk {
    return this.row < this.chunk.rows ? this.chunk : this.nextChunk();
  }

  /** @internal The row of `slot()` that event `length` is written into. */
  get slotRow(): number {
    return this.row;
  }

  /** Adds the event written at `length`; returns its index. */
  commit(): number {
    if (this.pendingMarking) this.markingCount++;
    if (this.pendingMu) this.muCount++;
    this.pendingMarking = false;
    this.pendingMu = false;
    this.row++;
    return this.count++;
  }

  /** Adds an event given as an object (an NVP line's); returns its index. */
  addEvent(e: GcEvent): number {
    const c = this.slot();
    const r = this.row;
    c.isolate[r] = this.isolateIndexOf(e.pid, e.isolate);
    c.timeMs[r] = e.timeMs;
    c.type[r] = this.types.of(e.type);
    c.qualifiers[r] = e.qualifiers === undefined ? 0 : this.qualifierTexts.of(qualifierTextOf(e.qualifiers));
    c.flags[r] = (e.source === 'nvp' ? NVP : 0) | (e.interleaved ? INTERLEAVED : 0) | (e.reduce ? REDUCE : 0);
    c.heapBeforeMB[r] = e.heapBeforeMB;
    c.committedBeforeMB[r] = e.committedBeforeMB;
    c.heapAfterMB[r] = e.heapAfterMB;
    c.committedAfterMB[r] = e.committedAfterMB;
    c.pooledMB[r] = e.pooledMB ?? NaN;
    c.pauseMs[r] = e.pauseMs;
    c.externalMs[r] = e.externalMs;
    const m = e.incrementalMarking;
    c.marking[r] = m === null ? this.markingEntry(NaN, 0, 0, NaN) : this.markingEntry(m.ms, m.steps, m.biggestStepMs, m.wallMs ?? NaN);
    c.mu[r] = e.mu === null ? this.noMuEntry() : this.muEntry(e.mu.average, e.mu.current);
    c.reason[r] = this.reasons.of(e.reason);
    c.collectorReason[r] = this.reasons.of(e.collectorReason);
    const i = this.commit();
    if (e.nvp !== undefined) this.nvp.set(i, e.nvp);
    return i;
  }

  /** @internal For the scanner: the isolate of `pid` and the isolate text `b[start, end)`. */
  isolateIndexOfBytes(pid: number, b: Buffer, start: number, end: number): number {
    const text = this.isolateTexts.ofBytes(b, start, end);
    if (pid === this.lastPid && text === this.lastIsolateText) return this.lastIsolateIndex;
    // A process's isolates interleave (workers): found by a number, pid and text index, not a string.
    const key = text < 2 ** 18 ? text * 2 ** 34 + pid : -1; // pids have at most 10 digits (< 2^34)
    let index = this.isolateByNumber.get(key);
    if (index === undefined) {
      index = this.isolateIndexOf(pid, this.isolateTexts.values[text]!);
      if (key >= 0) this.isolateByNumber.set(key, index);
    }
    this.lastPid = pid;
    this.lastIsolateText = text;
    this.lastIsolate = this.isolateList[index]!.isolate;
    return (this.lastIsolateIndex = index);
  }

  /** @internal For the scanner: INTERLEAVED | REDUCE of a qualifier text's index. */
  qualifierFlagsOf(q: number): number {
    let flags = this.qualifierFlags[q];
    if (flags === undefined) {
      const text = this.qualifierTexts.values[q]!;
      flags = (hasQualifier(text, 'interleaved') ? INTERLEAVED : 0) | (hasQualifier(text, 'reduce') ? REDUCE : 0);
      this.qualifierFlags[q] = flags;
    }
    return flags;
  }

  /** @internal The row being written's incremental marking (NaN `ms`: none); its entry's index or -1. */
  markingEntry(ms: number, steps: number, biggestStepMs: number, wallMs: number): number {
    if (ms !== ms) {
      this.pendingMarking = false;
      return -1;
    }
    if (4 * (this.markingCount + 1) > this.marking.length) this.marking = grown(this.marking, 2 * this.marking.length);
    const at = 4 * this.markingCount;
    this.marking[at] = ms;
    this.marking[at + 1] = steps;
    this.marking[at + 2] = biggestStepMs;
    this.marking[at + 3] = wallMs;
    this.pendingMarking = true;
    return this.markingCount;
  }

  /** @internal The row being written's mutator utilisation: the last entry when it is the same. */
  muEntry(average: number, current: number): number {
    const last = this.muCount - 1;
    if (last >= 0 && this.mu[2 * last] === average && this.mu[2 * last + 1] === current) {
      this.pendingMu = false;
      return last;
    }
    if (2 * (this.muCount + 1) > this.mu.length) this.mu = grown(this.mu, 2 * this.mu.length);
    this.mu[2 * this.muCount] = average;
    this.mu[2 * this.muCount + 1] = current;
    this.pendingMu = true;
    return this.muCount;
  }

  private noMuEntry(): number {
    this.pendingMu = false;
    return -1;
  }

  /** The index into `isolates` of event `i`'s isolate. */
  isolateOf(i: number): number {
    return this.chunks[i >>> CHUNK_SHIFT]!.isolate[i & CHUNK_MASK]!;
  }

  pidOf(i: number): number {
    return this.isolateList[this.isolateOf(i)]!.pid;
  }

  isolateNameOf(i: number): string {
    return this.isolateList[this.isolateOf(i)]!.isolate;
  }

  timeOf(i: number): number {
    return this.chunks[i >>> CHUNK_SHIFT]!.timeMs[i & CHUNK_MASK]!;
  }

  typeOf(i: number): string {
    return this.types.values[this.typeIndexOf(i)]!;
  }

  /** Event `i`'s type as an index: types are numbered in the order they first came. */
  typeIndexOf(i: number): number {
    return this.chunks[i >>> CHUNK_SHIFT]!.type[i & CHUNK_MASK]!;
  }

  typeName(type: number): string {
    return this.types.values[type]!;
  }

  isNvp(i: number): boolean {
    return (this.flagsOf(i) & NVP) !== 0;
  }

  pauseOf(i: number): number {
    return this.chunks[i >>> CHUNK_SHIFT]!.pauseMs[i & CHUNK_MASK]!;
  }

  nvpOf(i: number): Record<string, number | string> | undefined {
    return (this.flagsOf(i) & NVP) === 0 ? undefined : this.nvp.get(i);
  }

  /** Event `i` as an object, the same as the line's parser gives. */
  event(i: number): GcEvent {
    const c = this.chunks[i >>> CHUNK_SHIFT]!;
    const r = i & CHUNK_MASK;
    const flags = c.flags[r]!;
    const q = c.qualifiers[r]!;
    const nvp = (flags & NVP) === 0 ? undefined : this.nvp.get(i);
    // The keys in the order the parsers give them.
    return {
      pid: this.pidOf(i),
      isolate: this.isolateNameOf(i),
      timeMs: c.timeMs[r]!,
      type: this.types.values[c.type[r]!]!,
      interleaved: (flags & INTERLEAVED) !== 0,
      reduce: (flags & REDUCE) !== 0,
      // A trace-gc event shares its list; an NVP event has one of its own, as its parser makes it.
      ...(q !== 0 ? { qualifiers: (flags & NVP) === 0 ? qualifiersOf(this.qualifierTexts.values[q]!) : [...qualifiersOf(this.qualifierTexts.values[q]!)] } : {}),
      heapBeforeMB: c.heapBeforeMB[r]!,
      committedBeforeMB: c.committedBeforeMB[r]!,
      heapAfterMB: c.heapAfterMB[r]!,
      committedAfterMB: c.committedAfterMB[r]!,
      pooledMB: this.pooledOf(i),
      pauseMs: c.pauseMs[r]!,
      externalMs: c.externalMs[r]!,
      incrementalMarking: this.markingOf(i),
      mu: this.muOf(i),
      reason: this.reasons.values[c.reason[r]!]!,
      collectorReason: this.reasons.values[c.collectorReason[r]!]!,
      source: (flags & NVP) === 0 ? 'trace-gc' : 'nvp',
      ...(nvp !== undefined ? { nvp } : {}),
    };
  }

  /**
   * Event `i` as a read-only row over the columns: a small object whose fields are getters, for
   * code that only reads them (the summary of millions of events). A spread or Object.keys of a
   * row sees none of its fields: use `event(i)` for an object of one's own.
   */
  view(i: number): GcEvent {
    return new GcEventRow(this, i);
  }

  /** Every event as a row (see `view`). */
  views(): GcEvent[] {
    const out = new Array<GcEvent>(this.count);
    for (let i = 0; i < this.count; i++) out[i] = new GcEventRow(this, i);
    return out;
  }

  /** @internal for GcEventRow */
  field(i: number, name: 'heapBeforeMB' | 'committedBeforeMB' | 'heapAfterMB' | 'committedAfterMB' | 'externalMs'): number {
    return this.chunks[i >>> CHUNK_SHIFT]![name][i & CHUNK_MASK]!;
  }

  /** @internal for GcEventRow */
  flag(i: number, name: 'interleaved' | 'reduce' | 'nvp'): boolean {
    return (this.flagsOf(i) & (name === 'interleaved' ? INTERLEAVED : name === 'reduce' ? REDUCE : NVP)) !== 0;
  }

  /** @internal for GcEventRow */
  pooledOf(i: number): number | null {
    const v = this.chunks[i >>> CHUNK_SHIFT]!.pooledMB[i & CHUNK_MASK]!;
    return Number.isNaN(v) ? null : v;
  }

  /** @internal for GcEventRow */
  qualifiersOf(i: number): readonly string[] | undefined {
    const q = this.chunks[i >>> CHUNK_SHIFT]!.qualifiers[i & CHUNK_MASK]!;
    return q === 0 ? undefined : qualifiersOf(this.qualifierTexts.values[q]!);
  }

  reasonOf(i: number): string {
    return this.reasons.values[this.chunks[i >>> CHUNK_SHIFT]!.reason[i & CHUNK_MASK]!]!;
  }

  /** @internal for GcEventRow */
  collectorReasonOf(i: number): string {
    return this.reasons.values[this.chunks[i >>> CHUNK_SHIFT]!.collectorReason[i & CHUNK_MASK]!]!;
  }

  markingOf(i: number): IncrementalMarking | null {
    const m = this.chunks[i >>> CHUNK_SHIFT]!.marking[i & CHUNK_MASK]!;
    if (m < 0) return null;
    const at = 4 * m;
    const wall = this.marking[at + 3]!;
    return { ms: this.marking[at]!, steps: this.marking[at + 1]!, biggestStepMs: this.marking[at + 2]!, wallMs: Number.isNaN(wall) ? null : wall };
  }

  muOf(i: number): { average: number; current: number } | null {
    const m = this.chunks[i >>> CHUNK_SHIFT]!.mu[i & CHUNK_MASK]!;
    if (m < 0) return null;
    return (this.muObjects[m] ??= { average: this.mu[2 * m]!, current: this.mu[2 * m + 1]! });
  }

  private flagsOf(i: number): number {
    return this.chunks[i >>> CHUNK_SHIFT]!.flags[i & CHUNK_MASK]!;
  }

  /** The isolate's index, added to the list at its first event. */
  private isolateIndexOf(pid: number, isolate: string): number {
    if (pid === this.lastPid && isolate === this.lastIsolate) return this.lastIsolateIndex;
    const key = `${pid}:${isolate}`;
    let index = this.isolateKeys.get(key);
    if (index === undefined) {
      index = this.isolateList.push({ pid, isolate }) - 1;
      this.isolateKeys.set(key, index);
    }
    this.lastPid = pid;
    this.lastIsolate = isolate;
    this.lastIsolateText = -1;
    return (this.lastIsolateIndex = index);
  }

  /** Room for event `count`: the first chunk grows fourfold up to a full chunk, then full chunks follow. */
  private nextChunk(): EventChunk {
    if (this.chunks.length === 1 && this.chunk.rows < CHUNK_ROWS) {
      this.chunk = new EventChunk(Math.min(CHUNK_ROWS, 4 * this.chunk.rows), this.chunk);
      this.chunks[0] = this.chunk;
    } else {
      this.chunk = new EventChunk(CHUNK_ROWS);
      this.chunks.push(this.chunk);
      this.row = 0;
    }
    return this.chunk;
  }
}

/** A read-only row of a GcEventTable (see GcEventTable.view). */
class GcEventRow implements GcEvent {
  constructor(
    private readonly table: GcEventTable,
    private readonly i: number,
  ) {}

  get pid(): number {
    return this.table.pidOf(this.i);
  }
  get isolate(): string {
    return this.table.isolateNameOf(this.i);
  }
  get timeMs(): number {
    return this.table.timeOf(this.i);
  }
  get type(): string {
    return this.table.typeOf(this.i);
  }
  get interleaved(): boolean {
    return this.table.flag(this.i, 'interleaved');
  }
  get reduce(): boolean {
    return this.table.flag(this.i, 'reduce');
  }
  get qualifiers(): readonly string[] | undefined {
    return this.table.qualifiersOf(this.i);
  }
  get heapBeforeMB(): number {
    return this.table.field(this.i, 'heapBeforeMB');
  }
  get committedBeforeMB(): number {
    return this.table.field(this.i, 'committedBeforeMB');
  }
  get heapAfterMB(): number {
    return this.table.field(this.i, 'heapAfterMB');
  }
  get committedAfterMB(): number {
    return this.table.field(this.i, 'committedAfterMB');
  }
  get pooledMB(): number | null {
    return this.table.pooledOf(this.i);
  }
  get pauseMs(): number {
    return this.table.pauseOf(this.i);
  }
  get externalMs(): number {
    return this.table.field(this.i, 'externalMs');
  }
  get incrementalMarking(): IncrementalMarking | null {
    return this.table.markingOf(this.i);
  }
  get mu(): { average: number; current: number } | null {
    return this.table.muOf(this.i);
  }
  get reason(): string {
    return this.table.reasonOf(this.i);
  }
  get collectorReason(): string {
    return this.table.collectorReasonOf(this.i);
  }
  get source(): 'trace-gc' | 'nvp' {
    return this.table.flag(this.i, 'nvp') ? 'nvp' : 'trace-gc';
  }
  get nvp(): Record<string, number | string> | undefined {
    return this.table.nvpOf(this.i);
  }

  /** JSON.stringify sees the event, not the row. */
  toJSON(): GcEvent {
    return this.table.event(this.i);
  }
}
