/**
 * GC's CPU in words, the main thread's pause beside V8's helper threads' GC time (HelperGcSummary):
 * "48 ms on the main thread + 31 ms on helper threads". Where the helpers' time was not traced
 * (a plain --trace-gc run), it says so, never "+ 0 ms". Pure: the pages, the CLI and the lab share it.
 */
import type { HelperGcSummary } from './model/summary';

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
