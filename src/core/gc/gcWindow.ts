/**
 * The GC of a load's measured window, per process and in all. Each isolate's counts are read at the
 * window's start and end (as the trace lines arrive); the window's share is a true share: the pause
 * of all processes over the window times the processes alive in it. Summing every worker's pause
 * over one window said 22% for a cluster whose workers were each at 6–9%, and could pass 100%.
 */
import { isFullGc, isYoungGenerationGc } from './gcEvent';
import type { IsolateGcTally } from './gcTraceCollector';
import type { GcInWindow, GcInWindowFigures } from '../../shared/model/summary';
import { round } from '../util/stats';

export interface GcMark {
  /** Epoch ms. */
  at: number;
  isolates: IsolateGcTally[];
}

/** Per isolate with GC in the window, and in all over `processCount` processes (at least those with GC). */
export function gcInWindow(start: GcMark, end: GcMark, processCount = 0): GcInWindow {
  const windowMs = Math.max(0, end.at - start.at);
  const processes: GcInWindow['processes'] = [];
  for (const last of end.isolates) {
    const first = start.isolates.find((t) => t.pid === last.pid && t.isolate === last.isolate);
    const delta = (type: string) => (last.counts[type] ?? 0) - (first?.counts[type] ?? 0);
    const types = Object.keys(last.counts);
    const events = types.reduce((n, t) => n + delta(t), 0);
    if (events === 0) continue;
    const pauseMs = last.pauseMs - (first?.pauseMs ?? 0);
    processes.push({
      pid: last.pid,
      isolate: last.isolate,
      events,
      scavenges: types.filter(isYoungGenerationGc).reduce((n, t) => n + delta(t), 0),
      // Every full GC: "Mark-Compact", and Node 26's "Incremental Mark-Compact".
      markCompacts: types.filter(isFullGc).reduce((n, t) => n + delta(t), 0),
      pauseMs: round(pauseMs, 3),
      wallShare: windowMs > 0 ? round(pauseMs / windowMs, 6) : 0,
    });
  }
  return { ...windowTotals(processes, windowMs * Math.max(1, processCount, processes.length)), processes };
}

/** The sums of the given processes, with the pause over `wallMs` (their lives in the window, added up). */
export function windowTotals(processes: readonly GcInWindowFigures[], wallMs: number): GcInWindowFigures {
  const sum = (pick: (p: GcInWindowFigures) => number) => processes.reduce((n, p) => n + pick(p), 0);
  const pauseMs = sum((p) => p.pauseMs);
  return {
    events: sum((p) => p.events),
    scavenges: sum((p) => p.scavenges),
    markCompacts: sum((p) => p.markCompacts),
    pauseMs: round(pauseMs, 3),
    wallShare: wallMs > 0 ? round(Math.min(1, pauseMs / wallMs), 6) : 0,
  };
}
