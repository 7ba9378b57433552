/**
 * The calling thread's own CPU time and kernel thread id, read by the agent in each thread it runs
 * in. `process.resourceUsage()` counts the whole process (every worker, V8's GC and compiler helpers),
 * so a worker thread blocked in `Atomics.wait` would look as busy as the process; these count one
 * thread. Exact where they exist: `process.threadCpuUsage()` (Node 22.19+/23.9+: getrusage of the
 * thread), else Linux's `/proc/thread-self/schedstat` (nanoseconds the thread ran); null elsewhere.
 */
import { readFileSync, readlinkSync } from 'node:fs';

export type ThreadCpuSource = 'threadCpuUsage' | 'schedstat';

export interface ThreadCpuReading {
  /** User + system CPU time of this thread so far, µs. */
  us: number;
  source: ThreadCpuSource;
}

type ThreadCpuUsage = () => { user: number; system: number };

/** This thread's CPU time now; null when neither source is there. Never throws. */
export function readThreadCpu(): ThreadCpuReading | null {
  const usage = (process as unknown as { threadCpuUsage?: ThreadCpuUsage }).threadCpuUsage;
  if (typeof usage === 'function') {
    try {
      const { user, system } = usage.call(process);
      return { us: user + system, source: 'threadCpuUsage' };
    } catch {
      // fall through to /proc
    }
  }
  if (process.platform !== 'linux') return null;
  try {
    // "<ns on CPU> <ns waiting on a run queue> <time slices>"
    const ns = Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ', 1)[0]);
    return Number.isFinite(ns) && ns >= 0 ? { us: Math.round(ns / 1000), source: 'schedstat' } : null;
  } catch {
    return null;
  }
}

/** The kernel's id of this thread (Linux: /proc/thread-self → "<pid>/task/<tid>"); null elsewhere. */
export function ownThreadId(): number | null {
  if (process.platform !== 'linux') return null;
  try {
    const tid = Number(/\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1]);
    return Number.isSafeInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}
