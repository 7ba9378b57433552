import type { GcEvent } from '../gc/gcEvent';

/**
 * The main isolate (`pid:isolate`) of each process that had collected garbage by `end` (epoch ms):
 * the one created first, by its lines' arrival less their own clock (ms since the isolate started),
 * since a process's worker threads start after its main thread. A process's first GC line can be a
 * worker's (a pool's workers load their code while the main thread is still quiet).
 */
export function servingIsolates(events: readonly GcEvent[], arrivals: readonly number[], end: number): Set<string> {
  const born = new Map<string, { pid: number; at: number }>();
  events.forEach((e, i) => {
    if (arrivals[i]! > end) return;
    const key = `${e.pid}:${e.isolate}`;
    const at = arrivals[i]! - e.timeMs;
    const known = born.get(key);
    if (!known || at < known.at) born.set(key, { pid: e.pid, at });
  });
  const first = new Map<number, { key: string; at: number }>();
  for (const [key, { pid, at }] of born) {
    const best = first.get(pid);
    if (!best || at < best.at) first.set(pid, { key, at });
  }
  return new Set([...first.values()].map((f) => f.key));
}
