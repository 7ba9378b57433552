/**
 * The `summary.json` contract. Later parts of V8 Lens (the editor, the semi-space lab) and outside
 * checks read it: fields may be added, the documented ones are kept.
 *
 * Conventions everywhere in our output: lines and columns are 1-based (0 means "no source
 * position", as for native and VM frames such as `(garbage collector)`); times are milliseconds.
 */

import type { LoadFigures } from './load';
import type { YoungGenPrediction } from './prediction';

export const SUMMARY_SCHEMA_VERSION = 1;

export interface Summary {
  schemaVersion: typeof SUMMARY_SCHEMA_VERSION;
  /** What was analysed: a run folder, or a single artifact given to `v8-lens report`. */
  source: SummarySource;
  cpu: CpuSummary | null;
  gc: GcSummary | null;
  /** Deopts grouped by function and innermost position, most frequent first. */
  deopts: DeoptSummaryEntry[];
  /**
   * Per function that deopted (its own optimized code, or its code inlined into another function),
   * for a CodeLens above it. Most deopts first. Absent from summaries written before it existed and
   * from failed analyses: read as [] (see `withSummaryDefaults`).
   */
  deoptFunctions: DeoptFunctionSummary[];
  /**
   * Functions V8 optimized (Maglev/TurboFan) that never deopted, neither their own code nor where
   * they were inlined: disjoint from `deoptFunctions`. Most optimizations first, at most
   * `MAX_OPTIMIZED_FUNCTIONS` (a warning says when more were cut). Absent in older summaries: read as [].
   */
  optimizedFunctions: OptimizedFunctionSummary[];
  /**
   * The hottest functions' way through V8's tiers: when each was optimized (Maglev, TurboFan), when it
   * deoptimized, and where it ended. Absent or null when the run collected no optimizations (no code
   * trace: an npm script, a preset without deopts, an attached process, or an older run).
   */
  tierHistory?: TierHistory | null;
  /**
   * Whether `deopts` is the whole story. 'collected': every process's deopts were read (an empty list
   * means none happened); 'partial': some were read, some are unknown (a warning says which);
   * 'not-collected': nobody looked (an npm-script launch, an attached process, a preset without
   * deopts, a lost trace), so an empty list means "unknown", never "0 deopts". Absent in summaries
   * written before it existed: `withSummaryDefaults` fills it in.
   */
  deoptCoverage: DeoptCoverage;
  /** The load V8 Lens drove the target with ("profile under load"), and the GC of its window; absent otherwise. */
  load?: LoadSummary | null;
  /**
   * Every process and worker thread the run saw (the launched process, cluster workers, forked
   * children, worker threads, npm's own processes), in start order. The top-level `cpu`, `gc` and
   * `deopts` cover all of them; these entries are each one's own share. Absent for single files and
   * in summaries written before it existed.
   */
  processes?: ProcessSummary[];
  /**
   * Who allocates what the GC collects (sampled, garbage included), the whole run; null when the
   * run did not collect allocations ("not collected", never 0), absent in older summaries.
   */
  alloc?: AllocSummary | null;
  /** Why `alloc` is null (after "not collected"); absent when it is not, and in older summaries. */
  allocMissing?: string;
  /**
   * Who the young GC copies and promotes: the survivors pass (`--survivors`), the same target run
   * once more with the allocation sampler keeping only what outlived a young GC. Absent when the run
   * had no such pass.
   */
  survivors?: SurvivorsSummary | null;
  /**
   * What a bigger young generation would do, predicted from V8's trace of this run (per 1,000 requests
   * under load, per second without); null when it could not be made (`predictionMissing` says why).
   * Absent in older summaries.
   */
  prediction?: YoungGenPrediction | null;
  predictionMissing?: string | null;
  /**
   * What V8 wrote, counted in its raw form while the run was read, beside what V8 Lens made of it:
   * a gap means a format this version does not fully understand, and the figures it concerns are
   * short (the report, the CLI and the status bar say so). Absent when nothing was checked (no GC
   * trace, no code trace or log) and in older summaries.
   */
  selfCheck?: SelfCheck | null;
  /** Why a part is missing or partial (truncated input, a flag that was off, …); one line each. */
  warnings: string[];
}

/** How many records of one kind V8 wrote (`seen`, by their raw shape) and how many V8 Lens read. */
export interface SelfCheckCount {
  seen: number;
  read: number;
}

/** See `Summary.selfCheck`; each count is absent when the run had nothing of its kind to check. */
export interface SelfCheck {
  /**
   * Timed trace lines of the GC trace (`[pid:isolate] N ms: …`, V8's other timed messages such as
   * `[HeapController]` left out), and the GC events read from them.
   */
  gcLines?: SelfCheckCount;
  /** `[bailout (` records in the code traces plus `code-deopt` events in the V8 logs, and the deopts read. */
  deopts?: SelfCheckCount;
  /** Finished optimizations in the code traces (`[completed compiling …`, `[optimizing …`), and those read. */
  optimizations?: SelfCheckCount;
  /** `--trace-gc-nvp` lines that print `allocated`, and the GC events whose allocated bytes were read. */
  nvpAllocated?: SelfCheckCount;
}

export type DeoptCoverage = 'collected' | 'partial' | 'not-collected';

// --------------------------------------------------------------------------------------------- Load

export interface LoadSummary {
  url: string;
  connections: number;
  /** Fixed overall req/s, or null for a closed loop (as fast as the target answers). */
  rate: number | null;
  warmupSeconds: number;
  durationSeconds: number;
  /** What the load generator measured in its window; null when no load ran (`error` says why). */
  figures: LoadFigures | null;
  /** Errors + timeouts + non-2xx answers: requests the target lost. */
  failedRequests: number;
  error: string | null;
  /**
   * GC inside the measured window (by the arrival of the trace lines), over every process: `pauseMs`
   * is their sum, `wallShare` that sum over the window times the processes alive in it (a true share,
   * within the processes' own), and `processes` each one's own figures. With worker threads,
   * `wallShare` is the share of the threads that served the requests (each process's main thread,
   * named in `shareOf`), never pauses spread over idle workers' time.
   */
  gcInWindow: GcInWindow | null;
  /** The measured window, epoch ms: places deopts with times before, in or after it. Absent in older files. */
  windowEpochMs?: { start: number; end: number } | null;
  /** Each code-trace file's size (bytes, by name) when the window started and ended: places traced deopts. */
  codeTraceBytes?: { start: Record<string, number>; end: Record<string, number> } | null;
  /** The load generator's answers per second as it went, warm-up included: [epoch ms, req/s]. Absent in older files. */
  rpsTimeline?: [number, number][] | null;
}

export interface GcInWindowFigures {
  events: number;
  scavenges: number;
  markCompacts: number;
  pauseMs: number;
  wallShare: number;
  /** GC time on V8's helper threads in the window, ms (see HelperGcSummary); null or absent when not collected (no --trace-gc-nvp). */
  helperMs?: number | null;
}

export interface GcInWindow extends GcInWindowFigures {
  /** Per process (its main isolate) or worker thread: `pid`, and the isolate as the GC lines print it. Absent in older files. */
  processes?: Array<GcInWindowFigures & { pid: number; isolate: string }>;
  /** Whose share `wallShare` is, when the run had worker threads; absent otherwise and in older files. */
  shareOf?: GcShareOf | null;
}

/**
 * Whose GC share a run-level `wallShare` is: the threads that served the app (each process's main
 * thread), with their pause over their own wall time. A worker thread's isolate pauses only its own
 * thread: spreading the main thread's pauses over idle workers' wall time said 1.6% for a main
 * thread at 4.9%. Every thread's own share is in `processes`.
 */
export interface GcShareOf {
  /** `ProcessSummary.id` of each thread counted. */
  processes: string[];
  /** "the main thread (pid 4120)", "the main threads of 4 processes". */
  label: string;
  /** Their GC pause and wall time (their lives in the window, under load), ms: the share is pauseMs / wallMs. */
  pauseMs: number;
  wallMs: number;
}

export interface SummarySource {
  kind: 'run' | 'cpuprofile' | 'heapprofile' | 'pprof' | 'gc-trace' | 'v8-log';
  path: string;
}

// ---------------------------------------------------------------------------------------- Processes

/**
 * What a process (or thread) was in the run. 'main': the launched app when it is one process;
 * 'primary' / 'worker': a `cluster` primary and its workers; 'child': another Node process started by
 * the app (child_process.fork, …); 'worker thread': a `worker_threads` Worker; 'npm': a package
 * manager's own process (npm, npx, yarn, pnpm) when the target was a script.
 */
export type ProcessRole = 'main' | 'primary' | 'worker' | 'child' | 'worker thread' | 'npm';

export interface ProcessSummary {
  /** `"<pid>"` for a main thread, `"<pid>/<threadId>"` for a worker thread: how other parts refer to it. */
  id: string;
  pid: number;
  /** The process that started it (a worker thread's: its own process); null when unknown. */
  parentPid: number | null;
  /** 0 for a main thread; null for a worker thread whose id is unknown (seen only in the GC trace). */
  threadId: number | null;
  role: ProcessRole;
  /** What it ran (`node app.js`, a worker's script), without V8 Lens's flags; "" when unknown. */
  command: string;
  /** When it started and ended, ms from the run's start; null when unknown (or still running at the end). */
  startMs: number | null;
  endMs: number | null;
  cpu: ProcessCpuSummary | null;
  /** Its own GC (its isolate's), shares over its own wall time. */
  gc: GcSummary | null;
  /** Deopt events in it; null when its deopts were not collected. */
  deoptCount: number | null;
  /** Peak resident set size of the process (threads share their process's), MB; null when not measured. */
  maxRssMB: number | null;
  /** Its own allocations; absent when not collected. */
  alloc?: AllocSummary | null;
  /** Why it has none, when it has none (the run did not ask, its thread ended first, …); absent otherwise and in older summaries. */
  allocMissing?: string;
}

export interface ProcessCpuSummary {
  /** File name of its `.cpuprofile` in the run's `cpu/` folder. */
  profile: string;
  /** Time its profile covers. */
  sampledMs: number;
  sampleCount: number;
  /** Share of that time in `(idle)`, 0–1: an idle primary reads ~1. */
  idleShare: number;
  /**
   * Share of that time in waiting frames (a thread blocked in `Atomics.wait`, as a pool's idle
   * worker is: see `CpuSummary.waitingMs`), 0–1. Absent in older summaries.
   */
  waitingShare?: number;
  /**
   * The thread's own CPU time as the OS counts it, ms (Linux: /proc/<pid>/task/<tid>/schedstat read
   * from outside while it ran; `process.threadCpuUsage()` or /proc/thread-self in the thread itself);
   * null when not collected (another platform, an attached process). Absent in older summaries.
   */
  threadCpuMs?: number | null;
  /** Where `threadCpuMs` came from: '/proc' (read from outside), 'threadCpuUsage' or 'schedstat' (the thread's own reading). */
  threadCpuSource?: '/proc' | 'threadCpuUsage' | 'schedstat' | null;
  /** The thread's wall time, from its start to its end, ms (what `threadCpuMs` is a share of); null when unknown. */
  wallMs?: number | null;
  /** The kernel's thread id (Linux); null when unknown. */
  tid?: number | null;
}

// ---------------------------------------------------------------------------------------------- CPU

export interface CpuSummary {
  /**
   * File name of the profile the figures come from; with several (processes, threads) the figures
   * are their sum and this is the launched process's main thread's.
   */
  profile: string;
  /**
   * The app's sampled time: from the first sample to the end of the profile, without V8 Lens's own
   * agent (`leftOut`), so it is the sum of every function's self time, the pseudo-frames' included;
   * with several profiles, the sum of theirs (so shares add up to 100%). Summaries written before
   * `leftOut` existed counted the whole profile, from its start.
   */
  durationMs: number;
  /** The app's samples (V8 Lens's own left out). */
  sampleCount: number;
  /** Median time between samples: the effective sampling interval. */
  sampleIntervalMs: number;
  /** Per function (name + url + line + column), sorted by `selfMs` descending. */
  functions: CpuFunctionSummary[];
  /** Per source line, from `positionTicks`, sorted by `selfMs` descending. */
  lines: CpuLineSummary[];
  /**
   * Line ticks of code V8 inlined (up to Node 24 V8 gives them to the function the code was inlined
   * into, with the inlined function's line numbers): `movedMs` placed at the inlined function's own
   * file and line; `droppedMs` on lines outside the function V8 gave them to, with no one file that
   * could own them, so in no line; `uncheckedMs` of functions whose source could not be read or
   * parsed, kept as V8 gave them. Absent when the sources were not consulted and in older summaries.
   */
  inlinedLines?: InlinedLinesSummary;
  /** Time in V8's pseudo-frames: `(garbage collector)`, `(idle)`, `(program)`. */
  pseudo: { gcMs: number; idleMs: number; programMs: number };
  /**
   * Sampled time in waiting frames: a thread blocked off the CPU in `Atomics.wait` (piscina's and
   * tinypool's `atomicsWaitLoop`; see shared/frameCategory.ts), which the profiler samples as if the
   * function ran. In `durationMs`, like `(idle)`, but in no function or line: `waiting` lists them.
   * Absent in older summaries (their functions may include such frames).
   */
  waitingMs?: number;
  /** The waiting frames and their time, most first; absent when there were none. */
  waiting?: CpuFunctionSummary[];
  /**
   * Sampled time on the CPU: `durationMs` without `(idle)` and waiting. The shares of lenses and line
   * heat are of it (of the threads the code ran on: see `CpuFunctionSummary.onCpuMs`). Absent in older summaries.
   */
  onCpuMs?: number;
  /**
   * Profiled time that is in no figure above (not in `durationMs`, the functions, the lines or the
   * shares): V8 Lens's own agent on the app's threads (its frames and all they called: start-up,
   * timers, the exit handler), and the stretch from the profile's start to its first sample, which
   * no sample saw. Absent in summaries written before it existed.
   */
  leftOut?: CpuLeftOut;
  /** Every profile found in the run (worker threads write their own). */
  profiles: CpuProfileFile[];
}

export interface InlinedLinesSummary {
  movedMs: number;
  droppedMs: number;
  uncheckedMs: number;
}

export interface CpuLeftOut {
  v8LensMs: number;
  v8LensSamples: number;
  beforeFirstSampleMs: number;
}

export interface CpuFunctionSummary {
  name: string;
  url: string;
  line: number;
  column: number;
  selfMs: number;
  /** Inclusive time; a recursive function is counted once per sample. */
  totalMs: number;
  /** The processes it ran in, when the run had several profiles (absent otherwise). */
  pids?: number[];
  /**
   * The on-CPU time of the threads it ran on, ms, when that is not all of `CpuSummary.onCpuMs` (a
   * function of a worker thread's): its shares are of this. Absent: of `CpuSummary.onCpuMs`.
   */
  onCpuMs?: number;
}

export interface CpuLineSummary {
  url: string;
  line: number;
  selfMs: number;
  /** As `CpuFunctionSummary.onCpuMs`: the on-CPU time of the threads the line ran on, when not all of it. */
  onCpuMs?: number;
}

export interface CpuProfileFile {
  file: string;
  pid: number | null;
  threadId: number | null;
  durationMs: number;
  sampleCount: number;
}

// ----------------------------------------------------------------------------------------------- GC

export interface GcTypeStats {
  count: number;
  totalMs: number;
  meanMs: number;
  p95Ms: number;
  maxMs: number;
}

export interface GcSummary {
  /** Keyed by the type as V8 prints it: "Scavenge", "Mark-Compact", "Minor Mark-Sweep", … */
  byType: Record<string, GcTypeStats>;
  /** Sum of main-thread pauses (V8's first "X / Y ms" figure) of every event. */
  totalPauseMs: number;
  /** Incremental-marking work done before Mark-Compact pauses ("+ A ms in N steps"), not in totalPauseMs. */
  incrementalMarkingMs: number;
  /** totalPauseMs / wall time of the traced isolate, 0–1; with worker threads, the share of `shareOf`'s threads. */
  wallShare: number;
  /** Wall time the share is computed over. */
  wallMs: number;
  /** Whose share `wallShare` is when the run had worker threads (see GcShareOf); absent otherwise and in older summaries. */
  shareOf?: GcShareOf | null;
  /**
   * The young-generation size the run really reached, MB, in the flag's unit: with the Scavenger the
   * semi-space (largest new space seen / 2), with Minor Mark-Sweep the one new space. With several
   * processes, the largest. Null when not measured or when no young-generation GC ran.
   */
  semiSpaceMB: number | null;
  /** Which young-generation collector ran and what it reached; see `YoungGeneration`. Absent in older summaries. */
  youngGeneration?: YoungGeneration;
  /** What `--max-semi-space-size` asked for; null when left to V8's default. */
  semiSpaceRequestedMB: number | null;
  eventCount: number;
  /** GC events per reason ("allocation failure", "task", …). */
  byReason: Record<string, number>;
  /** Lines that looked like GC trace lines but could not be parsed (kept, never thrown on). */
  unparsedLines: number;
  /** Which isolate the figures are for, and the others seen (worker threads, child processes). */
  isolate: GcIsolateSummary | null;
  otherIsolates: GcIsolateSummary[];
  /**
   * V8's allocation-site pretenuring decisions (`--trace-pretenuring-statistics`, on in every run with
   * a GC trace since 0.2): null when the run did not record them (older runs, attach). Absent in older summaries.
   */
  pretenuring?: PretenuringSummary | null;
  /**
   * GCs V8 Lens itself caused (its allocation sampler's stop makes V8 collect all garbage first),
   * left out of every other figure here; null when none. Absent in older summaries.
   */
  causedByV8Lens?: { events: number; pauseMs: number; byType: Record<string, number>; why: string } | null;
  /**
   * GC work on V8's helper threads beside `totalPauseMs` (the main thread's): V8's own `background.*`
   * phases of each GC, printed with `--trace-gc-nvp` only; null when the run's GC lines had none
   * ("not collected": a plain --trace-gc run). Absent in older summaries.
   */
  helperThreads?: HelperGcSummary | null;
}

/**
 * What V8 counted of a run's GC on its helper threads (gc/gcHelperTime.ts): the wall time of its
 * background scopes, fetched at the end of each GC's pause. Concurrent sweeping after a
 * Mark-Compact's pause is in no line, so it is a lower bound of their GC work.
 */
export interface HelperGcSummary {
  /** Sum of every GC's `background.*` phases, ms. */
  ms: number;
  /** The same by phase: scavenge, mark, sweep, evacuate, other (only those that had time). */
  byPhase: Partial<Record<'scavenge' | 'mark' | 'sweep' | 'evacuate' | 'other', number>>;
  /** GC events it was read from (those with V8's phases). */
  events: number;
}

/**
 * What V8 decided about allocating objects of hot allocation sites straight in the old generation.
 * One such decision changes the GC regime (fewer scavenges, more Mark-Compacts), and it can differ
 * between runs of the same program: runs that disagree are not comparable figure for figure.
 */
export interface PretenuringSummary {
  /** Pretenuring lines V8 printed, and those V8 Lens could read (the self-check). */
  linesSeen: number;
  linesRead: number;
  /** Allocation sites V8 weighed at least once (enough mementos at a scavenge to decide). */
  sitesWeighed: number;
  /** Sites V8 tenured at some point, and those still tenured at the end. */
  sitesTenured: number;
  sitesEndedTenured: number;
  /** Times a tenured site was sent back to the young generation. */
  untenured: number;
  /** The tenured sites, most mementos first (at most 50). */
  tenured: PretenuredSite[];
}

export interface PretenuredSite {
  pid: number;
  isolate: string;
  /** V8's address of the AllocationSite: stable within a run only. */
  site: string;
  /** On its isolate's GC clock (ms since the isolate started), the scavenge that tenured it; null when unknown. */
  firstTenuredMs: number | null;
  /** found / created at that scavenge: the share of its objects still alive. */
  survivalAtTenure: number;
  endedTenured: boolean;
  timesTenured: number;
  timesUntenured: number;
  weighings: number;
  mementosCreated: number;
  mementosFound: number;
  /**
   * The function the site most likely belongs to: an estimate (V8 names a site by its address only,
   * which no profile carries); null when the run sampled no allocations there. Absent in older summaries.
   */
  owner?: SiteOwner | null;
  /** What tenuring cost its isolate: full GCs and old-generation growth after it, beside before; null when its time is unknown. Absent in older summaries. */
  cost?: SiteCost | null;
}

export interface SiteOwner {
  name: string;
  url: string;
  line: number;
  column: number;
  /** What the estimate rests on: the survivors pass (survival rates), or the process's allocations. */
  basis: 'survivors' | 'allocations';
  /** Why this function, in words. */
  why: string;
  /**
   * The app's functions the CPU profile saw running under it, nearest first: V8 gives an inlined
   * function's allocations to its caller, so the site may be in one of them. Absent when none (or exact sites).
   */
  inlinedCandidates?: string[];
}

/** An isolate's full GCs around the site's first tenuring, on the isolate's GC clock (ms). */
export interface SiteCost {
  atMs: number;
  before: SiteCostSpan;
  after: SiteCostSpan;
}

export interface SiteCostSpan {
  spanMs: number;
  markCompacts: number;
  markCompactMs: number;
  /** How much the heap grew from each Mark-Compact's end to the next GC's start (the old generation, within the young generation's size), MB. */
  oldGrowthMB: number;
}

/**
 * The young generation as V8 really ran it. The Scavenger copies between two semi-spaces (the new
 * space is two of them); Minor Mark-Sweep (`--minor-ms`, Node 22+) collects one space in place.
 */
export interface YoungGeneration {
  /** null: no young-generation GC ran, so its size says nothing (V8 starts it at 1 MB and grows it on demand). */
  collector: 'Scavenger' | 'Minor Mark-Sweep' | null;
  /** Largest new space V8 had, MB; null when not measured. */
  newSpaceMB: number | null;
}

export interface GcIsolateSummary {
  pid: number;
  isolate: string;
  eventCount: number;
  totalPauseMs: number;
}

// ------------------------------------------------------------------------------------------- Deopts

export interface SourcePosition {
  url: string;
  line: number;
  column: number;
}

export interface DeoptSummaryEntry extends SourcePosition {
  /**
   * The function the innermost position belongs to (the one that bailed out); `(anonymous)` for
   * top-level code and anonymous functions, `(code not logged)` for a deopt from the V8 log whose
   * code V8 never logged (code traces always name it).
   */
  function: string;
  /**
   * Where that function starts (for a CodeLens above it); null when unknown: a code trace (runs with
   * a CPU profile) names functions, and one the profile never sampled has no known position. Absent
   * in older summaries: read as null.
   */
  functionStart: SourcePosition | null;
  /** The optimized function whose code was thrown away (differs from `function` when inlined). */
  optimizedFunction: string;
  /** V8's deoptimize kind: "deopt-eager", "dependency-change", "deopt-lazy", … (an open set). */
  kind: string;
  /** V8's reason text, verbatim: "not a Smi", "wrong map", … */
  reason: string;
  count: number;
  /** Call sites the position was inlined at, innermost first. */
  inlinedAt: SourcePosition[];
  /**
   * Time of the first and last occurrence, ms since the isolate's log started; null when the source
   * has no times (deopts read from the code trace, which is what runs with a CPU profile give).
   */
  firstMs: number | null;
  lastMs: number | null;
  /** Optimization tier of the code that deopted ("TurboFan", "Maglev", …), when known. */
  tier: string | null;
  /** The processes/threads it happened in (`ProcessSummary.id`); absent in older summaries. */
  processes?: string[];
  /**
   * Under load: how many of `count` happened after the measured window (the run stopping, code
   * dependencies changed at exit), and before it (warm-up). Absent when not known.
   */
  afterWindow?: number;
  beforeWindow?: number;
  /** Where V8 reported it: its log (`--log-deopt`, with times) and/or the code trace (`--trace-deopt-verbose`). */
  sources?: Array<'v8-log' | 'code-trace'>;
}

/** How often one kind + reason occurred. */
export interface DeoptReasonCount {
  kind: string;
  reason: string;
  count: number;
}

/**
 * One function that deopted. `url`/`line`/`column` are where the function starts (as in
 * `DeoptSummaryEntry.functionStart`), line 0 when unknown (a code trace naming a function the CPU
 * profile never sampled).
 */
export interface DeoptFunctionSummary extends SourcePosition {
  /** As V8 names it; `(anonymous)` for top-level code and anonymous functions. */
  function: string;
  /**
   * Tiers it reached, lowest first: "Ignition", "Sparkplug", "Maglev", "TurboFan". From a code trace
   * (runs with a CPU profile) only the optimizing tiers are known.
   */
  tiers: string[];
  /** How often its own optimized code was thrown away. */
  deoptCount: number;
  /** Deopts at positions inside it while it was inlined into another function (see `deopts`). */
  inlinedDeoptCount: number;
  /** Its own deopts by kind and reason, most frequent first (inlined ones are in `deopts`). */
  reasons: DeoptReasonCount[];
  /**
   * Whether V8 optimized it again after its last own deopt: false means it stayed deoptimized. Null
   * when its own code never deopted, or when the run recorded no optimizations (code traces taken
   * without `--trace-opt`). Code traces have no times: their order stands in for time.
   */
  reoptimized: boolean | null;
  /** Optimizations after its first own deopt: a number that keeps growing is a deopt loop. */
  reoptimizations: number;
}

export interface TierHistory {
  /** Events carry times (ms on their isolate's clock, the GC trace's); false for runs that did not date the trace. */
  timed: boolean;
  functions: TierHistoryEntry[];
  /** Optimizations made in each second of the run (of every function, not only these), from 0 s; null when not timed. */
  optimizationsPerSecond: number[] | null;
}

export interface TierHistoryEntry extends SourcePosition {
  /** As the CPU profile names it. */
  function: string;
  selfMs: number;
  totalMs: number;
  /** In time order (in trace order when not timed). */
  events: TierEvent[];
  /** "TurboFan" or "Maglev" when its last event made optimized code; null when it ended deoptimized or was never optimized on its own. */
  tierNow: string | null;
  /** When V8 first made optimized code for it, and first TurboFan code; null when never (or not timed). */
  firstOptimizedMs: number | null;
  firstTurboFanMs: number | null;
  deopts: number;
  /** Optimizations after its first deopt. */
  reoptimizations: number;
  /**
   * False when the trace cannot name it, so no events is no evidence: V8 traces anonymous functions
   * without a name, and one without a deopt to place it cannot be told from its script's others.
   */
  traced: boolean;
}

export interface TierEvent {
  /** ms on the isolate's clock; null when the run did not date its trace. */
  atMs: number | null;
  /**
   * How far off `atMs` can be, ms: half the time between the agent's two readings of the code trace
   * that bracket the event (25 ms when it read on time; far more while the app's synchronous code kept
   * the event loop busy). Absent when not known (older runs, undated events).
   */
  atErrorMs?: number;
  kind: 'optimized' | 'deopt';
  /** The tier of the code made or thrown away: "TurboFan", "Maglev". */
  tier: string;
  /** A deopt's reason. */
  reason?: string;
  /** The process or thread it happened in, with several. */
  process?: string;
}

/** A function V8 optimized that never deopted. `url`/`line`/`column` are where it starts. */
export interface OptimizedFunctionSummary extends SourcePosition {
  /** As V8 names it; `(anonymous)` for top-level code and anonymous functions. */
  function: string;
  /** The optimizing tiers its code was made in, lowest first: "Maglev", "TurboFan". */
  tiers: string[];
  /** How many times optimized code was made for it (on-stack replacement included). */
  optimizations: number;
}

/**
 * The survivors pass beside the run: what outlived a young GC, per function, from V8's sampling heap
 * profiler with `includeObjectsCollectedByMinorGC: false` (the samples of objects a young GC freed
 * are dropped; those a full GC freed are kept). V8 runs one sampling profiler per isolate, so the
 * survivors come from a second run of the same target: a function's survival rate is its survivors
 * over what it allocated in the run, per request under load, or in all for a script that ran to its
 * end both times (the same work); otherwise there is no rate (`notComparable` says why).
 */
export interface SurvivorsSummary {
  /** The pass's run folder, relative to the run's ("survivors"). */
  dir: string;
  samplingIntervalBytes: number;
  /** Sampled bytes that outlived a young GC (plus those allocated after the last one), all processes. */
  totalBytes: number;
  /** Per request under load; null otherwise. */
  bytesPerRequest: number | null;
  /**
   * Survivors over all that was allocated in the pass, by V8's own account (the GC trace's allocated
   * bytes): the run's survival share; null when the pass's trace did not say.
   */
  survivalShare: number | null;
  /** V8's own account of the pass's young GCs (`--trace-gc-nvp`): how many, their pause, and the bytes they copied and promoted. */
  youngGc: { count: number; pauseMs: number; copiedBytes: number | null; promotedBytes: number | null };
  /** How the rates compare the pass with the run: per request, the whole run (the same fixed work), or not at all. */
  comparedBy: 'requests' | 'fixed work' | null;
  /** Why there is no survival rate per function; null when there is. */
  notComparable: string | null;
  /** Most surviving bytes first, at most 50. */
  functions: SurvivorFunction[];
  /** What the figures mean and their limit, in words (the page and the CLI say it). */
  meaning: string;
}

export interface SurvivorFunction {
  name: string;
  url: string;
  /** 1-based function start; 0 = none. */
  line: number;
  column: number;
  /** Its own sampled bytes that outlived a young GC, in the pass. */
  bytes: number;
  /** Of all surviving bytes, 0–1. */
  share: number;
  /** Its survivors over what it allocated in the run (see SurvivorsSummary.comparedBy), 0–1; null when unknown. */
  survivalRate: number | null;
  /** Its share of the pass's young-GC copying: share × the bytes V8 copied and promoted; null when not traced. */
  copiedBytesEstimate: number | null;
  /** Its share of the pass's young-GC pause (a scavenge costs what it copies): an estimate, ms; null when not traced. */
  copyMsEstimate: number | null;
}

/** A summary with nothing in it yet: no CPU, no GC, deopts not collected. `parts` fills in what is known. */
/**
 * What the run allocated, from V8's sampling heap profiler with the garbage kept
 * (includeObjectsCollectedByMinorGC/MajorGC): which functions make what the GC pays for. Bytes are
 * V8's estimates from samples every `samplingIntervalBytes`.
 */
export interface AllocSummary {
  samplingIntervalBytes: number;
  totalBytes: number;
  /** null when the time the profile covers is unknown. */
  bytesPerSecond: number | null;
  /** Under load only. */
  bytesPerRequest: number | null;
  /** Heap in use when sampling stopped; null when not recorded. */
  liveAtEndBytes: number | null;
  sampleCount: number;
  /**
   * true: the profile kept only what was still alive when it was taken (a heap profile or pprof
   * `inuse_space` from elsewhere), so the bytes are not all that was allocated. Absent: garbage included.
   */
  liveOnly?: boolean;
  /** Sorted by selfBytes, at most 200. */
  functions: AllocFunctionSummary[];
  /** How the bytes line up with the young-generation GCs of the same time; null when the GC was not traced. Absent in older summaries. */
  gcLink?: AllocGcLink | null;
  /**
   * Set when this V8 gives an inlined function's allocations to the function it was inlined into
   * (Node 20): the sentence the report shows. null when V8 names the inlined function itself, or
   * inlining was off (`exactSites`). Absent in older summaries.
   */
  inliningCaveat?: string | null;
  /** Sampled with TurboFan inlining off (`--no-turbo-inlining`): exact sites, changed performance. */
  exactSites?: boolean;
  /**
   * 'survivors': the sampler kept only what outlived a young GC (and what was allocated after the
   * last one), so the bytes are survivors, not all that was allocated. Absent: garbage included.
   */
  mode?: 'survivors';
}

/**
 * The allocations beside the GC of the same processes in the same time. V8's own account of what
 * was allocated is in the GC trace: the heap grows between one GC's end and the next one's start. The
 * sampled bytes should agree with it; when they do not, `disagreement` says so.
 */
export interface AllocGcLink {
  /** Young-generation GCs (scavenges, or Minor Mark-Sweeps) while the allocations were sampled. */
  youngGcs: number;
  /** Their main-thread pause, ms. */
  youngGcPauseMs: number;
  /** Sampled bytes per young GC; null when none ran. */
  bytesPerYoungGc: number | null;
  /** The young generation the run reached, in `--max-semi-space-size`'s terms (the semi-space for the Scavenger), bytes; null when not measured. */
  youngGenerationBytes: number | null;
  /** V8's own account from the GC trace: the heap's growth between GCs in the same time, bytes (to 0.1 MB per GC line); null when no GC ran. */
  traceAllocatedBytes: number | null;
  /** Sampled bytes over `traceAllocatedBytes`; null when unknown. */
  ratio: number | null;
  /** Why the two accounts do not agree, in a sentence; null when they do or cannot be checked. */
  disagreement: string | null;
  /**
   * V8's own account from `--trace-gc-nvp` in the same time: the bytes its young GCs kept in the young
   * generation (`new_space_survived`) and promoted, and all it allocated (`allocated`). Absent when
   * the trace had no phases.
   */
  copiedBytes?: number;
  promotedBytes?: number;
  nvpAllocatedBytes?: number;
}

export interface AllocFunctionSummary {
  name: string;
  url: string;
  /** 1-based start of the function (heap profiles have no lines inside it); 0 = none. */
  line: number;
  column: number;
  /** Allocated in the function's own body. */
  selfBytes: number;
  /** With what it calls; a recursive function counted once per call path. */
  totalBytes: number;
  /** selfBytes over everything allocated, 0–1. */
  share: number;
  /**
   * An estimate of the young-GC pause this function's garbage costs: its share of what was allocated
   * times the young-GC pause of the same time (most sampled bytes die young). null when the GC was
   * not traced. Absent in older summaries.
   */
  youngGcPauseMsEstimate?: number | null;
}

export function emptySummary(source: SummarySource, parts: Partial<Summary> = {}): Summary {
  return {
    schemaVersion: SUMMARY_SCHEMA_VERSION,
    source,
    cpu: null,
    gc: null,
    deopts: [],
    deoptFunctions: [],
    optimizedFunctions: [],
    deoptCoverage: 'not-collected',
    warnings: [],
    ...parts,
  };
}

/** `optimizedFunctions` keeps this many (the most optimized). */
export const MAX_OPTIMIZED_FUNCTIONS = 2000;

/**
 * A summary read back from disk, with the fields older versions did not write filled in (missing
 * lists become [], a missing `functionStart` null). Modifies and returns `summary`.
 */
export function withSummaryDefaults(summary: Summary): Summary & Required<Pick<Summary, 'deoptFunctions' | 'optimizedFunctions'>> {
  summary.deopts ??= [];
  for (const d of summary.deopts) d.functionStart ??= null;
  summary.deoptFunctions ??= [];
  summary.optimizedFunctions ??= [];
  summary.warnings ??= [];
  // Older summaries: deopts found means they were read; none found cannot be told from "not looked".
  summary.deoptCoverage ??= summary.deopts.length > 0 ? 'collected' : 'not-collected';
  return summary as Summary & Required<Pick<Summary, 'deoptFunctions' | 'optimizedFunctions'>>;
}
