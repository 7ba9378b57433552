/**
 * Where a multi-process report opens. A run with worker threads opens on its busiest thread by
 * on-CPU time (the OS's count when known, else the profile's on-CPU samples): a pool's "all" is
 * mostly workers waiting, and the bottom-up, callers & callees and CPU-over-time views work on one
 * thread at a time. Other runs (a cluster's processes) open on "all" (null).
 */
import type { ProcessSummary } from './model/summary';
import { onCpuMsOf } from './threadCpuText';

export function openingProcessId(views: readonly { id: string; process: ProcessSummary; hasProfile: boolean }[]): string | null {
  if (views.length < 2 || !views.some((v) => v.process.role === 'worker thread')) return null;
  let best: { id: string; ms: number } | null = null;
  for (const v of views) {
    const cpu = v.process.cpu;
    if (!cpu || !v.hasProfile) continue;
    const ms = onCpuMsOf(cpu);
    if (best === null || ms > best.ms) best = { id: v.id, ms };
  }
  return best?.id ?? null;
}
