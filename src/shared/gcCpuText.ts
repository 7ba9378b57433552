/**
 * GC's CPU in words, the main thread's pause beside V8's helper threads' GC time (HelperGcSummary):
 * "48 ms on the main thread + 31 ms on helper threads". Where the helpers' time was not traced
 * (a plain --trace-gc run), it says so, never "+ 0 ms". Pure: the pages, the CLI and the lab share it.
 */
import type { HelperGcSummary } from './model/summary';
import type { SweepRun } from './model/sweep';

/** How the helper threads' time is collected, for the "not collected" sentences. */
export const HELPER_GC_HOW = "V8's GC phases (--trace-gc-nvp: v8-lens profile --gc-phases, or the lab's profiling run)";

function ms(value: number): string {
  if (value >= 100) return `${Math.round(value).toLocaleString('en-US')} ms`;
  if (value >= 10) return `${value.toFixed(1)} ms`;
  return `${value.toFixed(2)} ms`;
}

/** "48 ms on the main thread + 31 ms on helper threads" / "48 ms on the main thread (helper threads: not collected)". */
export function gcCpuText(mainMs: number, helperMs: number | null | undefined, unit = ''): string {
  const main = `${ms(mainMs)}${unit} on the main thread`;
  return helperMs === null || helperMs === undefined ? `${main} (helper threads: not collected)` : `${main} + ${ms(helperMs)}${unit} on helper threads`;
}

/** "GC CPU: 48 ms/1k on the main thread + 31 ms/1k on helper threads", per 1,000 requests; null without requests. */
export function gcCpuPer1kText(mainMs: number, helperMs: number | null | undefined, requests: number | null | undefined): string | null {
  if (!requests || requests <= 0) return null;
  const per1k = (v: number) => (v * 1000) / requests;
  return `GC CPU: ${gcCpuText(per1k(mainMs), helperMs === null || helperMs === undefined ? helperMs : per1k(helperMs), '/1k')}`;
}

/** "scavenge 31 ms · mark 12 ms · sweep 2.0 ms": the phases with time, most first. */
export function helperPhasesText(helper: HelperGcSummary): string {
  return Object.entries(helper.byPhase)
    .filter((entry): entry is [string, number] => typeof entry[1] === 'number' && entry[1] > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([phase, value]) => `${phase} ${ms(value)}`)
    .join(' · ');
}

/**
 * A lab setting's GC CPU per 1k requests from its profiling run, which traces V8's phases: "48.1 + 31.0"
 * (main thread + helper threads, ms); null when no profiling run traced them (older sweeps, none run).
 */
export function profilingGcCpuCell(runs: readonly Pick<SweepRun, 'purpose' | 'status' | 'gcMsPer1k' | 'helperGcMsPer1k'>[]): string | null {
  const run = runs.find((r) => r.purpose === 'profile' && r.status === 'ok' && r.helperGcMsPer1k !== undefined);
  if (!run || run.gcMsPer1k === null) return null;
  const fmt = (v: number) => v.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return `${fmt(run.gcMsPer1k)} + ${run.helperGcMsPer1k === null || run.helperGcMsPer1k === undefined ? '?' : fmt(run.helperGcMsPer1k)}`;
}

/** The column's head, and what it is. */
export const PROFILING_GC_CPU_HEAD = 'GC CPU ms / 1k req: main + helpers (profiling run)';
export const PROFILING_GC_CPU_NOTE =
  "From each value's profiling run, which traces V8's GC phases: the main thread's GC pause and the GC time V8 counts on its helper threads (wall time of its background scopes), per 1,000 requests. One run: no spread, not in the statistics.";
