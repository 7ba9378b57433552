import type { GcEvent, IncrementalMarking } from './gcEvent';
import { hasQualifier, qualifiersOf, qualifierTextOf, traceGcEventOf, type TraceGcFields } from './traceGcLine';

/**
 * GC events as columns: one typed array per number, strings (isolates, types, qualifiers, reasons)
 * kept once in a table and referenced by index. A day-long trace has millions of lines; an object
 * per event cost ~300 bytes (every double its own heap number) and most of the reading time, the
 * columns ~90 bytes and nothing for the collector. `event(i)` makes the object of one event for
 * code that wants objects; `view(i)` a read-only row over the columns for code that only reads
 * the fields (the summary of a multi-million-line log).
 */

/** An isolate, in the order of its first event. */
export interface TableIsolate {
  pid: number;
  isolate: string;
}

/** Strings by index, each once. */
class TextTable {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();
  private last = '';
  private lastIndex = -1;

  constructor(first?: string) {
    if (first !== undefined) this.of(first);
  }

  of(value: string): number {
    // Consecutive events mostly repeat a value (and the scanner hands the same string back).
    if (value === this.last && this.lastIndex >= 0) return this.lastIndex;
    let i = this.index.get(value);
    if (i === undefined) {
      i = this.values.push(value) - 1;
      this.index.set(value, i);
    }
    this.last = value;
    this.lastIndex = i;
    return i;
  }
}

const NVP = 1;
const INTERLEAVED = 2;
const REDUCE = 4;

type Float = Float64Array<ArrayBuffer>;
type U32 = Uint32Array<ArrayBuffer>;
type I32 = Int32Array<ArrayBuffer>;

function grown<T extends Float | U32 | I32 | Uint8Array<ArrayBuffer>>(column: T, capacity: number): T {
  const next = new (column.constructor as new (n: number) => T)(capacity);
  next.set(column);
  return next;
}

export class GcEventTable {
  private count = 0;
  private capacity: number;
  private isolateIndex: U32;
  private timeMs: Float;
  private typeIndex: U32;
  private qualifierIndex: U32;
  private reasonIndex: U32;
  private collectorReasonIndex: U32;
  private flags: Uint8Array<ArrayBuffer>;
  private heapBeforeMB: Float;
  private committedBeforeMB: Float;
  private heapAfterMB: Float;
  private committedAfterMB: Float;
  /** NaN: not printed. */
  private pooledMB: Float;
  private pauseMs: Float;
  private externalMs: Float;
  /** Index into the marking columns below; -1 for none (only Mark-Compacts have it). */
  private markingIndex: I32;
  /** Index into the mutator utilisation columns; -1 for none (NVP). It changes at Mark-Compacts only. */
  private muIndex: I32;

  private markingCount = 0;
  private marking: Float = new Float64Array(64);
  private muCount = 0;
  private mu: Float = new Float64Array(64);
  /** The mutator utilisation objects events share (consecutive equal values are one entry). */
  private readonly muObjects: Array<{ average: number; current: number } | undefined> = [];
  /** An NVP line's every pair, by event index. */
  private readonly nvp = new Map<number, Record<string, number | string>>();

  private readonly isolateList: TableIsolate[] = [];
  private readonly isolateKeys = new Map<string, number>();
  private lastPid = -1;
  private lastIsolate = '';
  private lastIsolateIndex = -1;
  private readonly types = new TextTable();
  /** Index 0: no qualifiers. */
  private readonly qualifiers = new TextTable('');
  private readonly reasons = new TextTable('');

  constructor(capacity = 1024) {
    capacity = Math.max(16, Math.min(2 ** 28, Math.floor(capacity)));
    this.capacity = capacity;
    this.isolateIndex = new Uint32Array(capacity);
    this.timeMs = new Float64Array(capacity);
    this.typeIndex = new Uint32Array(capacity);
    this.qualifierIndex = new Uint32Array(capacity);
    this.reasonIndex = new Uint32Array(capacity);
    this.collectorReasonIndex = new Uint32Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.heapBeforeMB = new Float64Array(capacity);
    this.committedBeforeMB = new Float64Array(capacity);
    this.heapAfterMB = new Float64Array(capacity);
    this.committedAfterMB = new Float64Array(capacity);
    this.pooledMB = new Float64Array(capacity);
    this.pauseMs = new Float64Array(capacity);
    this.externalMs = new Float64Array(capacity);
    this.markingIndex = new Int32Array(capacity);
    this.muIndex = new Int32Array(capacity);
  }

  get length(): number {
    return this.count;
  }

  /** Isolates in the order of their first event; `isolateOf(i)` indexes this list. */
  get isolates(): readonly TableIsolate[] {
    return this.isolateList;
  }

  /** Adds a --trace-gc line's fields; returns the event's index. */
  addTraceGc(f: TraceGcFields): number {
    const i = this.next(f.pid, f.isolate);
    this.timeMs[i] = f.timeMs;
    this.typeIndex[i] = this.types.of(f.type);
    this.qualifierIndex[i] = f.qualifiers === '' ? 0 : this.qualifiers.of(f.qualifiers);
    this.flags[i] = (hasQualifier(f.qualifiers, 'interleaved') ? INTERLEAVED : 0) | (hasQualifier(f.qualifiers, 'reduce') ? REDUCE : 0);
    this.heapBeforeMB[i] = f.heapBeforeMB;
    this.committedBeforeMB[i] = f.committedBeforeMB;
    this.heapAfterMB[i] = f.heapAfterMB;
    this.committedAfterMB[i] = f.committedAfterMB;
    this.pooledMB[i] = f.pooledMB;
    this.pauseMs[i] = f.pauseMs;
    this.externalMs[i] = f.externalMs;
    this.markingIndex[i] = Number.isNaN(f.markingMs) ? -1 : this.addMarking(f.markingMs, f.markingSteps, f.markingBiggestStepMs, f.markingWallMs);
    this.muIndex[i] = this.addMu(f.muAverage, f.muCurrent);
    this.reasonIndex[i] = this.reasons.of(f.reason);
    this.collectorReasonIndex[i] = this.reasons.of(f.collectorReason);
    return this.commit();
  }

  /** Adds an event given as an object (an NVP line's); returns its index. */
  addEvent(e: GcEvent): number {
    const i = this.next(e.pid, e.isolate);
    this.timeMs[i] = e.timeMs;
    this.typeIndex[i] = this.types.of(e.type);
    this.qualifierIndex[i] = e.qualifiers === undefined ? 0 : this.qualifiers.of(qualifierTextOf(e.qualifiers));
    this.flags[i] = (e.source === 'nvp' ? NVP : 0) | (e.interleaved ? INTERLEAVED : 0) | (e.reduce ? REDUCE : 0);
    this.heapBeforeMB[i] = e.heapBeforeMB;
    this.committedBeforeMB[i] = e.committedBeforeMB;
    this.heapAfterMB[i] = e.heapAfterMB;
    this.committedAfterMB[i] = e.committedAfterMB;
    this.pooledMB[i] = e.pooledMB ?? NaN;
    this.pauseMs[i] = e.pauseMs;
    this.externalMs[i] = e.externalMs;
    const m = e.incrementalMarking;
    this.markingIndex[i] = m === null ? -1 : this.addMarking(m.ms, m.steps, m.biggestStepMs, m.wallMs ?? NaN);
    this.muIndex[i] = e.mu === null ? -1 : this.addMu(e.mu.average, e.mu.current);
    this.reasonIndex[i] = this.reasons.of(e.reason);
    this.collectorReasonIndex[i] = this.reasons.of(e.collectorReason);
    if (e.nvp !== undefined) this.nvp.set(i, e.nvp);
    return this.commit();
  }

  /** The index into `isolates` of event `i`'s isolate. */
  isolateOf(i: number): number {
    return this.isolateIndex[i]!;
  }

  pidOf(i: number): number {
    return this.isolateList[this.isolateIndex[i]!]!.pid;
  }

  isolateNameOf(i: number): string {
    return this.isolateList[this.isolateIndex[i]!]!.isolate;
  }

  timeOf(i: number): number {
    return this.timeMs[i]!;
  }

  typeOf(i: number): string {
    return this.types.values[this.typeIndex[i]!]!;
  }

  /** Event `i`'s type as an index: types are numbered in the order they first came. */
  typeIndexOf(i: number): number {
    return this.typeIndex[i]!;
  }

  typeName(type: number): string {
    return this.types.values[type]!;
  }

  isNvp(i: number): boolean {
    return (this.flags[i]! & NVP) !== 0;
  }

  pauseOf(i: number): number {
    return this.pauseMs[i]!;
  }

  nvpOf(i: number): Record<string, number | string> | undefined {
    return (this.flags[i]! & NVP) === 0 ? undefined : this.nvp.get(i);
  }

  /** Event `i` as an object, the same as the line's parser gives. */
  event(i: number): GcEvent {
    if ((this.flags[i]! & NVP) === 0) return traceGcEventOf(this.traceGcFields(i), this.muOf(i)!);
    const qualifiers = this.qualifierIndex[i]!;
    const nvp = this.nvp.get(i);
    return {
      pid: this.pidOf(i),
      isolate: this.isolateNameOf(i),
      timeMs: this.timeMs[i]!,
      type: this.typeOf(i),
      interleaved: (this.flags[i]! & INTERLEAVED) !== 0,
      reduce: (this.flags[i]! & REDUCE) !== 0,
      ...(qualifiers !== 0 ? { qualifiers: [...qualifiersOf(this.qualifiers.values[qualifiers]!)] } : {}),
      heapBeforeMB: this.heapBeforeMB[i]!,
      committedBeforeMB: this.committedBeforeMB[i]!,
      heapAfterMB: this.heapAfterMB[i]!,
      committedAfterMB: this.committedAfterMB[i]!,
      pooledMB: Number.isNaN(this.pooledMB[i]!) ? null : this.pooledMB[i]!,
      pauseMs: this.pauseMs[i]!,
      externalMs: this.externalMs[i]!,
      incrementalMarking: this.markingOf(i),
      mu: this.muOf(i),
      reason: this.reasons.values[this.reasonIndex[i]!]!,
      collectorReason: this.reasons.values[this.collectorReasonIndex[i]!]!,
      source: 'nvp',
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
    return this[name][i]!;
  }

  /** @internal for GcEventRow */
  flag(i: number, name: 'interleaved' | 'reduce' | 'nvp'): boolean {
    return (this.flags[i]! & (name === 'interleaved' ? INTERLEAVED : name === 'reduce' ? REDUCE : NVP)) !== 0;
  }

  /** @internal for GcEventRow */
  pooledOf(i: number): number | null {
    const v = this.pooledMB[i]!;
    return Number.isNaN(v) ? null : v;
  }

  /** @internal for GcEventRow */
  qualifiersOf(i: number): readonly string[] | undefined {
    const q = this.qualifierIndex[i]!;
    return q === 0 ? undefined : qualifiersOf(this.qualifiers.values[q]!);
  }

  reasonOf(i: number): string {
    return this.reasons.values[this.reasonIndex[i]!]!;
  }

  /** @internal for GcEventRow */
  collectorReasonOf(i: number): string {
    return this.reasons.values[this.collectorReasonIndex[i]!]!;
  }

  markingOf(i: number): IncrementalMarking | null {
    const m = this.markingIndex[i]!;
    if (m < 0) return null;
    const at = 4 * m;
    const wall = this.marking[at + 3]!;
    return { ms: this.marking[at]!, steps: this.marking[at + 1]!, biggestStepMs: this.marking[at + 2]!, wallMs: Number.isNaN(wall) ? null : wall };
  }

  muOf(i: number): { average: number; current: number } | null {
    const m = this.muIndex[i]!;
    if (m < 0) return null;
    return (this.muObjects[m] ??= { average: this.mu[2 * m]!, current: this.mu[2 * m + 1]! });
  }

  private traceGcFields(i: number): TraceGcFields {
    const m = this.markingIndex[i]!;
    const at = 4 * m;
    return {
      pid: this.pidOf(i),
      isolate: this.isolateNameOf(i),
      timeMs: this.timeMs[i]!,
      type: this.typeOf(i),
      qualifiers: this.qualifiers.values[this.qualifierIndex[i]!]!,
      heapBeforeMB: this.heapBeforeMB[i]!,
      committedBeforeMB: this.committedBeforeMB[i]!,
      heapAfterMB: this.heapAfterMB[i]!,
      committedAfterMB: this.committedAfterMB[i]!,
      pooledMB: this.pooledMB[i]!,
      pauseMs: this.pauseMs[i]!,
      externalMs: this.externalMs[i]!,
      markingMs: m < 0 ? NaN : this.marking[at]!,
      markingSteps: m < 0 ? 0 : this.marking[at + 1]!,
      markingBiggestStepMs: m < 0 ? 0 : this.marking[at + 2]!,
      markingWallMs: m < 0 ? NaN : this.marking[at + 3]!,
      muAverage: 0,
      muCurrent: 0,
      reason: this.reasonOf(i),
      collectorReason: this.collectorReasonOf(i),
    };
  }

  /** The slot for the next event, with its isolate set (added to the list at its first event). */
  private next(pid: number, isolate: string): number {
    if (this.count === this.capacity) this.grow();
    let index = this.lastIndexFor(pid, isolate);
    if (index < 0) {
      const key = `${pid}:${isolate}`;
      index = this.isolateKeys.get(key) ?? -1;
      if (index < 0) {
        index = this.isolateList.push({ pid, isolate }) - 1;
        this.isolateKeys.set(key, index);
      }
      this.lastPid = pid;
      this.lastIsolate = isolate;
      this.lastIsolateIndex = index;
    }
    this.isolateIndex[this.count] = index;
    return this.count;
  }

  private lastIndexFor(pid: number, isolate: string): number {
    return pid === this.lastPid && isolate === this.lastIsolate ? this.lastIsolateIndex : -1;
  }

  private commit(): number {
    return this.count++;
  }

  private addMarking(ms: number, steps: number, biggestStepMs: number, wallMs: number): number {
    if (4 * (this.markingCount + 1) > this.marking.length) this.marking = grown(this.marking, 2 * this.marking.length);
    const at = 4 * this.markingCount;
    this.marking[at] = ms;
    this.marking[at + 1] = steps;
    this.marking[at + 2] = biggestStepMs;
    this.marking[at + 3] = wallMs;
    return this.markingCount++;
  }

  private addMu(average: number, current: number): number {
    const last = this.muCount - 1;
    if (last >= 0 && this.mu[2 * last] === average && this.mu[2 * last + 1] === current) return last;
    if (2 * (this.muCount + 1) > this.mu.length) this.mu = grown(this.mu, 2 * this.mu.length);
    this.mu[2 * this.muCount] = average;
    this.mu[2 * this.muCount + 1] = current;
    return this.muCount++;
  }

  private grow(): void {
    // Fourfold: the columns are copied a third as often as when doubled, and pages never written
    // are never touched.
    const capacity = Math.min(2 ** 30, 4 * this.capacity);
    this.isolateIndex = grown(this.isolateIndex, capacity);
    this.timeMs = grown(this.timeMs, capacity);
    this.typeIndex = grown(this.typeIndex, capacity);
    this.qualifierIndex = grown(this.qualifierIndex, capacity);
    this.reasonIndex = grown(this.reasonIndex, capacity);
    this.collectorReasonIndex = grown(this.collectorReasonIndex, capacity);
    this.flags = grown(this.flags, capacity);
    this.heapBeforeMB = grown(this.heapBeforeMB, capacity);
    this.committedBeforeMB = grown(this.committedBeforeMB, capacity);
    this.heapAfterMB = grown(this.heapAfterMB, capacity);
    this.committedAfterMB = grown(this.committedAfterMB, capacity);
    this.pooledMB = grown(this.pooledMB, capacity);
    this.pauseMs = grown(this.pauseMs, capacity);
    this.externalMs = grown(this.externalMs, capacity);
    this.markingIndex = grown(this.markingIndex, capacity);
    this.muIndex = grown(this.muIndex, capacity);
    this.capacity = capacity;
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
