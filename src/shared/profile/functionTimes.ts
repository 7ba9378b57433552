/**
 * The hot-functions table for a time range: each function's self time and total time, a recursive
 * function's total counting each sample once (its outermost call), heaviest self time first. The
 * `(V8 Lens)` frame (V8 Lens's own agent) is left out, and so are waiting frames (a thread blocked in
 * `Atomics.wait`: off the CPU, not a hot function; see shared/frameCategory.ts).
 */
import type { CpuFunctionSummary } from '../model/summary';
import type { ProfileIndex } from './profileIndex';

export interface FunctionTime extends CpuFunctionSummary {
  /** Index of the function in the profile (for a sandwich view of it). */
  fn: number;
}

export function functionTimes(index: ProfileIndex, selfUs: Float64Array): FunctionTime[] {
  const totals = index.totalUs(selfUs);
  const nodeFn = index.profile.nodeFn;
  const self = new Float64Array(index.functionCount);
  const total = new Float64Array(index.functionCount);
  // The root is not a function anyone wrote: its time is everybody's.
  for (let i = 1; i < index.nodeCount; i++) {
    const f = nodeFn[i]!;
    self[f]! += selfUs[i]!;
    if (index.outermost[i]) total[f]! += totals[i]!;
  }
  const rows: FunctionTime[] = [];
  for (let f = 0; f < index.functionCount; f++) {
    if (total[f]! <= 0) continue;
    const { name, url, line, column, category } = index.fn(f);
    // V8 Lens's own agent (one grey frame) is drawn, never listed among the app's functions.
    if (category === 'tool' || category === 'waiting') continue;
    rows.push({ fn: f, name, url, line, column, selfMs: self[f]! / 1000, totalMs: total[f]! / 1000 });
  }
  return rows.sort((a, b) => b.selfMs - a.selfMs || b.totalMs - a.totalMs);
}
