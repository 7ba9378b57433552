/**
 * A profile's waiting time: the self time of frames that are a thread blocked off the CPU (see
 * `isWaitingFrame` in shared/frameCategory.ts), and the part of each source line's time that is
 * theirs, so the summary can leave both out of its functions and lines.
 */
import { isWaitingFrame } from '../../shared/frameCategory';
import type { CpuModel } from './cpuModel';

export interface WaitingTime {
  /** Indices into `model.functions` of the waiting functions. */
  functions: Set<number>;
  /** Their self time in all, µs. */
  us: number;
  /** Per `url\0line`, the µs of line time that is theirs (split over position ticks as the lines are). */
  lineUs: Map<string, number>;
}

export function waitingTime(model: CpuModel): WaitingTime {
  const functions = new Set<number>();
  model.functions.forEach((f, i) => {
    if (isWaitingFrame(f.name, f.url)) functions.add(i);
  });
  let us = 0;
  const lineUs = new Map<string, number>();
  if (functions.size === 0) return { functions, us, lineUs };
  for (const i of functions) us += model.functions[i]!.selfUs;
  const { nodes } = model.profile;
  for (let n = 0; n < nodes.length; n++) {
    const self = model.nodeSelfUs[n]!;
    if (self <= 0 || !functions.has(model.nodeFunction[n]!)) continue;
    const ticks = nodes[n]!.positionTicks;
    let sum = 0;
    for (const t of ticks) sum += t.ticks;
    if (sum <= 0) continue;
    const url = model.functions[model.nodeFunction[n]!]!.url;
    for (const t of ticks) {
      const key = `${url}\u0000${t.line}`;
      lineUs.set(key, (lineUs.get(key) ?? 0) + (self * t.ticks) / sum);
    }
  }
  return { functions, us, lineUs };
}
