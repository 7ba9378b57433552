import { readdirSync, readFileSync } from 'node:fs';

/**
 * What Linux tells about a running process, read from /proc: the only way to get another process's
 * CPU time at an exact moment (the window marks) without its help. Elsewhere these return null.
 */

/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat; 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU time of the whole process (all threads, GC helpers included), ms; null when unknown. */
export function processCpuMs(pid: number): number | null {
  if (process.platform !== 'linux') return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may contain spaces or ')': split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state), so utime (14) and stime (15) are at 11 and 12.
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
    return ((utime + stime) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Peak resident set size so far (VmHWM), MB; null when unknown. */
export function processPeakRssMB(pid: number): number | null {
  if (process.platform !== 'linux') return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmHWM:\s*(\d+)\s*kB/m.exec(status)?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}

/**
 * The processes of a process group (a target V8 Lens started leads its own): the app and every
 * process it started, such as cluster workers. Empty elsewhere than Linux, or when none is left.
 */
export function processGroupPids(pgid: number): number[] {
  if (process.platform !== 'linux') return [];
  const pids: number[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Field 5 (pgrp): the third field after the command name.
      const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (group === pgid) pids.push(Number(name));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return pids.sort((a, b) => a - b);
}

/** Per process of the group: CPU so far (ms) and peak RSS (MB); processes that cannot be read are left out. */
export function processGroupStats(pgid: number): Map<number, { cpuMs: number | null; peakRssMB: number | null }> {
  const stats = new Map<number, { cpuMs: number | null; peakRssMB: number | null }>();
  for (const pid of processGroupPids(pgid)) stats.set(pid, { cpuMs: processCpuMs(pid), peakRssMB: processPeakRssMB(pid) });
  return stats;
}
