/**
 * The figures the regression gate can hold a change to: one documented list (`v8-lens compare
 * --help`, README). Each reads one run's summary; null where the run did not collect it (the
 * gate then says "not collected", never compares a 0).
 */
import type { Summary } from '../../shared/model/summary';

export const GATE_METRIC_IDS = [
  'cpu.self',
  'cpu.busy',
  'gc.share',
  'gc.pauseMs',
  'gc.msPer1k',
  'gc.scavengesPer1k',
  'alloc.bytesPerRequest',
  'alloc.bytesPerSecond',
  'load.rps',
  'load.p99Ms',
] as const;

export type GateMetricId = (typeof GATE_METRIC_IDS)[number];

export interface GateMetricInfo {
  id: GateMetricId;
  /** What it is, one line for the help and the README. */
  description: string;
  unit: 'ms' | 'share' | 'count' | 'bytes' | 'req/s';
  /** What a run must have collected for it, for the reason a side did not measure it. */
  needs: string;
}

export const GATE_METRICS: Record<GateMetricId, GateMetricInfo> = {
  'cpu.self': { id: 'cpu.self', description: 'self time of each of the top 20 functions by self time in either run (ms; per 1k requests when both runs ran under load)', unit: 'ms', needs: 'a CPU profile (a preset with cpu)' },
  'cpu.busy': { id: 'cpu.busy', description: 'CPU time of the whole profile without (idle) and waiting threads (ms; per 1k requests under load)', unit: 'ms', needs: 'a CPU profile (a preset with cpu)' },
  'gc.share': { id: 'gc.share', description: 'GC pause as a share of wall time (under load: of the measured window)', unit: 'share', needs: 'the GC trace (a preset with gc)' },
  'gc.pauseMs': { id: 'gc.pauseMs', description: 'total GC pause, ms (under load: in the measured window)', unit: 'ms', needs: 'the GC trace (a preset with gc)' },
  'gc.msPer1k': { id: 'gc.msPer1k', description: 'GC pause per 1,000 requests in the measured window (under load only)', unit: 'ms', needs: 'a run under load (--url) with the GC trace' },
  'gc.scavengesPer1k': { id: 'gc.scavengesPer1k', description: 'scavenges per 1,000 requests in the measured window (under load only)', unit: 'count', needs: 'a run under load (--url) with the GC trace' },
  'alloc.bytesPerRequest': { id: 'alloc.bytesPerRequest', description: 'bytes allocated per request, garbage included (under load, with allocations sampled)', unit: 'bytes', needs: 'a run under load with allocations sampled (--preset cpu-gc-alloc --url)' },
  'alloc.bytesPerSecond': { id: 'alloc.bytesPerSecond', description: 'bytes allocated per second, garbage included (with allocations sampled)', unit: 'bytes', needs: 'allocations sampled (--preset cpu-gc-alloc)' },
  'load.rps': { id: 'load.rps', description: 'requests per second the load generator measured (a fall is the regression: use -N%)', unit: 'req/s', needs: 'a run under load (--url)' },
  'load.p99Ms': { id: 'load.p99Ms', description: 'p99 latency, ms (whole ms, as autocannon measures it)', unit: 'ms', needs: 'a run under load (--url)' },
};

export function isGateMetric(id: string): id is GateMetricId {
  return (GATE_METRIC_IDS as readonly string[]).includes(id);
}

/** Requests in a run's measured window; null without load. */
export function requestsOf(summary: Summary): number | null {
  const requests = summary.load?.figures?.requests ?? null;
  return requests !== null && requests > 0 ? requests : null;
}

/** One run's value of a scalar metric (every one but cpu.self); null when not collected. */
export function scalarOf(summary: Summary, id: Exclude<GateMetricId, 'cpu.self'>, perRequest: boolean): number | null {
  const requests = requestsOf(summary);
  const per1k = (value: number | null | undefined) => (value == null || requests === null ? null : (value / requests) * 1000);
  const window = summary.load?.gcInWindow ?? null;
  switch (id) {
    case 'cpu.busy': {
      const cpu = summary.cpu;
      if (!cpu) return null;
      // Off the CPU: the event loop idle, and threads blocked in Atomics.wait (a pool waiting for work).
      const busy = cpu.durationMs - cpu.pseudo.idleMs - (cpu.waitingMs ?? 0);
      return perRequest ? per1k(busy) : busy;
    }
    case 'gc.share':
      return window ? window.wallShare : (summary.gc?.wallShare ?? null);
    case 'gc.pauseMs':
      return window ? window.pauseMs : (summary.gc?.totalPauseMs ?? null);
    case 'gc.msPer1k':
      return per1k(window?.pauseMs);
    case 'gc.scavengesPer1k':
      return per1k(window?.scavenges);
    case 'alloc.bytesPerRequest':
      return summary.alloc?.bytesPerRequest ?? null;
    case 'alloc.bytesPerSecond':
      return summary.alloc?.bytesPerSecond ?? null;
    case 'load.rps':
      return summary.load?.figures?.rps ?? null;
    case 'load.p99Ms':
      return summary.load?.figures?.p99Ms ?? null;
  }
}

/** A function's identity across runs: name and file; anonymous ones also by where they start. */
export function functionKey(f: { name: string; url: string; line: number }): string {
  const anonymous = f.name === '' || f.name === '(anonymous)';
  return anonymous ? `(anonymous)\u0000${f.url}\u0000${f.line}` : `${f.name}\u0000${f.url}`;
}
