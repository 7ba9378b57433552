import { classifyStdoutLine, type StdoutLineClass } from './classifyStdoutLine';
import type { GcEvent } from './gcEvent';
import { PretenuringCollector } from './pretenuring';
import { parseTraceGcLine } from './traceGcLine';

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
 * Collects GC events from the traced process's stdout, line by line, as the launcher reads it.
 * Cheap enough to call for every stdout line; counts and the pause total are kept as events
 * arrive, so live progress does not rescan.
 */
export class GcTraceCollector {
  private readonly collected: GcEvent[] = [];
  private nvpAllocatedSeen = 0;
  private nvpAllocatedRead = 0;
  private readonly arrivals: IsolateArrival[] = [];
  private readonly typeCounts = new Map<string, number>();
  private unparsed = 0;
  private pauseTotal = 0;
  private lastPid = -1;
  private lastIsolate = '';
  private readonly tallies: Array<{ pid: number; isolate: string; counts: Map<string, number>; pauseMs: number }> = [];
  private lastTally: (typeof this.tallies)[number] | null = null;

  /** Events in arrival order. */
  get events(): readonly GcEvent[] {
    return this.collected;
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
    return { gcLines: this.collected.length + this.unparsed, nvpAllocatedLines: this.nvpAllocatedSeen, nvpAllocatedRead: this.nvpAllocatedRead };
  }

  /** V8's pretenuring decisions (`--trace-pretenuring-statistics` lines), dated by the GC lines after them. */
  readonly pretenuring = new PretenuringCollector();

  /** Classifies one stdout line (without its newline) and keeps it if it is a GC event. */
  addLine(line: string): 'gc' | 'v8' | 'app' {
    // The common cases first, without classifyStdoutLine's result object: called for every line.
    if (line.charCodeAt(0) !== 91 /* [ */) return 'app';
    const event = parseTraceGcLine(line);
    if (event !== null) {
      this.addEvent(event);
      return 'gc';
    }
    if (this.pretenuring.addLine(line)) return 'v8';
    // Counted by the text alone, apart from the parser (an NVP line is never a --trace-gc one).
    if (NVP_ALLOCATED.test(line)) this.nvpAllocatedSeen++;
    return this.addClassified(classifyStdoutLine(line));
  }

  /** Same as addLine, for a line the caller has already classified. */
  addClassified(result: StdoutLineClass): 'gc' | 'v8' | 'app' {
    if (result.kind === 'gc') this.addEvent(result.event);
    else if (result.kind === 'v8' && result.looksLikeGcEvent) this.unparsed++;
    return result.kind;
  }

  /** Sum of the main-thread pauses of every event so far, all isolates (for live progress). */
  get totalPauseMs(): number {
    return this.pauseTotal;
  }

  /** GC events per type so far ("Scavenge (interleaved)" counts as "Scavenge"). */
  countsByType(): Record<string, number> {
    return Object.fromEntries(this.typeCounts);
  }

  /** Per isolate (process or thread), counts and pause so far: a load window's GC per process. */
  tallyByIsolate(): IsolateGcTally[] {
    return this.tallies.map((t) => ({ pid: t.pid, isolate: t.isolate, counts: Object.fromEntries(t.counts), pauseMs: t.pauseMs }));
  }

  /** Isolates in the order their first event arrived (the main isolate initialises first). */
  isolates(): readonly IsolateArrival[] {
    return this.arrivals;
  }

  private addEvent(event: GcEvent): void {
    // Isolate strings are shared between lines of the same isolate (isolatePrefix.ts), so the
    // common case is settled by an identity comparison.
    if (event.pid !== this.lastPid || event.isolate !== this.lastIsolate) {
      this.lastPid = event.pid;
      this.lastIsolate = event.isolate;
      if (!this.arrivals.some((a) => a.pid === event.pid && a.isolate === event.isolate)) {
        this.arrivals.push({ pid: event.pid, isolate: event.isolate, firstEventIndex: this.collected.length });
      }
      this.lastTally = this.tallies.find((t) => t.pid === event.pid && t.isolate === event.isolate) ?? null;
      if (this.lastTally === null) this.tallies.push((this.lastTally = { pid: event.pid, isolate: event.isolate, counts: new Map(), pauseMs: 0 }));
    }
    if (event.source === 'nvp' && typeof event.nvp?.allocated === 'number') this.nvpAllocatedRead++;
    this.pretenuring.noteGc(event.pid, event.isolate, event.timeMs);
    this.typeCounts.set(event.type, (this.typeCounts.get(event.type) ?? 0) + 1);
    this.pauseTotal += event.pauseMs;
    const tally = this.lastTally!;
    tally.counts.set(event.type, (tally.counts.get(event.type) ?? 0) + 1);
    tally.pauseMs += event.pauseMs;
    this.collected.push(event);
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
  let truncatedLastLine = false;
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    if (newline < 0) {
      const line = text.slice(start);
      const last = classifyStdoutLine(line);
      if (last.kind === 'gc' && looksComplete(line, last.event)) collector.addLine(line);
      else truncatedLastLine = line.trim() !== '';
      break;
    }
    collector.addLine(text.slice(start, newline));
    start = newline + 1;
  }
  // The collector is local, so its array can be handed over without a copy.
  return { events: collector.events as GcEvent[], unparsedLines: collector.unparsedLines, raw: collector.rawCounts(), truncatedLastLine };
}
