/**
 * The processes and threads of a multi-process run (a cluster, forked children, worker threads):
 * one row each, with its role, pid, CPU and GC at a glance, and "All" first. Picking a row shows that
 * process alone in the flame graph, GC timeline and tables; "All" shows the run as a whole.
 */
import type { ProcessCpuSummary, ProcessSummary } from '../../src/shared/model/summary';
import { threadCpuText } from '../../src/shared/threadCpuText';
import { openingProcessId } from '../../src/shared/openingProcess';
import type { ProcessView, ReportModel } from '../../src/shared/reportProtocol';
import { youngGenerationParts } from '../../src/shared/youngGenerationText';
import { el } from '../common/dom';
import { fmtDuration, fmtNum, fmtPct } from '../common/format';

export const ALL_PROCESSES = 'all';

/** Where a report opens: a pool's busiest thread, else "all" (see shared/openingProcess.ts). */
export function defaultProcessId(model: ReportModel): string {
  const views = (model.processes ?? []).map((v) => ({ id: v.id, process: v.process, hasProfile: Boolean(v.timeProfile) }));
  return openingProcessId(views) ?? ALL_PROCESSES;
}

/** The model as the report draws it for one process, or the model itself for "all". */
export function modelForProcess(model: ReportModel, id: string): ReportModel {
  const view = model.processes?.find((v) => v.id === id);
  if (!view) return model;
  return {
    ...model,
    flame: view.flame,
    timeProfile: view.timeProfile ?? null,
    allocFlame: view.allocFlame ?? null,
    // The survivors pass ran other processes: its graph is of the whole run only.
    survivorsFlame: null,
    gcEvents: view.gcEvents,
    gcClock: 'isolate',
    loadWindow: view.loadWindow ?? null,
    summary: { ...model.summary, cpu: view.cpu, gc: view.gc, deopts: view.deopts, alloc: view.process.alloc ?? null, allocMissing: view.process.allocMissing },
  };
}

export function renderProcessPicker(section: HTMLElement, model: ReportModel, selected: string, onPick: (id: string) => void): void {
  const views = model.processes ?? [];
  section.append(el('h2', { text: `Processes and threads (${views.length})` }));
  const head = el('tr', {}, ...['', 'role', 'pid', 'CPU', 'GC', 'GC ms: main + helpers', 'young gen', 'deopts', 'command'].map((h) => el('th', { attrs: { scope: 'col' }, text: h })));
  const body = el('tbody');
  const all = model.summary;
  const allGc = all.gc ? `${all.gc.eventCount.toLocaleString('en-US')} · ${fmtPct(all.gc.wallShare, 1)}` : '–';
  body.append(row(ALL_PROCESSES, 'All', ['all', '', cpuText(all.cpu ? { profile: all.cpu.profile, sampledMs: all.cpu.durationMs, sampleCount: all.cpu.sampleCount, idleShare: all.cpu.durationMs > 0 ? all.cpu.pseudo.idleMs / all.cpu.durationMs : 0, waitingShare: all.cpu.durationMs > 0 ? (all.cpu.waitingMs ?? 0) / all.cpu.durationMs : 0 } : null), allGc, gcMsText(all.gc), youngText(all.gc), deoptsText(all.deoptCoverage === 'not-collected' ? null : all.deopts.reduce((n, d) => n + d.count, 0)), 'the whole run']));
  for (const v of views) body.append(row(v.id, v.label, cells(v)));
  section.append(el('table', { id: 'process-table', className: 'data-table process-table' }, el('thead', {}, head), body));

  function row(id: string, label: string, values: string[]): HTMLElement {
    const pressed = id === selected;
    const button = el('button', { className: 'process-pick', attrs: { type: 'button', 'aria-pressed': pressed ? 'true' : 'false', title: id === ALL_PROCESSES ? 'Show the whole run' : `Show ${label} alone` }, text: pressed ? '●' : '○' });
    const tr = el('tr', { className: pressed ? 'selected clickable' : 'clickable', attrs: { 'data-process-id': id } }, el('td', {}, button), ...values.map((v, i) => el('td', { className: i >= 2 && i <= 6 ? 'num' : '', text: v })));
    const pick = () => onPick(id);
    tr.addEventListener('click', pick);
    tr.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') pick();
    });
    return tr;
  }
}

function cells(v: ProcessView): string[] {
  const p: ProcessSummary = v.process;
  const pid = p.threadId !== null && p.threadId > 0 ? `${p.pid}/${p.threadId}` : String(p.pid);
  const gc = p.gc ? `${p.gc.eventCount.toLocaleString('en-US')} · ${fmtPct(p.gc.wallShare, 1)}` : '–';
  return [p.role, pid, cpuText(p.cpu), gc, gcMsText(p.gc), youngText(p.gc), deoptsText(p.deoptCount), p.command];
}

/** "48 + 31": the main thread's pause and V8's helper threads' GC time; "48 + ?" when the helpers were not traced. */
function gcMsText(gc: ProcessSummary['gc']): string {
  if (!gc) return '–';
  const helper = gc.helperThreads;
  return `${fmtNum(gc.totalPauseMs, 1)} + ${helper ? fmtNum(helper.ms, 1) : '?'}`;
}

/** "2% CPU (0.27 s of 13.5 s) · 98% waiting": the thread's own CPU as the OS counts it, and its profile's off-CPU shares. */
function cpuText(cpu: ProcessCpuSummary | null): string {
  return cpu ? threadCpuText(cpu) : '–';
}

function youngText(gc: ProcessSummary['gc']): string {
  if (!gc) return '–';
  const { size } = youngGenerationParts(gc.youngGeneration, gc.semiSpaceMB);
  return size ?? (gc.youngGeneration?.collector === null ? 'no young GC' : '–');
}

function deoptsText(count: number | null): string {
  return count === null ? 'not collected' : String(count);
}
