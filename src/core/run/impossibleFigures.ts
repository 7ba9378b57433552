/**
 * Figures that cannot be, said rather than shown as if they were: more GC pause than the process's
 * wall time (a crash cut its clock short, or the trace and the clock disagree). The share is held at
 * 100% by the GC summary; this says why it reads 100%.
 */
import type { GcSummary, ProcessSummary } from '../../shared/model/summary';

function over(gc: GcSummary | null | undefined): boolean {
  return !!gc && gc.wallMs > 0 && gc.totalPauseMs > gc.wallMs;
}

const ms = (x: number) => `${x.toLocaleString('en-US', { maximumFractionDigits: 1 })} ms`;

/** One line per GC summary (the run's, then each process's) whose pause exceeds its wall time. */
export function pauseAboveWallWarnings(gc: GcSummary | null, processes: readonly ProcessSummary[]): string[] {
  const out: string[] = [];
  const say = (who: string, g: GcSummary) =>
    out.push(`GC${who}: ${ms(g.totalPauseMs)} of pause in ${ms(g.wallMs)} of wall time, which cannot be: the process's clock ended before its GC trace did (a crash or a kill cuts it short), so its GC share is shown as at most 100%`);
  if (over(gc)) say('', gc!);
  for (const p of processes) if (over(p.gc) && !(processes.length === 1 && over(gc))) say(` (pid ${p.pid})`, p.gc!);
  return out;
}
