/**
 * V8's lines, parsed in batches rather than one by one as a run's target prints them.
 *
 * The parser (traceGcLine.ts) reads bytes in place, fast once V8 has optimized it; a run that prints
 * a line now and then never gets it that far, and each line then ran in V8's interpreter: 25 of the
 * CLI's 76 ms of CPU while the bench's allocation-heavy script printed 311 lines in 2.5 s (perf
 * stat), CPU that on 2 cores the target's GC helper threads give up. Queued, the lines are parsed
 * when a figure is asked for (live progress, a load's window, the run's end) or when `limit` wait,
 * which bounds what the queue holds; the figures are the same, in the same order.
 */
import type { GcTraceCollector } from './gcTraceCollector';

/** About 600 KB of --trace-gc lines. */
const DEFAULT_LIMIT = 4096;

export class GcLineBatch {
  private queued: string[] = [];

  constructor(
    private readonly collector: GcTraceCollector,
    private readonly limit = DEFAULT_LIMIT,
  ) {}

  /** Queues one of V8's lines (without its newline). */
  add(line: string): void {
    this.queued.push(line);
    if (this.queued.length >= this.limit) this.parse();
  }

  /** The collector with every queued line parsed: the only way to its figures. */
  parsed(): GcTraceCollector {
    this.parse();
    return this.collector;
  }

  private parse(): void {
    if (this.queued.length === 0) return;
    const lines = this.queued;
    this.queued = [];
    for (const line of lines) this.collector.addLine(line);
  }
}
