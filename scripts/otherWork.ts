/**
 * How much CPU the rest of the machine used while something was measured: /proc/stat's busy time
 * minus this process's and its descendants' (Linux). The load average cannot tell it on 2 cores,
 * where the measurement's own target and load generator make it 1-2 by themselves. Used by the
 * bench (a figure gets a verdict only on a quiet machine) and by tests that hold wall times.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** Linux's USER_HZ: /proc's CPU times are in these ticks. */
const TICKS_PER_SECOND = 100;

export interface CpuReading {
  /** The machine's busy ticks, all cores. */
  machine: number;
  /** This process's ticks, its reaped children's, and its live descendants'. */
  own: number;
  atMs: number;
}

/** The four CPU fields of a /proc/<pid>/stat (utime, stime, cutime, cstime) and its parent; null when gone. */
function procTicks(pid: string): { ppid: number; ticks: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' '); // f[0] is field 3 (state)
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
  } catch {
    return null;
  }
}

export function readCpu(): CpuReading | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is inside user)
    const machine = fields[0]! + fields[1]! + fields[2]! + fields[5]! + fields[6]! + (fields[7] ?? 0);
    const procs = new Map<number, { ppid: number; ticks: number }>();
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const p = procTicks(name);
      if (p) procs.set(Number(name), p);
    }
    // A descendant still running counts its own ticks (and its reaped children's); once reaped its
    // ticks move into its parent's cutime, so the sum stays the same across the reaping.
    const mine = (pid: number): boolean => {
      for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
        if (p === process.pid) return true;
        p = procs.get(p)?.ppid ?? 0;
      }
      return false;
    };
    let own = 0;
    for (const [pid, p] of procs) if (mine(pid)) own += p.ticks;
    return { machine, own, atMs: performance.now() };
  } catch {
    return null; // not Linux: the load average decides
  }
}

/** Cores of other processes' CPU since `start`; null where /proc cannot say or too little time passed. */
export function otherCoresSince(start: CpuReading): number | null {
  const now = readCpu();
  if (!now || now.atMs - start.atMs < 100) return null;
  const other = now.machine - start.machine - (now.own - start.own);
  return Math.max(0, other) / TICKS_PER_SECOND / ((now.atMs - start.atMs) / 1000);
}
