import { pauseEstimateText, traceAgreementText, youngGcCadenceText } from '../../shared/allocText';
import { fmtBytes } from '../../shared/formatBytes';
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeYoungGeneration, requestedSemiSpaceText } from '../../shared/youngGenerationText';
import { pretenuringText, siteCostText, siteOwnerText } from '../../shared/pretenuringText';
import { HELPER_GC_HOW, gcCpuPer1kText, gcCpuText, helperPhasesText } from '../../shared/gcCpuText';
import { deoptEventCount } from '../../shared/deoptText';
import { hasGap, selfCheckGaps } from '../../shared/selfCheckText';
import { tierClockText, tierNowText, tierSummaryText } from '../../shared/tierText';
import { inlinedLinesText } from '../../shared/inlinedLinesText';
import { threadCpuText } from '../../shared/threadCpuText';
import { predictionLines } from './predictionReport';
import type { LoadSummary, ProcessSummary, Summary, SurvivorFunction, SurvivorsSummary } from '../../shared/model/summary';
import { COPY_ESTIMATE_NOTE, survivalRateBasisText, survivalRateText, survivorsTotalText, survivorsYoungGcText } from '../../shared/survivorsText';

export interface TextReportOptions {
  /** Paths under this folder are shown relative to it. */
  cwd: string;
  topFunctions?: number;
  topDeopts?: number;
}

/** The short human summary the CLI prints: top self time, GC counts and pauses, deopts. */
export function formatTextReport(summary: Summary, options: TextReportOptions): string {
  const out: string[] = [];
  const place = (url: string, line: number, column?: number) => formatLocation(url, line, column, options.cwd);

  // What V8 wrote that could not be read comes first: every figure below is short by it.
  const gaps = selfCheckGaps(summary.selfCheck);
  if (gaps.length > 0) {
    for (const gap of gaps) out.push(`WARNING: ${gap.text}`);
    out.push('');
  }

  const load = summary.load;
  if (load) out.push(formatLoadLine(load));

  const processes = summary.processes ?? [];
  if (processes.length > 1) {
    out.push(formatProcesses(processes));
    out.push('');
  }

  const cpu = summary.cpu;
  if (cpu) {
    out.push(
      cpu.profiles.length > 1
        ? `CPU profiles: ${cpu.profiles.length} (one per process and thread), ${fmtMs(cpu.durationMs)} sampled in all, every ~${fmtNum(cpu.sampleIntervalMs, 2)} ms; the functions below are summed over them`
        : `CPU profile: ${fmtMs(cpu.durationMs)} ${cpu.leftOut ? 'sampled' : 'wall'}, ${cpu.sampleCount.toLocaleString('en-US')} samples every ~${fmtNum(cpu.sampleIntervalMs, 2)} ms  (${cpu.profile})`,
    );
    const leftOut = leftOutText(cpu.leftOut);
    if (leftOut) out.push(leftOut);
    if (cpu.waitingMs && cpu.waiting && cpu.waiting.length > 0) {
      out.push(`  waiting, off the CPU (threads blocked in Atomics.wait), in no function below: ${fmtMs(cpu.waitingMs)} in ${cpu.waiting.map((w) => w.name).join(', ')}`);
    }
    const rows = cpu.functions.slice(0, options.topFunctions ?? 10);
    if (rows.length > 0) {
      out.push(table(
        ['self ms', 'self %', 'total ms', 'function', 'location'],
        rows.map((f) => [fmtNum(f.selfMs, 1), pct(f.selfMs, cpu.durationMs), fmtNum(f.totalMs, 1), f.name, f.url ? place(f.url, f.line, f.column) : '']),
        [true, true, true, false, false],
      ));
    }
    const hot = cpu.lines[0];
    if (hot) out.push(`Hottest line: ${place(hot.url, hot.line)}  ${fmtNum(hot.selfMs, 1)} ms self`);
    const inlined = inlinedLinesText(cpu.inlinedLines);
    if (inlined) out.push(inlined);
    out.push('');
  }

  const gc = summary.gc;
  if (gc) {
    const isolates = 1 + gc.otherIsolates.length;
    const who = processes.length > 1 || isolates > 1 ? ` (all ${Math.max(isolates, processes.filter((p) => p.gc).length)} processes and threads)` : gc.isolate ? ` (pid ${gc.isolate.pid})` : '';
    const wall = processes.length > 1 || isolates > 1 ? `${fmtMs(gc.wallMs)} of their wall time added up` : `${fmtMs(gc.wallMs)} wall`;
    const gcLines = summary.selfCheck?.gcLines;
    const unread = gcLines && gcLines.seen > gcLines.read ? ` (of ${gcLines.seen} V8 printed: ${gcLines.seen - gcLines.read} could not be read)` : '';
    if (gc.shareOf) {
      // With worker threads: the share of the threads that served the app, each thread's own below.
      const others = processes.filter((p) => p.gc && !gc.shareOf!.processes.includes(p.id));
      const beside = others.length > 0 ? `; ${others.map((p) => `${p.threadId ? `thread ${p.threadId}` : `pid ${p.pid}`} ${fmtNum(p.gc!.wallShare * 100, 1)}%`).join(', ')} of their own` : '';
      out.push(`GC${who}: ${gc.eventCount} events${unread}, ${fmtNum(gc.totalPauseMs, 1)} ms paused; ${gc.shareOf.label}: ${fmtNum(gc.shareOf.pauseMs, 1)} ms = ${fmtNum(gc.wallShare * 100, 1)}% of its ${fmtMs(gc.wallMs)}${beside}`);
    } else out.push(`GC${who}: ${gc.eventCount} events${unread}, ${fmtNum(gc.totalPauseMs, 1)} ms paused = ${fmtNum(gc.wallShare * 100, 1)}% of ${wall}`);
    const types = Object.entries(gc.byType).sort((a, b) => b[1].totalMs - a[1].totalMs);
    if (types.length > 0) {
      out.push(table(
        ['type', 'count', 'total ms', 'mean ms', 'p95 ms', 'max ms'],
        types.map(([type, s]) => [type, String(s.count), fmtNum(s.totalMs, 1), fmtNum(s.meanMs, 2), fmtNum(s.p95Ms, 2), fmtNum(s.maxMs, 2)]),
        [false, true, true, true, true, true],
      ));
    }
    if (gc.incrementalMarkingMs > 0) out.push(`Incremental marking before Mark-Compacts: ${fmtNum(gc.incrementalMarkingMs, 1)} ms more on the main thread`);
    out.push(helperLine(gc));
    const young = describeYoungGeneration(gc.youngGeneration, gc.semiSpaceMB, processes.filter((p) => p.gc?.youngGeneration?.collector).length);
    out.push(`Young generation: ${young}; asked: ${requestedSemiSpaceText(gc.semiSpaceRequestedMB)}`);
    if (gc.pretenuring !== undefined && gc.pretenuring !== null) {
      out.push(`Pretenuring: ${pretenuringText(gc.pretenuring)}`);
      // Each tenured site (the first few): its likely function and what tenuring it cost.
      for (const site of gc.pretenuring.tenured.slice(0, 5)) {
        const cost = siteCostText(site);
        out.push(`  site ${site.site} (pid ${site.pid}): ${siteOwnerText(site, place)}${cost ? `; ${cost}` : ''}`);
      }
    }
    const ours = gc.causedByV8Lens;
    if (ours) {
      const kinds = Object.entries(ours.byType).map(([type, n]) => `${n} ${type}`).join(', ');
      out.push(`Caused by V8 Lens: ${kinds}, ${fmtNum(ours.pauseMs, 1)} ms, by ${ours.why}; left out of every GC figure above`);
    }
    out.push('');
  }

  const alloc = summary.alloc;
  if (alloc) {
    const rate = alloc.bytesPerSecond !== null ? `${fmtBytes(alloc.bytesPerSecond)}/s` : 'rate unknown';
    const perRequest = alloc.bytesPerRequest !== null ? ` · ${fmtBytes(alloc.bytesPerRequest)} per request` : '';
    const window = load?.figures ? ' in the measured window' : '';
    const exact = alloc.exactSites ? ', exact sites (inlining off)' : '';
    if (alloc.liveOnly) out.push(`Heap in use when the profile was taken: ${fmtBytes(alloc.totalBytes)}, live objects only (not all that was allocated)${alloc.samplingIntervalBytes > 0 ? `, sampled every ${fmtBytes(alloc.samplingIntervalBytes)}` : ''}`);
    else out.push(`Allocations${window}: ${fmtBytes(alloc.totalBytes)} (${rate}${perRequest}), sampled every ${fmtBytes(alloc.samplingIntervalBytes)}, garbage included${exact}`);
    const link = alloc.gcLink;
    if (link) {
      const agreement = traceAgreementText(link);
      out.push(`GC ← allocations: ${youngGcCadenceText(link)}${agreement ? `; ${agreement}` : ''}`);
      if (link.disagreement) out.push(`  Check: ${link.disagreement}`);
    }
    if (alloc.inliningCaveat) out.push(`  Note: ${alloc.inliningCaveat}`);
    const rows = alloc.functions.slice(0, options.topFunctions ?? 10);
    if (rows.length > 0) {
      const estimate = (ms: number | null | undefined) => (ms === null || ms === undefined ? '' : pauseEstimateText(ms));
      out.push(table(
        ['self', 'share', 'total', 'young-GC pause (est.)', 'function', 'location'],
        rows.map((f) => [fmtBytes(f.selfBytes), `${fmtNum(f.share * 100, 1)}%`, fmtBytes(f.totalBytes), estimate(f.youngGcPauseMsEstimate), f.name, f.url ? place(f.url, f.line, f.column) : '']),
        [true, true, true, true, false, false],
      ));
      if (link) out.push(`  (est.): each function's share of the bytes × the young-GC pause; most sampled bytes die young`);
    }
    out.push('');
  } else if (summary.source.kind === 'run' && summary.alloc === null) {
    out.push(`Allocations: not collected (${summary.allocMissing ?? 'the cpu-gc-alloc preset samples them'})`, '');
  }
  if (summary.survivors) out.push(...survivorsLines(summary.survivors, options.topFunctions ?? 10, place), '');
  const prediction = predictionLines(summary.prediction, summary.load ? summary.predictionMissing : null);
  if (prediction.length > 0) out.push(...prediction, '');

  // Deopts not collected (an npm script, an attached process, a preset without them, a lost trace)
  // are said so with their reason, never as "none"; the reason is not repeated among the notes.
  const deoptReasons = summary.deoptCoverage === 'not-collected' ? summary.warnings.filter(isAboutDeopts) : [];
  if (summary.source.kind === 'run' || summary.deopts.length > 0) {
    const events = deoptEventCount(summary);
    const partial = summary.deoptCoverage !== 'partial' ? '' : hasGap(summary.selfCheck, 'deopts') ? ' (incomplete: V8 traced more than V8 Lens could read)' : ' (some processes not collected)';
    if (summary.deoptCoverage === 'not-collected') out.push(`Deopts: not collected${deoptReasons.length > 0 ? ` (${deoptReasons.join('; ')})` : ''}`);
    else if (summary.deopts.length === 0 && hasGap(summary.selfCheck, 'deopts')) out.push(`Deopts: V8 traced ${summary.selfCheck!.deopts!.seen}, none could be read`);
    else out.push(summary.deopts.length === 0 ? `Deopts: none recorded${partial}` : `Deopts: ${summary.deopts.length} site(s), ${events} event(s)${partial}`);
    const rows = summary.deopts.slice(0, options.topDeopts ?? 10);
    if (rows.length > 0) {
      out.push(table(
        ['count', 'reason', 'function', 'where', 'kind'],
        rows.map((d) => [
          String(d.count),
          d.reason,
          d.function,
          place(d.url, d.line, d.column) + d.inlinedAt.map((p) => ` inlined at ${place(p.url, p.line, p.column)}`).join(''),
          d.kind + deoptNotes(d, processes.length > 1),
        ]),
        [true, false, false, false, false],
      ));
    }
    out.push('');
  }

  const tiers = summary.tierHistory;
  if (tiers && tiers.functions.length > 0) {
    const ended = tiers.functions.filter((f) => f.tierNow !== null).length;
    out.push(`Tiers of the ${tiers.functions.length} hottest functions (${ended} ended optimized; ${tierClockText(tiers)}):`);
    out.push(table(
      ['self ms', 'function', 'now', 'history', 'where'],
      tiers.functions.slice(0, options.topDeopts ?? 10).map((f) => [fmtNum(f.selfMs, 1), f.function, tierNowText(f), tierSummaryText(f), place(f.url, f.line, f.column)]),
      [true, false, false, false, false],
    ));
    out.push('');
  }

  // The load line above already says why nothing was measured.
  const shownAbove = new Set([...deoptReasons, ...(load && !load.figures && load.error ? [`load: ${load.error}`] : [])]);
  for (const w of summary.warnings) if (!shownAbove.has(w)) out.push(`note: ${w}`);
  return `${out.join('\n').trimEnd()}\n`;
}

/** Profiled time in no figure, said once: V8 Lens's own agent, and the stretch before the first sample. */
function leftOutText(leftOut: NonNullable<Summary['cpu']>['leftOut']): string | null {
  if (!leftOut) return null;
  const parts: string[] = [];
  if (leftOut.v8LensSamples > 0) parts.push(`V8 Lens's agent ${fmtMs(leftOut.v8LensMs)} (${leftOut.v8LensSamples.toLocaleString('en-US')} samples on the app's threads)`);
  if (leftOut.beforeFirstSampleMs > 0) parts.push(`${fmtMs(leftOut.beforeFirstSampleMs)} before the first sample (no function is known for it)`);
  return parts.length > 0 ? `  left out of every figure: ${parts.join('; ')}` : null;
}

/** Which processes a deopt happened in (several-process runs), and when it was outside the load window. */
function deoptNotes(d: Summary['deopts'][number], several: boolean): string {
  const notes: string[] = [];
  if (several && d.processes && d.processes.length > 0) notes.push(d.processes.length > 3 ? `${d.processes.length} processes` : `in ${d.processes.join(', ')}`);
  if (d.afterWindow) notes.push(d.afterWindow === d.count ? 'after the load window' : `${d.afterWindow} after the load window`);
  if (d.beforeWindow) notes.push(d.beforeWindow === d.count ? 'during warm-up' : `${d.beforeWindow} during warm-up`);
  return notes.length > 0 ? ` (${notes.join('; ')})` : '';
}

/** One row per process and thread: what it was and its own CPU, GC and deopts. */
function formatProcesses(processes: readonly ProcessSummary[]): string {
  const rows = processes.map((p) => [
    p.role,
    p.threadId !== null && p.threadId > 0 ? `${p.pid}/${p.threadId}` : p.id,
    p.cpu ? threadCpuText(p.cpu) : '–',
    p.gc ? `${p.gc.eventCount} events, ${fmtNum(p.gc.wallShare * 100, 1)}%` : '–',
    p.gc?.semiSpaceMB != null ? `${fmtNum(p.gc.semiSpaceMB, 1)} MB` : '–',
    p.deoptCount === null ? 'not collected' : String(p.deoptCount),
    p.command,
  ]);
  return `Processes and threads: ${processes.length}\n${table(['role', 'pid', 'CPU', 'GC', 'young gen', 'deopts', 'command'], rows, [false, true, false, false, true, true, false])}`;
}

/** A warning that explains why deopts are missing (the report's deopt section uses the same test). */
function isAboutDeopts(warning: string): boolean {
  return /deopt|V8 log/i.test(warning);
}

export function formatLocation(url: string, line: number, column: number | undefined, cwd: string): string {
  let path = url;
  if (url.startsWith('file://')) {
    try {
      path = fileURLToPath(url);
    } catch {
      path = url;
    }
  }
  if (isAbsolute(path)) {
    const rel = relative(cwd, path);
    if (!rel.startsWith('..') && !isAbsolute(rel)) path = rel;
  }
  if (line <= 0) return path;
  return column && column > 0 ? `${path}:${line}:${column}` : `${path}:${line}`;
}

/** Columns padded to their widest cell, indented by two spaces; `rightAligned` per column. */
export function table(header: string[], rows: string[][], rightAligned: boolean[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const last = header.length - 1;
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => (rightAligned[i] ? c.padStart(widths[i]!) : i === last ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return ['  ' + fmt(header), ...rows.map((r) => '  ' + fmt(r))].join('\n');
}

/** `1,234.5` with exactly `decimals` digits after the point. */
export function fmtNum(value: number, decimals: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

function fmtMs(ms: number): string {
  return ms >= 1000 ? `${fmtNum(ms / 1000, 2)} s` : `${fmtNum(ms, 1)} ms`;
}

function pct(part: number, whole: number): string {
  return whole > 0 ? `${fmtNum((part / whole) * 100, 1)}%` : '–';
}

/** "Under load: 4,120 req/s · p50 3 ms · p99 11 ms · 0 failed · GC in the window: 412 scavenges, 1.2 s paused (8.1%)" */
export function formatLoadLine(load: LoadSummary): string {
  const f = load.figures;
  if (!f) return `Under load: nothing measured (${load.error ?? 'unknown reason'})`;
  const parts = [
    `${Math.round(f.rps).toLocaleString('en-US')} req/s`,
    `p50 ${f.p50Ms} ms`,
    `p99 ${f.p99Ms} ms`,
    load.failedRequests > 0 ? `${load.failedRequests.toLocaleString('en-US')} FAILED (${f.errors} errors, ${f.timeouts} timeouts, ${f.non2xx} non-2xx)` : '0 failed',
  ];
  const gc = load.gcInWindow;
  if (gc) parts.push(`GC in the window: ${gc.scavenges} scavenges, ${gc.markCompacts} Mark-Compact, ${fmtNum(gc.pauseMs, 1)} ms paused (${gc.shareOf ? `${gc.shareOf.label}: ${fmtNum(gc.shareOf.pauseMs, 1)} ms = ` : ''}${fmtNum(gc.wallShare * 100, 1)}%)`);
  const gcCpu = gc ? gcCpuPer1kText(gc.pauseMs, gc.helperMs, f.requests) : null;
  if (gcCpu) parts.push(gcCpu);
  return `Under load (${load.url}, ${load.connections} connections, ${f.durationSeconds.toFixed(1)} s): ${parts.join(' · ')}`;
}

/** The survivors pass: what outlived a young GC, per function its survival rate and estimated copying. */
function survivorsLines(s: SurvivorsSummary, top: number, place: (url: string, line: number, column?: number) => string): string[] {
  const out = [`Survivors (the survivors pass, ${s.dir}/): ${survivorsTotalText(s)}; V8's young GCs there: ${survivorsYoungGcText(s)}`, `  ${survivalRateBasisText(s)}`];
  const rows = s.functions.slice(0, top);
  if (rows.length > 0) {
    const copy = (f: SurvivorFunction) => (f.copiedBytesEstimate !== null ? `≈ ${fmtBytes(f.copiedBytesEstimate)}` : '') + (f.copyMsEstimate !== null ? `${f.copiedBytesEstimate !== null ? ', ' : '≈ '}${fmtNum(f.copyMsEstimate, 1)} ms` : '');
    out.push(table(
      ['survived', 'share', 'survival rate', 'copying (est.)', 'function', 'location'],
      rows.map((f) => [fmtBytes(f.bytes), `${fmtNum(f.share * 100, 1)}%`, survivalRateText(f.survivalRate), copy(f) || '–', f.name, f.url ? place(f.url, f.line, f.column) : '']),
      [true, true, true, true, false, false],
    ));
    out.push(`  (est.): ${COPY_ESTIMATE_NOTE}`);
  }
  out.push(`  ${s.meaning}`);
  return out;
}

/** "GC on helper threads: 31 ms (scavenge 25 ms · mark 6.0 ms), beside 48 ms on the main thread" or "not collected". */
function helperLine(gc: NonNullable<Summary['gc']>): string {
  const helper = gc.helperThreads;
  if (!helper) return `GC on helper threads: not collected (needs ${HELPER_GC_HOW})`;
  const phases = helperPhasesText(helper);
  return `GC CPU: ${gcCpuText(gc.totalPauseMs, helper.ms)}${phases ? ` (helpers: ${phases})` : ''}; the helpers' figure is V8's own: the wall time of its helper-thread scopes (above their CPU when cores are short), without concurrent sweeping after a Mark-Compact`;
}

export { fmtBytes };
