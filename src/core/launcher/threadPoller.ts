/**
 * Each thread's own CPU time, read from outside the target (Linux): every 100 ms the CPU of every
 * thread of the run's processes, from /proc/<pid>/task/<tid>/schedstat (nanoseconds on CPU). A
 * worker thread blocked in `Atomics.wait` never runs its agent's timers, and Node runs no exit
 * handler in a worker it terminates, so the thread cannot say itself how little it ran: the last
 * reading before it ended does (a waiting thread spends nothing between it and its end). Costs the
 * target nothing; elsewhere than Linux it reads nothing and the figures are "not collected".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { readProcStat } from './procStats';

export const THREAD_POLL_MS = 100;
/** Threads kept at most (a target that starts thousands of short threads must not grow the CLI). */
const MAX_THREADS = 5000;

export interface PolledThread {
  pid: number;
  tid: number;
  /** CPU time at the last reading, ms. */
  cpuMs: number;
  /** Epoch ms of the first and last reading that saw it. */
  firstSeenMs: number;
  lastSeenMs: number;
}

/** `threads.json` in the run folder. */
export interface ThreadCpuRecord {
  schemaVersion: 1;
  /** What the figures are: nanoseconds on CPU (schedstat), or clock ticks of 10 ms (stat) where schedstat is missing. */
  source: 'schedstat' | 'stat';
  intervalMs: number;
  threads: PolledThread[];
}

export class ThreadPoller {
  private readonly threads = new Map<string, PolledThread>();
  private source: ThreadCpuRecord['source'] = 'schedstat';
  private timer: NodeJS.Timeout | null = null;

  /** `pids` says which processes are the run's, asked at each reading. */
  constructor(private readonly pids: () => Iterable<number>) {}

  start(): void {
    if (process.platform !== 'linux' || this.timer !== null) return;
    this.read();
    this.timer = setInterval(() => this.read(), THREAD_POLL_MS);
    this.timer.unref();
  }

  /** Stops reading; what was read is kept. */
  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** null when nothing was read (not Linux, or no process was found). */
  record(): ThreadCpuRecord | null {
    if (this.threads.size === 0) return null;
    return { schemaVersion: 1, source: this.source, intervalMs: THREAD_POLL_MS, threads: [...this.threads.values()] };
  }

  read(): void {
    const now = Date.now();
    for (const pid of this.pids()) {
      let tids: string[];
      try {
        tids = readdirSync(`/proc/${pid}/task`);
      } catch {
        continue; // ended
      }
      for (const name of tids) {
        const tid = Number(name);
        if (!Number.isSafeInteger(tid)) continue;
        const cpuMs = this.threadCpuMs(pid, tid);
        if (cpuMs === null) continue;
        const key = `${pid}/${tid}`;
        const known = this.threads.get(key);
        if (known) {
          known.cpuMs = cpuMs;
          known.lastSeenMs = now;
        } else if (this.threads.size < MAX_THREADS) {
          this.threads.set(key, { pid, tid, cpuMs, firstSeenMs: now, lastSeenMs: now });
        }
      }
    }
  }

  private threadCpuMs(pid: number, tid: number): number | null {
    if (this.source === 'schedstat') {
      try {
        const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'latin1').split(' ', 1)[0]);
        if (Number.isFinite(ns)) return ns / 1e6;
      } catch (err) {
        // A kernel without schedstats: the clock ticks of stat, from now on for every thread.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !this.taskExists(pid, tid)) return null;
        this.source = 'stat';
      }
    }
    const stat = readProcStat(`${pid}/task/${tid}`);
    return stat === null ? null : (stat.utime + stat.stime) * 10;
  }

  private taskExists(pid: number, tid: number): boolean {
    return readProcStat(`${pid}/task/${tid}`) !== null;
  }
}
