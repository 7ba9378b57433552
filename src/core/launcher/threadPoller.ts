/**
 * Each thread's own CPU time, read from outside the target (Linux): every 100 ms the CPU of every
 * thread of the run's processes, from /proc/<pid>/task/<tid>/schedstat (nanoseconds on CPU). A
 * worker thread blocked in `Atomics.wait` never runs its agent's timers, and Node runs no exit
 * handler in a worker it terminates, so the thread cannot say itself how little it ran: the last
 * reading before it ended does (a waiting thread spends nothing between it and its end). Costs the
 * target nothing; elsewhere than Linux it reads nothing and the figures are "not collected".
 *
 * It does cost the target's machine what the CLI spends on it, taken from the target's GC helper
 * threads on 2 cores: opening, reading and closing each thread's file every 100 ms was a third of
 * the CLI's CPU while an allocation-heavy script ran (32 of 100 ms in 2.5 s). So each thread's file
 * stays open and is read again from its start (a /proc file is made anew by each read at offset 0).
 */
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { readProcStat } from './procStats';

export const THREAD_POLL_MS = 100;
/** Threads kept at most (a target that starts thousands of short threads must not grow the CLI). */
const MAX_THREADS = 5000;
/** Threads whose file is kept open at most; the others' are opened at each reading. */
const MAX_OPEN_FILES = 256;

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
  /** The open schedstat file of each thread seen at the last reading, by `pid/tid`. */
  private readonly files = new Map<string, number>();
  private readonly buffer = Buffer.alloc(128);

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
    for (const fd of this.files.values()) closeQuietly(fd);
    this.files.clear();
  }

  /** null when nothing was read (not Linux, or no process was found). */
  record(): ThreadCpuRecord | null {
    if (this.threads.size === 0) return null;
    return { schemaVersion: 1, source: this.source, intervalMs: THREAD_POLL_MS, threads: [...this.threads.values()] };
  }

  read(): void {
    const now = Date.now();
    const seen = new Set<string>();
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
        const key = `${pid}/${tid}`;
        seen.add(key);
        const cpuMs = this.threadCpuMs(pid, tid, key);
        if (cpuMs === null) continue;
        const known = this.threads.get(key);
        if (known) {
          known.cpuMs = cpuMs;
          known.lastSeenMs = now;
        } else if (this.threads.size < MAX_THREADS) {
          this.threads.set(key, { pid, tid, cpuMs, firstSeenMs: now, lastSeenMs: now });
        }
      }
    }
    // An ended thread's file says nothing more, and its number may be given to a new thread.
    for (const [key, fd] of this.files) {
      if (seen.has(key)) continue;
      closeQuietly(fd);
      this.files.delete(key);
    }
  }

  private threadCpuMs(pid: number, tid: number, key: string): number | null {
    if (this.source === 'schedstat') {
      try {
        const ns = this.readSchedstatNs(pid, tid, key);
        return ns === null ? null : ns / 1e6;
      } catch (err) {
        // A kernel without schedstats: the clock ticks of stat, from now on for every thread.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !this.taskExists(pid, tid)) return null;
        this.source = 'stat';
      }
    }
    const stat = readProcStat(`${pid}/task/${tid}`);
    return stat === null ? null : (stat.utime + stat.stime) * 10;
  }

  /** The thread's nanoseconds on CPU, the first field of its schedstat; null when it has ended. */
  private readSchedstatNs(pid: number, tid: number, key: string): number | null {
    let fd = this.files.get(key);
    if (fd === undefined) {
      fd = openSync(`/proc/${pid}/task/${tid}/schedstat`, 'r');
      if (this.files.size < MAX_OPEN_FILES) this.files.set(key, fd);
    }
    let length = 0;
    try {
      length = readSync(fd, this.buffer, 0, this.buffer.length, 0);
    } catch {
      // ESRCH: the thread ended since the listing (a new thread given its number gets a new file).
      this.files.delete(key);
    } finally {
      if (this.files.get(key) !== fd) closeQuietly(fd);
    }
    let ns = 0;
    let digits = 0;
    for (; digits < length; digits++) {
      const byte = this.buffer[digits]!;
      if (byte < 0x30 || byte > 0x39) break;
      ns = ns * 10 + (byte - 0x30);
    }
    return digits > 0 ? ns : null;
  }

  private taskExists(pid: number, tid: number): boolean {
    return readProcStat(`${pid}/task/${tid}`) !== null;
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}
