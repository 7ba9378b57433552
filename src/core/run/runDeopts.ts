/**
 * Every deopt of a run, from every source: each isolate's V8 log (`--log-deopt`, with times, but
 * silent while a CPU profiler runs) and each process's and thread's code trace
 * (`--trace-deopt-verbose`, complete but without times). One event found in both counts once. Each
 * deopt keeps the process or thread it happened in, and, under load, whether it happened before,
 * inside or after the measured window.
 */
import type { CpuFunctionSummary, DeoptCoverage, SelfCheckCount } from '../../shared/model/summary';
import { analyzeCodeTrace, functionsFromProfile, readCodeTrace } from '../v8log/codeTraceDeopts';
import { emptyCounters, mergeAnalyses } from '../v8log/mergeAnalyses';
import type { V8Deopt, V8LogAnalysis } from '../v8log/types';
import { readV8LogFile } from '../v8log/v8LogReader';
import { errorMessage } from '../util/errors';
import { CODE_TRACE_PROBE_NAME } from '../preload/agentEnv';
import type { RunProcess } from './processTable';
import { traceClock, traceClockError } from './traceClock';
import type { CodeTraceArtifact, V8LogArtifact } from './runArtifacts';

/** What the load window tells about time: epochs for log deopts, trace file sizes for traced ones. */
export interface WindowMarks {
  startEpochMs: number;
  endEpochMs: number;
  /** Size of each code-trace file (by name) when the window started and ended; a missing name: 0 bytes. */
  traceBytes: { start: Record<string, number>; end: Record<string, number> } | null;
}

export interface RunDeoptInput {
  processes: readonly RunProcess[];
  logs: readonly V8LogArtifact[];
  codeTraces: readonly CodeTraceArtifact[];
  /** The run asked for `--trace-deopt-verbose` (it had a CPU profile): the code traces are the full account. */
  codeTraceAsked: boolean;
  /** The CPU profile's functions: code traces name functions, profiles place them. */
  profiledFunctions: readonly CpuFunctionSummary[];
  window: WindowMarks | null;
  /** V8 Lens's own preload: its code runs in the target too, but its deopts are not the app's. */
  preloadPath: string | null;
}

export interface RunDeopts {
  analysis: V8LogAnalysis;
  coverage: DeoptCoverage;
  /** Deopt events per process id; a process whose deopts were not read is absent. */
  countByProcess: Map<string, number>;
  /**
   * The records V8 wrote, by their raw shape, beside those read, over every log and trace that could
   * be opened (see run/selfCheck.ts); null when there was none.
   */
  raw: { deopts: SelfCheckCount | null; optimizations: SelfCheckCount | null };
  warnings: string[];
}

/** Pseudo process ids for traces shared by several isolates (see codeTraceRedirect.ts). */
const sharedThreadsId = (pid: number) => `${pid}/threads`;
const SHARED_STARTUP_ID = 'start-up';

export async function readRunDeopts(input: RunDeoptInput): Promise<RunDeopts> {
  const warnings: string[] = [];
  const app = input.processes.find((p) => p.isApp) ?? input.processes[0] ?? null;
  const processOfLog = (log: V8LogArtifact) =>
    input.processes.find((p) => p.logs.includes(log)) ?? input.processes.find((p) => p.pid === log.pid && p.threadId === 0) ?? app;

  const logged: V8Deopt[] = [];
  const analyses: V8LogAnalysis[] = [];
  const rawDeopts: SelfCheckCount = { seen: 0, read: 0 };
  const rawOptimizations: SelfCheckCount = { seen: 0, read: 0 };
  let checked = false;
  /** Processes whose log or trace held records that could not be read: their own count is unknown. */
  const short = new Set<string>();
  for (const log of input.logs) {
    try {
      const analysis = await readV8LogFile(log.path);
      checked = true;
      rawDeopts.seen += analysis.counters.deoptEvents;
      rawDeopts.read += analysis.deopts.length;
      const owner = processOfLog(log);
      if (analysis.counters.deoptEvents > analysis.deopts.length && owner) short.add(owner.id);
      for (const d of analysis.deopts) {
        d.process = owner?.id;
        d.sources = ['v8-log'];
        d.phase = phaseOfTime(d.timeMs, owner, input.window);
        logged.push(d);
      }
      analyses.push({ ...analysis, deopts: [] });
    } catch (err) {
      warnings.push(`V8 log ${log.file}: ${errorMessage(err)}`);
    }
  }
  const logFunctions = mergeAnalyses(analyses.length > 0 ? analyses : [emptyAnalysis()]).functions;

  const traced: V8Deopt[] = [];
  const read = new Set<string>();
  if (input.codeTraceAsked) {
    const candidates = [...logFunctions, ...functionsFromProfile(input.profiledFunctions)];
    for (const trace of input.codeTraces) {
      try {
        const text = await readCodeTrace(trace.path);
        checked = true;
        rawDeopts.seen += text.raw.bailouts;
        rawDeopts.read += text.raw.bailoutsRead;
        rawOptimizations.seen += text.raw.optimizationLines;
        rawOptimizations.read += text.raw.optimizationLinesRead;
        // The preload's own probe (preload/codeTraceRedirect.ts) is V8 Lens's code, not the app's.
        text.optimizations = text.optimizations.filter((o) => o.name !== CODE_TRACE_PROBE_NAME);
        const owner = ownerOfTrace(trace, input.processes, app, warnings);
        // Only a trace of one isolate is dated by that isolate's readings.
        const record = trace.kind === 'own' ? input.processes.find((p) => p.id === owner)?.record : undefined;
        const part = analyzeCodeTrace(text, candidates, trace.path, traceClock(record), traceClockError(record));
        part.deopts.forEach((d, i) => {
          d.process = owner;
          d.sources = ['code-trace'];
          d.phase = phaseOfOffset(text.deopts[i]!.offset, trace.file, input.window);
          traced.push(d);
        });
        analyses.push({ v8Version: null, isolates: [], functions: part.functions, deopts: [], counters: emptyCounters() });
        read.add(owner);
        if (text.raw.bailouts > text.raw.bailoutsRead) short.add(owner);
      } catch (err) {
        warnings.push(`code trace ${trace.file}: ${errorMessage(err)}`);
      }
    }
  }

  const ours = (d: V8Deopt) => input.preloadPath !== null && [d.position, ...d.inlinedAt].some((p) => p?.url === input.preloadPath);
  const deopts = mergeLoggedAndTraced(logged, traced).filter((d) => !ours(d));
  const analysis = mergeAnalyses(analyses.length > 0 ? analyses : [emptyAnalysis()]);
  analysis.deopts = deopts;

  const countByProcess = new Map<string, number>();
  const covered = (p: RunProcess): boolean => {
    if (!input.codeTraceAsked) return p.logs.length > 0;
    if (read.has(p.id)) return true;
    if (p.threadId !== 0 && read.has(sharedThreadsId(p.pid))) return true;
    return read.has(SHARED_STARTUP_ID) && (p.record?.codeTrace?.own === false || (p.isApp && !p.record?.codeTrace));
  };
  const counted = input.processes.filter((p) => p.role !== 'npm');
  for (const p of counted) if (covered(p)) countByProcess.set(p.id, 0);
  for (const d of deopts) if (d.process !== undefined) countByProcess.set(d.process, (countByProcess.get(d.process) ?? 0) + 1);
  // A count short of what V8 wrote is no count: "not collected" for that process, never a smaller number.
  for (const id of short) countByProcess.delete(id);
  const coveredCount = counted.filter(covered).length;
  const coverage: DeoptCoverage = counted.length === 0 ? (deopts.length > 0 ? 'collected' : 'not-collected') : coveredCount === counted.length ? 'collected' : coveredCount === 0 ? 'not-collected' : 'partial';
  if (coverage === 'partial') {
    const missing = counted.filter((p) => !covered(p)).map((p) => `${p.role} ${p.id}`);
    warnings.push(`deopts: not collected for ${missing.join(', ')} (no V8 log or code trace of theirs was found)`);
  }
  const raw = { deopts: checked ? rawDeopts : null, optimizations: checked && input.codeTraceAsked ? rawOptimizations : null };
  return { analysis, coverage, countByProcess, raw, warnings };
}

/**
 * The process or thread a trace belongs to. Own files name it. A process's shared threads file holds
 * its worker threads that started tracing before their preload (Node 24): one such thread gets it,
 * several share a pseudo id. The start-up file holds the isolates that traced before their preload,
 * and in run folders from before per-isolate traces, the app's whole trace.
 */
function ownerOfTrace(trace: CodeTraceArtifact, processes: readonly RunProcess[], app: RunProcess | null, warnings: string[]): string {
  if (trace.kind === 'own') {
    const p = processes.find((x) => x.codeTrace === trace);
    return p?.id ?? (trace.threadId === 0 ? String(trace.pid) : `${trace.pid}/${trace.threadId}`);
  }
  if (trace.kind === 'threads') {
    const users = processes.filter((p) => p.pid === trace.pid && p.threadId !== 0 && p.record?.codeTrace?.own === false);
    if (users.length === 1) return users[0]!.id;
    warnings.push(
      `deopts: worker threads of pid ${trace.pid} share one code trace (V8 began tracing them before the preload ran), so their deopts are shown together; ` +
        'a worker started after another one had deoptimized may have emptied it',
    );
    return sharedThreadsId(trace.pid!);
  }
  const users = processes.filter((p) => p.threadId === 0 && p.record?.codeTrace?.own === false);
  if (users.length === 1) return users[0]!.id;
  if (users.length > 1) {
    warnings.push(`deopts: ${users.length} processes began tracing before the preload ran and share ${trace.file}; their deopts are shown together, and some may be lost`);
    return SHARED_STARTUP_ID;
  }
  return app?.id ?? SHARED_STARTUP_ID;
}

/**
 * The log and the code trace report the same bailout when the profiler was off: same process, kind,
 * reason and position text. Such pairs count once, with the log's time and whichever names the
 * function better. Traced deopts keep their order; each logged one matches at most one.
 */
function mergeLoggedAndTraced(logged: readonly V8Deopt[], traced: readonly V8Deopt[]): V8Deopt[] {
  const key = (d: V8Deopt) => `${d.process ?? ''}\u0000${d.kind}\u0000${d.reason}\u0000${d.rawPosition}`;
  const open = new Map<string, V8Deopt[]>();
  for (const d of traced) {
    const list = open.get(key(d));
    if (list) list.push(d);
    else open.set(key(d), [d]);
  }
  const out: V8Deopt[] = [...traced];
  for (const d of logged) {
    const twin = open.get(key(d))?.shift();
    if (twin === undefined) {
      out.push(d);
      continue;
    }
    twin.sources = ['v8-log', 'code-trace'];
    twin.timeMs = d.timeMs;
    if (d.phase !== undefined) twin.phase = d.phase;
    if (d.function !== null && (twin.function === null || twin.function.line === 0)) twin.function = d.function;
    if (d.optimizedFunction !== null && (twin.optimizedFunction === null || twin.optimizedFunction.line === 0)) twin.optimizedFunction = d.optimizedFunction;
    twin.tier ??= d.tier;
  }
  return out;
}

/** A log time is ms since the isolate's log started, close to its process's start (the preload's record). */
function phaseOfTime(timeMs: number, owner: RunProcess | null, window: WindowMarks | null): V8Deopt['phase'] {
  const start = owner?.record?.processStartMs;
  if (window === null || start === undefined || !Number.isFinite(timeMs)) return undefined;
  const at = start + timeMs;
  return at < window.startEpochMs ? 'before' : at > window.endEpochMs ? 'after' : 'window';
}

/** V8 closes the trace file after each record, so its size at a moment tells what was written by then. */
function phaseOfOffset(offset: number, file: string, window: WindowMarks | null): V8Deopt['phase'] {
  const bytes = window?.traceBytes;
  if (!bytes) return undefined;
  if (offset < (bytes.start[file] ?? 0)) return 'before';
  return offset < (bytes.end[file] ?? 0) ? 'window' : 'after';
}

function emptyAnalysis(): V8LogAnalysis {
  return { v8Version: null, isolates: [], functions: [], deopts: [], counters: emptyCounters() };
}
