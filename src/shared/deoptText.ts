/**
 * How a deopt count is said everywhere (status bar, Sessions, CLI, report): "not collected" when
 * nobody looked, never "0 deopts". Pure, so the webviews and the host share it.
 */
import type { DeoptCoverage } from './model/summary';

export interface DeoptCountSource {
  deopts: readonly { count: number }[];
  deoptCoverage: DeoptCoverage;
}

export function deoptEventCount(summary: DeoptCountSource): number {
  let n = 0;
  for (const d of summary.deopts) n += d.count;
  return n;
}

/** "3 deopts", "1 deopt", "deopts: not collected", "2 deopts (some processes not collected)". */
export function deoptCountText(summary: DeoptCountSource): string {
  return deoptEventsText(deoptEventCount(summary), summary.deoptCoverage);
}

/** The same words from a count already made (the editor's annotation model keeps only the count). */
export function deoptEventsText(events: number, coverage: DeoptCoverage): string {
  if (coverage === 'not-collected') return 'deopts: not collected';
  const count = `${events} deopt${events === 1 ? '' : 's'}`;
  return coverage === 'partial' ? `${count} (some processes not collected)` : count;
}
