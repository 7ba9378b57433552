/**
 * GCs V8 Lens itself caused, kept apart from the app's. Stopping the allocation sampler makes V8
 * collect all garbage before it hands the profile over: a Mark-Compact whose reason is "sampling
 * profiler" (in one script it was 4.2 of 7.3 ms of pause, 58%). The agent counts its stops; that
 * many of an isolate's "sampling profiler" GCs, the last ones (the stops come at the window's close
 * or at the exit), are V8 Lens's. An app that runs a sampling heap profiler of its own keeps its
 * earlier ones. NVP lines before Node 26 print no reason: there nothing can be told apart.
 */
import type { GcEvent } from '../gc/gcEvent';
import type { IsolateEvents } from '../gc/gcSummary';
import type { RunProcess } from './processTable';

/** The reason V8 prints for the GC it runs before handing over a sampling heap profile. */
export const SAMPLER_GC_REASON = 'sampling profiler';

export function v8LensGcEvents(processes: readonly RunProcess[], isolates: readonly IsolateEvents[]): Set<GcEvent> {
  const ours = new Set<GcEvent>();
  for (const p of processes) {
    const stops = samplerStops(p);
    if (stops === 0 || p.isolate === null) continue;
    const group = isolates.find((i) => i.pid === p.pid && i.isolate === p.isolate);
    if (!group) continue;
    let left = stops;
    for (let i = group.events.length - 1; i >= 0 && left > 0; i--) {
      const e = group.events[i]!;
      if (e.reason === SAMPLER_GC_REASON) {
        ours.add(e);
        left--;
      }
    }
  }
  return ours;
}

/** The isolates with `drop` taken out of their events (the same objects otherwise). */
export function withoutEvents(isolates: readonly IsolateEvents[], drop: ReadonlySet<GcEvent>): IsolateEvents[] {
  if (drop.size === 0) return [...isolates];
  return isolates.map((i) => ({ ...i, events: i.events.filter((e) => !drop.has(e)) }));
}

/** Stops of this isolate's sampler; older agents did not count them: one at the end, one more at a window's opening. */
function samplerStops(p: RunProcess): number {
  const a = p.record?.allocations;
  if (!a) return 0;
  return a.samplerStops ?? (a.window ? 2 : 1);
}
