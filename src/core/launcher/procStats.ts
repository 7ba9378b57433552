import { readdirSync, readFileSync } from 'node:fs';

/**
 * What Linux tells about a running process, read from /proc: the only way to get another process's
 * CPU time at an exact moment (the window marks) without its help. Elsewhere these return null.
 */

/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat; 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat that V8 Lens reads. */
export interface ProcStat {
  /** R, S, D, Z (zombie), T… */
  state: string;
  /** Process group. */
  pgrp: number;
  /** User and system CPU time, clock ticks. */
  utime: number;
  stime: number;
  /** Clock ticks since boot when it started: orders processes by age. */
  startTicks: number;
}

/**
 * One line of /proc/<pid>/stat. The command name (field 2) is in parentheses and may contain spaces
 * or ')', so the fields are split after the last ')'; null when the line is not that.
 */
export function parseProcStat(line: string): ProcStat | null {
  const close = line.lastIndexOf(')');
  if (close === -1) return null;
  // fields[0] is field 3 (state): pgrp (5) is at 2, utime (14) and stime (15) at 11 and 12, starttime (22) at 19.
  const fields = line.slice(close + 2).split(' ');
  const state = fields[0] ?? '';
  const [pgrp, utime, stime, startTicks] = [fields[2], fields[11], fields[12], fields[19]].map(Number) as [number, number, number, number];
  if (state === '' || ![pgrp, utime, stime, startTicks].every(Number.isFinite)) return null;
  return { state, pgrp, utime, stime, startTicks };
}

/** /proc/<pid>/stat now; null elsewhere than Linux or when there is no such process. */
export function readProcStat(pid: number | string): ProcStat | null {
  if (process.platform !== 'linux') return null;
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** User + system CPU time of the whole process (all threads, GC helpers included), ms; null when unknown. */
export function processCpuMs(pid: number): number | null {
  const stat = readProcStat(pid);
  return stat === null ? null : ((stat.utime + stat.stime) * 1000) / CLOCK_TICKS_PER_SECOND;
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
    // null: the process ended between the listing and the read.
    if (readProcStat(name)?.pgrp === pgid) pids.push(Number(name));
  }
  return pids.sort((a, b) => a - b);
}

/** Per process of the group: CPU so far (ms) and peak RSS (MB); processes that cannot be read are left out. */
export function processGroupStats(pgid: number): Map<number, { cpuMs: number | null; peakRssMB: number | null }> {
  const stats = new Map<number, { cpuMs: number | null; peakRssMB: number | null }>();
  for (const pid of processGroupPids(pgid)) stats.set(pid, { cpuMs: processCpuMs(pid), peakRssMB: processPeakRssMB(pid) });
  return stats;
}
