/**
 * GC time on V8's helper threads inside a load's measured window, from the GC events' own phases
 * (gc/gcHelperTime.ts). Each event is placed on the epoch clock by its isolate's start (the agent
 * records `processStartMs`, performance.timeOrigin), as the allocations are (allocGcLink.ts): a GC
 * at the window's edge may fall on either side of it, which the window's main-thread figures (read
 * by the lines' arrival) can place otherwise.
 */
import { helperGcMs } from '../gc/gcHelperTime';
import type { IsolateEvents } from '../gc/gcSummary';
import { round } from '../util/stats';
import type { RunProcess } from './processTable';

/** ms; null when no GC of these processes in the window had V8's phases (not collected). */
export function helperMsInWindow(processes: readonly RunProcess[], isolates: readonly IsolateEvents[], window: { start: number; end: number }): number | null {
  let ms = 0;
  let read = 0;
  for (const p of processes) {
    const start = p.record?.processStartMs;
    if (start === undefined || p.isolate === null) continue;
    const group = isolates.find((i) => i.pid === p.pid && i.isolate === p.isolate);
    for (const e of group?.events ?? []) {
      const at = start + e.timeMs;
      if (at < window.start || at > window.end) continue;
      const helper = helperGcMs(e);
      if (helper === null) continue;
      read++;
      ms += helper;
    }
  }
  return read > 0 ? round(ms, 3) : null;
}
