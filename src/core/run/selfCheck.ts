/**
 * The run's self-check: what V8 wrote, counted by its raw shape while the run was read (GC lines by
 * their `[pid:isolate] N ms: ` opening, `[bailout (` records, `code-deopt` events, NVP lines that
 * print `allocated`), held against what the parsers made of it. A new V8 format then shows as a
 * gap in `summary.json` and a warning, never as a quietly smaller number; and a figure that could
 * not be read at all is left out ("not collected") rather than shown as zero.
 */
import type { DeoptCoverage, SelfCheck, SelfCheckCount } from '../../shared/model/summary';
import type { GcRawCounts } from '../gc/gcTraceCollector';
import { FORMAT_NOT_UNDERSTOOD } from '../../shared/selfCheckText';

export interface SelfCheckParts {
  /** The GC trace's raw counts and the events read; null without a GC trace. */
  gc: (GcRawCounts & { eventsRead: number }) | null;
  deopts: SelfCheckCount | null;
  optimizations: SelfCheckCount | null;
}

/** The counts worth keeping (a kind with nothing seen and nothing read says nothing); null when none. */
export function buildSelfCheck(parts: SelfCheckParts): SelfCheck | null {
  const check: SelfCheck = {};
  const keep = (count: SelfCheckCount | null): count is SelfCheckCount => count !== null && (count.seen > 0 || count.read > 0);
  const gcLines = parts.gc ? { seen: parts.gc.gcLines, read: parts.gc.eventsRead } : null;
  const nvpAllocated = parts.gc ? { seen: parts.gc.nvpAllocatedLines, read: parts.gc.nvpAllocatedRead } : null;
  if (keep(gcLines)) check.gcLines = gcLines;
  if (keep(parts.deopts)) check.deopts = parts.deopts;
  if (keep(parts.optimizations)) check.optimizations = parts.optimizations;
  if (keep(nvpAllocated)) check.nvpAllocated = nvpAllocated;
  return Object.keys(check).length > 0 ? check : null;
}

/** V8 printed GC events and none could be read: the GC figures are unknown, not zero. */
export function gcUnreadable(check: SelfCheck | null): string | null {
  const c = check?.gcLines;
  if (!c || c.read > 0 || c.seen === 0) return null;
  return `GC: V8 printed ${c.seen} GC events and V8 Lens could read none (${FORMAT_NOT_UNDERSTOOD}), so the GC figures are not collected`;
}

/**
 * Deopts V8 traced but V8 Lens could not read make the deopt list incomplete: 'partial' when some
 * were read, 'not-collected' when none were (an empty list must not read as "no deopts"), with a
 * warning that says so.
 */
export function deoptCoverageAfterCheck(check: SelfCheck | null, coverage: DeoptCoverage, warnings: string[]): DeoptCoverage {
  const c = check?.deopts;
  if (!c || c.seen <= c.read) return coverage;
  if (c.read === 0) {
    warnings.push(`deopts: V8 traced ${c.seen} deopts and V8 Lens could read none (${FORMAT_NOT_UNDERSTOOD}), so the deopts are not collected`);
    return 'not-collected';
  }
  warnings.push(`deopts: V8 traced ${c.seen} deopts and V8 Lens read ${c.read} (${FORMAT_NOT_UNDERSTOOD}), so the deopt list is incomplete`);
  return coverage === 'collected' ? 'partial' : coverage;
}
