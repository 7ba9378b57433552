/**
 * A run's line ticks of inlined code, over its profiles (see cpu/inlinedLines.ts): what summary.json
 * says in `cpu.inlinedLines`, and a warning when some line time could not be placed, so the line heat
 * is known to be short of it.
 */
import type { InlinedLinesSummary } from '../../shared/model/summary';
import { inlinedLinesText } from '../../shared/inlinedLinesText';
import type { InlinedLineCounts } from '../cpu/inlinedLines';
import { round } from '../util/stats';

/** The sum over the profiles that consulted their sources; null when none did. */
export function inlinedLinesOf(parts: readonly (InlinedLineCounts | null)[], warnings: string[]): InlinedLinesSummary | null {
  const counted = parts.filter((p): p is InlinedLineCounts => p !== null);
  if (counted.length === 0) return null;
  const sum = (pick: (c: InlinedLineCounts) => number) => round(counted.reduce((s, c) => s + pick(c), 0) / 1000, 3);
  const summary: InlinedLinesSummary = { movedMs: sum((c) => c.movedUs), droppedMs: sum((c) => c.droppedUs), uncheckedMs: sum((c) => c.uncheckedUs) };
  if (summary.droppedMs > 0) warnings.push(`line heat: ${inlinedLinesText(summary)!.replace(/^Line heat of inlined code /, 'line ticks of inlined code ')}`);
  return summary;
}
