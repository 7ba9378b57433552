/**
 * One CPU summary for a run of several profiles (processes, worker threads): each function's and
 * line's times summed over the profiles, with the pids it ran in. Durations add up too, so a share
 * (self / duration) is a share of all the CPU time sampled, whichever process spent it. Each function
 * and line also gets the on-CPU time of the threads it ran on (`onCpuMs`) when that is not all of it:
 * a worker's function is a share of that worker's work, not of idle threads' time.
 */
import type { CpuFunctionSummary, CpuLineSummary, CpuProfileFile, CpuSummary } from '../../shared/model/summary';
import { round } from '../util/stats';
import { compareText } from '../util/compareText';

export interface CpuPart {
  pid: number | null;
  summary: Omit<CpuSummary, 'profiles'>;
}

export function mergeCpuSummaries(parts: readonly CpuPart[], main: CpuPart, profiles: CpuProfileFile[]): CpuSummary {
  if (parts.length === 1) return { ...parts[0]!.summary, profiles };
  const functions = new Map<string, CpuFunctionSummary & { pidSet: Set<number>; onCpu: number }>();
  const lines = new Map<string, CpuLineSummary & { onCpu: number }>();
  const waiting = new Map<string, CpuFunctionSummary>();
  let waitingMs = 0;
  let onCpuMs = 0;
  let durationMs = 0;
  let sampleCount = 0;
  const pseudo = { gcMs: 0, idleMs: 0, programMs: 0 };
  const leftOut = { v8LensMs: 0, v8LensSamples: 0, beforeFirstSampleMs: 0 };
  for (const { pid, summary } of parts) {
    const partOnCpu = summary.onCpuMs ?? Math.max(0, summary.durationMs - summary.pseudo.idleMs);
    onCpuMs += partOnCpu;
    waitingMs += summary.waitingMs ?? 0;
    for (const w of summary.waiting ?? []) {
      const key = `${w.name}\u0000${w.url}\u0000${w.line}\u0000${w.column}`;
      const sum = waiting.get(key);
      if (sum) {
        sum.selfMs += w.selfMs;
        sum.totalMs += w.totalMs;
      } else waiting.set(key, { ...w });
    }
    durationMs += summary.durationMs;
    sampleCount += summary.sampleCount;
    leftOut.v8LensMs += summary.leftOut?.v8LensMs ?? 0;
    leftOut.v8LensSamples += summary.leftOut?.v8LensSamples ?? 0;
    leftOut.beforeFirstSampleMs += summary.leftOut?.beforeFirstSampleMs ?? 0;
    pseudo.gcMs += summary.pseudo.gcMs;
    pseudo.idleMs += summary.pseudo.idleMs;
    pseudo.programMs += summary.pseudo.programMs;
    for (const f of summary.functions) {
      const key = `${f.name}\u0000${f.url}\u0000${f.line}\u0000${f.column}`;
      let sum = functions.get(key);
      if (sum === undefined) functions.set(key, (sum = { ...f, selfMs: 0, totalMs: 0, pidSet: new Set(), onCpu: 0 }));
      sum.selfMs += f.selfMs;
      sum.totalMs += f.totalMs;
      sum.onCpu += partOnCpu;
      if (pid !== null) sum.pidSet.add(pid);
    }
    for (const l of summary.lines) {
      const key = `${l.url}\u0000${l.line}`;
      const sum = lines.get(key);
      if (sum === undefined) lines.set(key, { ...l, onCpu: partOnCpu });
      else {
        sum.selfMs += l.selfMs;
        sum.onCpu += partOnCpu;
      }
    }
  }
  return {
    profile: main.summary.profile,
    durationMs: round(durationMs, 3),
    sampleCount,
    sampleIntervalMs: main.summary.sampleIntervalMs,
    functions: [...functions.values()]
      .map(({ pidSet, onCpu, ...f }) => ({ ...f, selfMs: round(f.selfMs, 3), totalMs: round(f.totalMs, 3), pids: [...pidSet].sort((a, b) => a - b), ...ownOnCpu(onCpu, onCpuMs) }))
      .sort((a, b) => b.selfMs - a.selfMs || b.totalMs - a.totalMs || compareText(a.url, b.url) || a.line - b.line || a.column - b.column || compareText(a.name, b.name)),
    lines: [...lines.values()].map(({ onCpu, ...l }) => ({ ...l, selfMs: round(l.selfMs, 3), ...ownOnCpu(onCpu, onCpuMs) })).sort((a, b) => b.selfMs - a.selfMs || compareText(a.url, b.url) || a.line - b.line),
    pseudo: { gcMs: round(pseudo.gcMs, 3), idleMs: round(pseudo.idleMs, 3), programMs: round(pseudo.programMs, 3) },
    waitingMs: round(waitingMs, 3),
    ...(waiting.size > 0 ? { waiting: [...waiting.values()].map((w) => ({ ...w, selfMs: round(w.selfMs, 3), totalMs: round(w.totalMs, 3) })).sort((a, b) => b.selfMs - a.selfMs) } : {}),
    onCpuMs: round(onCpuMs, 3),
    ...(parts.every((p) => p.summary.leftOut) ? { leftOut: { ...leftOut, v8LensMs: round(leftOut.v8LensMs, 3), beforeFirstSampleMs: round(leftOut.beforeFirstSampleMs, 3) } } : {}),
    profiles,
  };
}

/** `onCpuMs` for an entry whose threads' on-CPU time is not the whole run's (absent when it is). */
function ownOnCpu(own: number, all: number): { onCpuMs?: number } {
  return Math.abs(own - all) < 0.0005 ? {} : { onCpuMs: round(own, 3) };
}
