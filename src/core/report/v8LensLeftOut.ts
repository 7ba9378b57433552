/**
 * Where V8 Lens knows its own scripts from when it is given something other than a whole run: a
 * `.cpuprofile` from a run's cpu/ folder (the run's session.json beside it), and a summary.json
 * written before V8 Lens left its own agent out of the figures.
 */
import { basename, dirname } from 'node:path';
import type { Summary } from '../../shared/model/summary';
import type { IsV8LensScript } from '../cpu/v8LensFrames';
import { v8LensScriptsOf } from '../run/analyzeRun';
import { readSessionRecord } from '../run/runRecords';

/** For a profile in a run folder's cpu/: that run's preload. Null anywhere else (nothing of V8 Lens's ran there). */
export async function v8LensScriptsBeside(profilePath: string): Promise<IsV8LensScript | null> {
  const folder = dirname(profilePath);
  if (basename(folder) !== 'cpu') return null;
  const session = await readSessionRecord(dirname(folder)).catch(() => null);
  return v8LensScriptsOf(session?.value ?? null);
}

/**
 * A summary written before `cpu.leftOut` existed listed V8 Lens's own functions as the app's: they
 * are taken out of its lists (functions, lines, tiers, deopts, allocations). Its durations still hold
 * their time, and a warning says so. Summaries with `leftOut` are returned as they are.
 */
export function withoutV8LensFunctions(summary: Summary, isV8Lens: IsV8LensScript | null): Summary {
  const cpu = summary.cpu;
  if (!cpu || cpu.leftOut || !isV8Lens) return summary;
  const theirs = (f: { url: string }) => !isV8Lens(f.url);
  const removed = cpu.functions.length - cpu.functions.filter(theirs).length;
  if (removed === 0) return summary;
  return {
    ...summary,
    cpu: { ...cpu, functions: cpu.functions.filter(theirs), lines: cpu.lines.filter(theirs) },
    ...(summary.tierHistory ? { tierHistory: { ...summary.tierHistory, functions: summary.tierHistory.functions.filter(theirs) } } : {}),
    deoptFunctions: summary.deoptFunctions.filter(theirs),
    optimizedFunctions: summary.optimizedFunctions.filter(theirs),
    ...(summary.alloc ? { alloc: { ...summary.alloc, functions: summary.alloc.functions.filter(theirs) } } : {}),
    warnings: [
      ...summary.warnings,
      `this summary was written before V8 Lens left its own agent out: its ${removed} function(s) are taken out of the lists, but the profile's duration still holds their time`,
    ],
  };
}
