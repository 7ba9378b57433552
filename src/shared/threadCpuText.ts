/**
 * One thread's CPU at a glance, for the process tables (text report, report page): how much of its
 * life it was on the CPU as the OS counts it, and how much of its profile was waiting or idle. A
 * piscina worker blocked in Atomics.wait reads "2% CPU (0.27 s of 13.5 s) · 98% waiting", not "100% busy".
 */
import type { ProcessCpuSummary } from './model/summary';

/** The thread's own CPU over its wall time, 0–1; null when either is unknown. */
export function threadCpuShare(cpu: Pick<ProcessCpuSummary, 'threadCpuMs' | 'wallMs'>): number | null {
  const { threadCpuMs, wallMs } = cpu;
  return threadCpuMs != null && wallMs != null && wallMs > 0 ? Math.min(1, threadCpuMs / wallMs) : null;
}

/** The sampled time that was on the CPU (not idle, not waiting), ms. */
export function sampledOnCpuMs(cpu: Pick<ProcessCpuSummary, 'sampledMs' | 'idleShare' | 'waitingShare'>): number {
  return Math.max(0, cpu.sampledMs * (1 - cpu.idleShare - (cpu.waitingShare ?? 0)));
}

/** On-CPU time for picking the busiest thread: the OS's count when known, else the sampled estimate. */
export function onCpuMsOf(cpu: ProcessCpuSummary): number {
  return cpu.threadCpuMs ?? sampledOnCpuMs(cpu);
}

export function threadCpuText(cpu: ProcessCpuSummary): string {
  const share = threadCpuShare(cpu);
  const off: string[] = [];
  if ((cpu.waitingShare ?? 0) >= 0.005) off.push(`${pct(cpu.waitingShare!)} waiting`);
  if (cpu.idleShare >= 0.005) off.push(`${pct(cpu.idleShare)} idle`);
  const head =
    share !== null
      ? `${pct(share)} CPU (${seconds(cpu.threadCpuMs!)} of ${seconds(cpu.wallMs!)})`
      : `${pct(Math.max(0, 1 - cpu.idleShare - (cpu.waitingShare ?? 0)))} busy of ${seconds(cpu.sampledMs)} sampled`;
  return [head, ...off].join(' · ');
}

function pct(share: number): string {
  const p = share * 100;
  return `${p > 0 && p < 1 ? p.toFixed(1) : Math.round(p)}%`;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}
