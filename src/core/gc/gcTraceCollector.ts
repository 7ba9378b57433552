import { Buffer } from 'node:buffer';
import { classifyOtherLine, classifyStdoutLine, type StdoutLineClass } from './classifyStdoutLine';
import type { GcEvent } from './gcEvent';
import { GcEventTable } from './gcEventTable';
import { PretenuringCollector } from './pretenuring';
import { encodeLine, scanTraceGcLine } from './traceGcLine';

/** An isolate seen in the trace, in order of its first GC event. */
export interface IsolateArrival {
  pid: number;
  isolate: string;
  /** Index in `events` of this isolate's first event. */
  firstEventIndex: number;
}

/** One isolate's GC so far: counts per type and the pause total. */
export interface IsolateGcTally {
  pid: number;
  isolate: string;
  counts: Record<string, number>;
  pauseMs: number;
}

/** See `GcTraceCollector.rawCounts`. */
export interface GcRawCounts {
  gcLines: number;
  nvpAllocatedLines: number;
  nvpAllocatedRead: number;
}

/** A timed V8 line that prints the bytes allocated since the last GC: `allocated=N` (Node 18–24) or `"allocated":N` (Node 26). */
const NVP_ALLOCATED = /^\[\d+:[^\]\s]+\] +[\d.]+ ms: .*?(?:\ballocated=|"allocated":)/;

/**
 * Collects GC events from the traced process's stdout, line by line, as the launcher reads it, or
 * from a saved log's bytes in place (`addBytes`). Cheap enough to call for every stdout line: a
 * --trace-gc line goes into a column store (gcEventTable.ts) without an object or a string of its
 * own, and counts and the pause total are brought up to date from it when asked for, adding only
 * the events since the last time, so live progress does not rescan.
 */
export class GcTraceCollector {
  /** Every event, as columns. */
  readonly table: GcEventTable;

  /** `capacity`: the events to make room for at once (more are taken as they come). */
  constructor(capacity?: number) {
    this.table = new GcEventTable(capacity);
  }

  /** `table`'s events as objects, made when `events` is first asked for and extended after. */
  private readonly materialized: GcEvent[] = [];
  private nvpAllocatedSeen = 0;
  private nvpAllocatedRead = 0;
  private unparsed = 0;
  /**
   * The running counts below are brought up to date from the table when asked for (live progress
   * asks a few times a second), not per event: `tallied` events are in them.
   */
  private tallied = 0;
  private readonly arrivals: IsolateArrival[] = [];
  /** Events per type, by the table's type index (types are numbered in the order they first came). */
  private readonly typeCounts: number[] = [];
  private pauseTotal = 0;
  /** Per isolate (the table's isolate index): events per type index, the types in the order they came, the pause. */
  private readonly tallies: Array<{ pid: number; isolate: string; counts: number[]; order: number[]; pauseMs: number }> = [];

  /**
   * Events in arrival order, as objects (made from the columns on first use, then kept: the same
   * object each time). A multi-million-line log is better read through `table`.
   */
  get events(): readonly GcEvent[] {
    const table = this.table;
    for (let i = this.materialized.length; i < table.length; i++) this.materialized.push(table.event(i));
    return this.materialized;
  }

  /** Timed V8 lines (`[pid:isolate] N ms: …`) that are not V8's other known messages, yet did not parse. */
  get unparsedLines(): number {
    return this.unparsed;
  }

  /**
   * The raw counts the run's self-check holds the events against: timed GC-shaped lines (read or
   * not), and `--trace-gc-nvp` lines that print `allocated` beside the events whose bytes were read.
   */
  rawCounts(): GcRawCounts {
    return { gcLines: this.table.length + this.unparsed, nvpAllocatedLines: this.nvpAllocatedSeen, nvpAllocatedRead: this.nvpAllocatedRead };
  }

  /** V8's pretenuring decisions (`--trace-pretenuring-statistics` lines), dated by the GC lines after them. */
  readonly pretenuring = new PretenuringCollector();

  /** Classifies one stdout line (without its newline) and keeps it if it is a GC event. */
  addLine(line: string): 'gc' | 'v8' | 'app' {
    // The common cases first, without classifyStdoutLine's result object: called for every line.
    if (line.charCodeAt(0) !== 91 /* [ */) return 'app';
    const { bytes, length } = encodeLine(line);
    return this.addBytes(bytes, 0, length, line);
  }

  /**
   * The same for the line `bytes[start, end)` (UTF-8, without its newline): a --trace-gc line is
   * read in place, into the table; any other line is decoded (or `text` is used, when the caller
   * has it as text).
   */
  addBytes(bytes: Buffer, start: number, end: number, text?: string): 'gc' | 'v8' | 'app' {
    if (start >= end || bytes[start] !== 91 /* [ */) return 'app';
    if (scanTraceGcLine(bytes, start, end, this.table)) {
      const index = this.table.commit();
      if (this.pretenuring.waitingForGc) this.noteGc(index);
      return 'gc';
    }
    const line = text ?? bytes.toString('utf8', start, end);
    if (this.pretenuring.addLine(line)) return 'v8';
    // Counted by the text alone, apart from the parser (an NVP line is never a --trace-gc one).
    if (NVP_ALLOCATED.test(line)) this.nvpAllocatedSeen++;
    return this.addClassified(classifyOtherLine(line));
  }

  /** Same as addLine, for a line the caller has already classified. */
  addClassified(result: StdoutLineClass): 'gc' | 'v8' | 'app' {
    if (result.kind === 'gc') {
      const event = result.event;
      const index = this.table.addEvent(event);
      if (event.source === 'nvp' && typeof event.nvp?.allocated === 'number') this.nvpAllocatedRead++;
      if (this.pretenuring.waitingForGc) this.noteGc(index);
    } else if (result.kind === 'v8' && result.looksLikeGcEvent) this.unparsed++;
    return result.kind;
  }

  /** Sum of the main-thread pauses of every event so far, all isolates (for live progress). */
  get totalPauseMs(): number {
    this.catchUp();
    return this.pauseTotal;
  }

  /** GC events per type so far ("Scavenge (interleaved)" counts as "Scavenge"). */
  countsByType(): Record<string, number> {
    this.catchUp();
    const out: Record<string, number> = {};
    for (let type = 0; type < this.typeCounts.length; type++) out[this.table.typeName(type)] = this.typeCounts[type]!;
    return out;
  }

  /** Per isolate (process or thread), counts and pause so far: a load window's GC per process. */
  tallyByIsolate(): IsolateGcTally[] {
    this.catchUp();
    return this.tallies.map((t) => ({ pid: t.pid, isolate: t.isolate, counts: Object.fromEntries(t.order.map((type) => [this.table.typeName(type), t.counts[type]!])), pauseMs: t.pauseMs }));
  }

  /** Isolates in the order their first event arrived (the main isolate initialises first). */
  isolates(): readonly IsolateArrival[] {
    this.catchUp();
    return this.arrivals;
  }

  /** Dates the pretenuring decisions waiting for the GC just added at `index`. */
  private noteGc(index: number): void {
    const table = this.table;
    this.pretenuring.noteGc(table.pidOf(index), table.isolateNameOf(index), table.timeOf(index));
  }

  /** Adds the events since the last call to the running counts, in order. */
  private catchUp(): void {
    const table = this.table;
    for (let index = this.tallied; index < table.length; index++) {
      const isolate = table.isolateOf(index);
      if (isolate === this.tallies.length) {
        // The table numbers isolates in the order of their first event.
        const { pid, isolate: name } = table.isolates[isolate]!;
        this.arrivals.push({ pid, isolate: name, firstEventIndex: index });
        this.tallies.push({ pid, isolate: name, counts: [], order: [], pauseMs: 0 });
      }
      const t = this.tallies[isolate]!;
      const type = table.typeIndexOf(index);
      const pause = table.pauseOf(index);
      while (this.typeCounts.length <= type) this.typeCounts.push(0);
      this.typeCounts[type]!++;
      this.pauseTotal += pause;
      while (t.counts.length <= type) t.counts.push(0);
      if (t.counts[type]!++ === 0) t.order.push(type);
      t.pauseMs += pause;
    }
    this.tallied = table.length;
  }
}

export interface ParsedGcTrace {
  events: GcEvent[];
  unparsedLines: number;
  raw: GcRawCounts;
  /** The text ended without a newline, in a line that is not a GC event: the log was cut. */
  truncatedLastLine: boolean;
}

/**
 * A --trace-gc line always has "; " after its reason, so one cut inside the reason still parses:
 * without a newline after it, only a line that has it is trusted. (An NVP line cut between two
 * pairs cannot be told from a whole one.)
 */
function looksComplete(line: string, event: GcEvent): boolean {
  return event.source !== 'trace-gc' || line.includes(';');
}

/**
 * Parses a whole saved log (`v8-lens report gc-trace.log`): app lines and other V8 output are
 * skipped. A log cut mid-line gives the events of its complete lines; the partial last line is
 * reported through `truncatedLastLine`, not counted as unparsed. Never throws.
 */
export function parseGcTraceText(text: string): ParsedGcTrace {
  const collector = new GcTraceCollector();
  const bytes = Buffer.from(text, 'utf8');
  let truncatedLastLine = false;
  let start = 0;
  while (start < bytes.length) {
    const newline = bytes.indexOf(0x0a, start);
    if (newline < 0) {
      const line = bytes.toString('utf8', start);
      const last = classifyStdoutLine(line);
      if (last.kind === 'gc' && looksComplete(line, last.event)) collector.addLine(line);
      else truncatedLastLine = line.trim() !== '';
      break;
    }
    collector.addBytes(bytes, start, newline);
    start = newline + 1;
  }
  // The collector is local, so its array can be handed over without a copy.
  return { events: collector.events as GcEvent[], unparsedLines: collector.unparsedLines, raw: collector.rawCounts(), truncatedLastLine };
}
