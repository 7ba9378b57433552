/**
 * Allocations beside the GC that pays for them: the young-generation GCs (scavenges, or Minor
 * Mark-Sweeps) of the same isolate while its allocations were sampled, and V8's own account of what
 * was allocated in that time, read from the GC trace (the heap's growth from one GC's end to the next
 * one's start), to hold the sampled bytes against. On this repository's programs the two agree within
 * 3% on Node 20, 22 and 24; sampling every 32 KB is an estimate, and the trace cannot see what was
 * allocated after the last GC.
 */
import type { AllocGcLink, AllocSummary } from '../../shared/model/summary';
import { reachedSemiSpaceMB } from '../../shared/youngGenerationText';
import { fmtBytes } from '../../shared/formatBytes';
import { isYoungGenerationGc, type GcEvent } from '../gc/gcEvent';
import { round } from '../util/stats';

const MB = 1024 * 1024;

/** How far the sampled bytes may stray from the trace's account, as a share of it, beyond what the trace cannot see. */
export const LINK_TOLERANCE = 0.5;
/** V8 prints heap sizes to 0.1 MB: each GC line's growth is off by up to this much. */
const TRACE_ROUNDING_BYTES = 0.05 * MB;

/** One isolate's GC while its allocations were sampled. */
export interface GcSpan {
  youngGcs: number;
  pauseMs: number;
  /** The heap's growth between GCs (every type) in the span, bytes; null when no GC ran in it. */
  traceAllocatedBytes: number | null;
  /** GC lines that growth was read from. */
  gcLines: number;
  /** Its young generation in `--max-semi-space-size`'s terms, bytes; null when unknown. */
  youngGenerationBytes: number | null;
  /** V8's own account from `--trace-gc-nvp` (see NvpSpanFigures); null or absent when its lines had no phases. */
  nvp?: NvpSpanFigures | null;
}

/** What V8 printed of its young GCs' copying in a span: `new_space_survived` (kept young) and `promoted`, and `allocated` of every GC. */
export interface NvpSpanFigures {
  copiedBytes: number;
  promotedBytes: number;
  allocatedBytes: number;
}

/**
 * The isolate's GCs between two epoch times. GC events carry the time since their isolate started
 * (`performance.timeOrigin`, which the agent records as `processStartMs`).
 */
export function gcInAllocationSpan(
  events: readonly GcEvent[],
  isolateStartMs: number,
  span: { startMs: number; endMs: number },
  newSpaceMaxBytes: number | null,
): GcSpan {
  let youngGcs = 0;
  let pauseMs = 0;
  let grownMB = 0;
  let gcLines = 0;
  let previousAfterMB: number | null = null;
  let collector: 'Scavenger' | 'Minor Mark-Sweep' | null = null;
  let nvp: NvpSpanFigures | null = null;
  for (const e of events) {
    const young = isYoungGenerationGc(e.type);
    if (young) collector ??= e.type.startsWith('Scavenge') ? 'Scavenger' : 'Minor Mark-Sweep';
    const at = isolateStartMs + e.timeMs;
    if (at >= span.startMs && at <= span.endMs) {
      if (young) {
        youngGcs++;
        pauseMs += e.pauseMs;
      }
      if (e.nvp) {
        nvp ??= { copiedBytes: 0, promotedBytes: 0, allocatedBytes: 0 };
        nvp.allocatedBytes += numberOr0(e.nvp.allocated);
        if (young) {
          nvp.copiedBytes += numberOr0(e.nvp.new_space_survived);
          nvp.promotedBytes += numberOr0(e.nvp.promoted);
        }
      }
      // Growth since the GC before (which may be just before the span): what the app allocated.
      if (previousAfterMB !== null) {
        grownMB += Math.max(0, e.heapBeforeMB - previousAfterMB);
        gcLines++;
      }
    }
    previousAfterMB = e.heapAfterMB;
  }
  const reachedMB = newSpaceMaxBytes === null ? null : reachedSemiSpaceMB({ collector, newSpaceMB: newSpaceMaxBytes / MB });
  return {
    youngGcs,
    pauseMs,
    traceAllocatedBytes: gcLines > 0 ? grownMB * MB : null,
    gcLines,
    youngGenerationBytes: reachedMB === null ? null : reachedMB * MB,
    ...(nvp ? { nvp } : {}),
  };
}

function numberOr0(value: number | string | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/**
 * Several isolates' spans as one link for `totalBytes` sampled in them. With `survivors` the samples
 * are what outlived a young GC, a part of what was allocated: they disagree with V8's account only
 * when they pass it.
 */
export function linkAllocationsToGc(totalBytes: number, sampleCount: number, spans: readonly GcSpan[], survivors = false, samplingIntervalBytes = 0): AllocGcLink {
  const youngGcs = spans.reduce((n, s) => n + s.youngGcs, 0);
  const pauseMs = spans.reduce((n, s) => n + s.pauseMs, 0);
  const sizes = spans.map((s) => s.youngGenerationBytes).filter((b): b is number => b !== null);
  const youngGenerationBytes = sizes.length > 0 ? Math.max(...sizes) : null;
  const traced = spans.filter((s) => s.traceAllocatedBytes !== null);
  const traceAllocatedBytes = traced.length > 0 ? traced.reduce((n, s) => n + s.traceAllocatedBytes!, 0) : null;
  // What the trace cannot see: each isolate's bytes after its last GC (at most a young generation's worth) and the rounding.
  const unseen = spans.reduce((n, s) => n + (s.youngGenerationBytes ?? 0) + s.gcLines * TRACE_ROUNDING_BYTES, 0);
  const ratio = traceAllocatedBytes !== null && traceAllocatedBytes > 0 ? totalBytes / traceAllocatedBytes : null;
  const withNvp = spans.filter((s) => s.nvp !== null && s.nvp !== undefined);
  const v8Copying = withNvp.length > 0 ? { copiedBytes: sumOf(withNvp, (n) => n.copiedBytes), promotedBytes: sumOf(withNvp, (n) => n.promotedBytes), nvpAllocatedBytes: sumOf(withNvp, (n) => n.allocatedBytes) } : {};
  const slack = traceAllocatedBytes === null ? 0 : unseen + samplingSlack(traceAllocatedBytes, samplingIntervalBytes);
  const disagrees = traceAllocatedBytes === null ? null : survivors ? survivorsDisagreement(totalBytes, traceAllocatedBytes, slack, sampleCount) : disagreement(totalBytes, traceAllocatedBytes, slack, sampleCount);
  return {
    ...v8Copying,
    youngGcs,
    youngGcPauseMs: round(pauseMs, 3),
    bytesPerYoungGc: youngGcs > 0 ? Math.round(totalBytes / youngGcs) : null,
    youngGenerationBytes,
    traceAllocatedBytes: traceAllocatedBytes === null ? null : Math.round(traceAllocatedBytes),
    ratio: ratio === null ? null : round(ratio, 3),
    disagreement: disagrees,
  };
}

function sumOf(spans: readonly GcSpan[], pick: (n: NvpSpanFigures) => number): number {
  return spans.reduce((n, s) => n + pick(s.nvp!), 0);
}

/**
 * How far the sampled total may stray by chance beyond LINK_TOLERANCE: V8 samples one allocation
 * every `interval` bytes on average (Poisson), so for `traced` bytes it takes about traced/interval
 * samples and the total's standard deviation is √(traced × interval); three of them. At 4 MB a run
 * that allocated 40 MB takes about 10 samples, and ±95% is chance, not a disagreement.
 */
function samplingSlack(traced: number, interval: number): number {
  return Math.max(0, 3 * Math.sqrt(traced * interval) - LINK_TOLERANCE * traced);
}

function survivorsDisagreement(sampled: number, traced: number, slack: number, sampleCount: number): string | null {
  if (sampled <= (1 + LINK_TOLERANCE) * traced + slack) return null;
  return `V8 Lens sampled ${fmtBytes(sampled)} of survivors; V8's GC trace accounts for ${fmtBytes(traced)} allocated in all in the same time: the samples (${sampleCount}) overestimate`;
}

function disagreement(sampled: number, traced: number, slack: number, sampleCount: number): string | null {
  if (Math.abs(sampled - traced) <= LINK_TOLERANCE * traced + slack) return null;
  const accounts = `V8 Lens sampled ${fmtBytes(sampled)} allocated; V8's GC trace accounts for ${fmtBytes(traced)} in the same time`;
  if (sampled > traced) return `${accounts}: the samples (${sampleCount}) overestimate, or much was allocated after the last GC`;
  return `${accounts}: the samples (${sampleCount}) miss much of it (allocation sampling may have stopped early, or started late)`;
}

/**
 * The summary with its GC link and each function's estimated share of the young-GC pause: its share
 * of all that was allocated times the pause (most sampled bytes die young; a rough estimate, labelled
 * so wherever it is shown).
 */
export function withGcLink(alloc: AllocSummary, link: AllocGcLink | null): AllocSummary {
  return {
    ...alloc,
    gcLink: link,
    functions: alloc.functions.map((f) => ({ ...f, youngGcPauseMsEstimate: link === null ? null : round(f.share * link.youngGcPauseMs, 3) })),
  };
}
