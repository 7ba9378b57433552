/**
 * What the line heat did with ticks of inlined code (summary.json `cpu.inlinedLines`), in one line:
 * for the text report, the run's warning and any view that shows line heat. Null when nothing moved
 * or was left out.
 */
import type { InlinedLinesSummary } from './model/summary';

export function inlinedLinesText(inlined: InlinedLinesSummary | undefined | null): string | null {
  if (!inlined || (inlined.movedMs <= 0 && inlined.droppedMs <= 0)) return null;
  const ms = (v: number) => `${v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(1)} ms`;
  const parts: string[] = [];
  if (inlined.movedMs > 0) parts.push(`${ms(inlined.movedMs)} placed at the inlined function's own file and line`);
  if (inlined.droppedMs > 0) parts.push(`${ms(inlined.droppedMs)} left out (outside the function V8 gave them to, and no one file could own them)`);
  return `Line heat of inlined code (V8 gives its ticks to the function it was inlined into): ${parts.join('; ')}`;
}
