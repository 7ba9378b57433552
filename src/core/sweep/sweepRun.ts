/**
 * One run of a sweep: a fresh target process at one value of the swept flag, readiness, warm-up load
 * (discarded), the measured window, a graceful stop, and the run's figures. Never throws for what
 * the target or the load does: a run that cannot be measured comes back `invalid` with a one-line
 * reason; an abort comes back `cancelled` with the target and the load already gone.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { stringDecoder } from '../util/lazyBuiltins';
import { isFullGc as isFullGcType, isYoungGenerationGc, type GcEvent } from '../gc/gcEvent';
import { GcTraceCollector } from '../gc/gcTraceCollector';
import { helperGcMs } from '../gc/gcHelperTime';
import { launchTarget, type TargetExit, type TargetProcess } from '../launcher/launchTarget';
import { LAB_PRELOAD_BUNDLE_FILE } from '../launcher/bundledScripts';
import type { AgentRecord } from '../preload/agentRecord';
import { youngCollectorOf, youngGeneration } from '../gc/youngGeneration';
import { isMainThreadRecord, readAgentRecords } from '../run/agentRecords';
import { reachedSemiSpaceMB } from '../../shared/youngGenerationText';
import { planSweepRunLaunch, type LaunchCommand } from '../flags/launchPlan';
import { DEFAULT_SAMPLING_INTERVAL_US } from '../flags/presets';
import { writeLabRunRecords } from './labRunRecords';
import { runLayout } from '../run/runLayout';
import { markLoadWindow } from '../run/windowMarks';
import { servingIsolates } from './servingIsolates';
import { windowAllocations } from './runAllocations';
import { RunProcesses } from '../run/runProcesses';
import { errorMessage, oneLine } from '../util/errors';
import { mean, percentile, round, sum } from '../util/stats';
import { StdoutDemux } from '../gc/stdoutDemux';
import { startLoad, type LoadOutcome } from '../load/loadGenerator';
import type { LoadPhase } from '../load/loadProtocol';
import { processCpuMs, processGroupStats, processPeakRssMB } from '../launcher/procStats';
import { watchReadiness, type ReadinessWatch, type ReadyOutcome } from '../load/readiness';
import { sweepFlagInfo } from '../../shared/sweepFlags';
import type { LoadFigures } from '../../shared/model/load';
import {
  SEMI_SPACE_FLAG,
  semiSpaceValue,
  sweepFlag,
  type RunPretenuring,
  type SweepConfig,
  type SweepProgress,
  type SweepRun,
  type SweepRunProcess,
  type SweepRunPurpose,
  type WindowGcFigures,
} from '../../shared/model/sweep';

/** One slot of sweepSchedule(): the flag's value, the round, the position in the sweep. */
export interface RunSlot {
  value: number;
  round: number;
  index: number;
  /** Absent: a measured run (see labSchedule). */
  purpose?: SweepRunPurpose;
}

/** What every run of a sweep shares, settled (and checked) before the first one starts. */
export interface RunContext {
  config: SweepConfig;
  /** The Node command that passed the probe. */
  node: string;
  /** Absolute path of the script. */
  script: string;
  cwd: string;
  /** The target's whole environment. */
  env: NodeJS.ProcessEnv;
  preloadPath: string;
  loadRunnerPath: string;
  sweepDir: string;
  totalRuns: number;
  signal: AbortSignal | undefined;
  emit(progress: SweepProgress): void;
  /** A file of the sweep could not be written (a full disk): the sweep stops as on Cancel and says why. */
  onWriteError?(what: string, err: unknown): void;
}

/** SIGINT first; the whole group is killed if the target has not exited after this. */
const STOP_GRACE_MS = 4000;
/** How long the preload lets an app's own SIGINT handler run before it exits for it (below STOP_GRACE_MS). */
const AGENT_EXIT_GRACE_MS = 2500;
/** output.log keeps the app's first 16 MB: an app that logs every request must not fill the disk. */
const OUTPUT_LOG_LIMIT = 16 * 1024 * 1024;
const STDERR_TAIL_LINES = 20;

/**
 * runs/<index>-<value>[mb]-r<round> ("03-64mb-r1": "mb" for the flags measured in MB), the index
 * padded so the folders sort in run order.
 */
export function runDirName(slot: RunSlot, totalRuns: number, flag: string = SEMI_SPACE_FLAG): string {
  const width = String(Math.max(0, totalRuns - 1)).length;
  const unit = sweepFlagInfo(flag).unit === 'MB' ? 'mb' : '';
  return join('runs', `${String(slot.index).padStart(width, '0')}-${slot.value}${unit}-r${slot.round}`);
}

/**
 * Bytes between allocation samples in the lab's profiling and survivors runs: 256 KB, finer than a
 * profile's 2 MB. Those runs are in no figure the lab compares, so the sampler's cost does not
 * matter there, while their bytes per request do: each value's figure comes from one run's window,
 * and at 2 MB the example service's 2 s window held about 200 samples, ±7% (1/√n) run to run, so
 * two values differed by up to 21% for sampling alone. At 256 KB the same window holds about
 * 1,500 samples (±2.6%); V8 spends about 4 µs a sample, 0.3% of a core at 200 MB/s.
 */
export const LAB_ALLOC_SAMPLING_BYTES = 256 * 1024;

/**
 * What a run of this purpose samples. A measured run has the GC trace alone: the allocation sampler
 * forces a full GC whenever it is stopped, both profilers cost the app time, and any of it can move
 * V8's pretenuring decisions. A profiling (or survivors) run adds both, for the reports (a lab run is
 * a run folder, opened and compared like a profile) and the code-side figures: bytes allocated per
 * request and who allocates them.
 */
function runSampling(purpose: SweepRunPurpose): { cpuSamplingUs: number | null; allocSamplingBytes: number | null } {
  const profiled = purpose !== 'measure';
  return { cpuSamplingUs: profiled ? DEFAULT_SAMPLING_INTERVAL_US : null, allocSamplingBytes: profiled ? LAB_ALLOC_SAMPLING_BYTES : null };
}

/** The Node command line of one run (no shell), from the launch plans like every other launch. */
export function runLaunch(ctx: Pick<RunContext, 'config' | 'node' | 'preloadPath' | 'script'>, value: number, runDir: string, purpose: SweepRunPurpose = 'measure'): LaunchCommand {
  const { config } = ctx;
  const profiled = purpose !== 'measure';
  const run = {
    nodeArgs: config.target.nodeArgs,
    flag: sweepFlag(config),
    value,
    pinMinSemiSpace: config.pinMinSemiSpace,
    ...runSampling(purpose),
    // The profiling run also traces V8's GC phases: the helper threads' GC time. The measured runs
    // stay as plain as a run can be (--trace-gc-nvp once moved a pretenuring decision).
    gcPhases: profiled,
    // A survivors run: the sampler keeps only what no young GC frees at this value.
    allocSurvivors: purpose === 'survivors',
  };
  const preload = profiled ? ctx.preloadPath : labPreloadPath(ctx.preloadPath);
  return planSweepRunLaunch(ctx.node, run, runLayout(runDir), preload, ctx.script, config.target.args, AGENT_EXIT_GRACE_MS);
}

/** The measured runs' agent (preload/labAgent.ts), bundled beside the full one. */
export function labPreloadPath(preloadPath: string): string {
  return join(dirname(preloadPath), LAB_PRELOAD_BUNDLE_FILE);
}

/** The arguments of runLaunch(): the user's Node flags, ours, the preload, the script. */
export function targetArgs(config: SweepConfig, value: number, preloadPath: string, script: string, purpose: SweepRunPurpose = 'measure'): string[] {
  return runLaunch({ config, node: 'node', preloadPath, script }, value, '.', purpose).args;
}

export async function executeRun(ctx: RunContext, slot: RunSlot): Promise<SweepRun> {
  return new RunExecution(ctx, slot).execute();
}

type Step<T> = { kind: 'value'; value: T } | { kind: 'exit'; exit: TargetExit } | { kind: 'abort' };

class RunExecution {
  private readonly dir: string;
  private readonly relDir: string;
  private readonly startedAt = new Date().toISOString();
  private readonly loadAverage1m = loadavg()[0] ?? 0;
  private readonly collector = new GcTraceCollector();
  private readonly purpose: SweepRunPurpose;
  /** GC events of the target process (not of its children), with their arrival times. */
  private readonly events: GcEvent[] = [];
  private readonly arrivals: number[] = [];
  private readonly stderrTail: string[] = [];
  private stderrPartial = '';
  private gcLog: WriteStream | null = null;
  private outputLog: CappedLog | null = null;
  private readiness: ReadinessWatch | null = null;
  private target: TargetProcess | null = null;
  private phase: 'starting' | 'waiting-ready' | LoadPhase | 'stopping' = 'starting';
  private phaseStart = Date.now();
  /** The measured window, and each process's CPU (and, at the end, peak RSS) at its marks: a cluster has several. */
  private window: { start: number; end: number | null; atStart: GroupStats; atEnd: GroupStats | null } | null = null;
  private readonly aborted: Promise<void>;
  private removeAbortListener = () => {};

  constructor(
    private readonly ctx: RunContext,
    private readonly slot: RunSlot,
  ) {
    this.purpose = slot.purpose ?? 'measure';
    this.relDir = runDirName(slot, ctx.totalRuns, sweepFlag(ctx.config));
    this.dir = join(ctx.sweepDir, this.relDir);
    this.aborted = new Promise<void>((resolve) => {
      const signal = ctx.signal;
      if (!signal) return;
      if (signal.aborted) return resolve();
      const onAbort = () => resolve();
      signal.addEventListener('abort', onAbort, { once: true });
      this.removeAbortListener = () => signal.removeEventListener('abort', onAbort);
    });
  }

  async execute(): Promise<SweepRun> {
    const { slot, ctx } = this;
    const flag = sweepFlag(ctx.config);
    ctx.emit({ type: 'run-start', run: slot.index, of: ctx.totalRuns, flag, value: slot.value, semiSpaceMB: semiSpaceValue(flag, slot.value), round: slot.round, purpose: this.purpose });
    try {
      return await this.measure();
    } finally {
      this.removeAbortListener();
      this.readiness?.cancel();
      await Promise.all([
        this.gcLog ? new Promise<void>((done) => this.gcLog!.end(done)) : undefined,
        this.outputLog?.end(),
      ]);
    }
  }

  private async measure(): Promise<SweepRun> {
    const { ctx, slot } = this;
    await mkdir(runLayout(this.dir).agentDir, { recursive: true });
    this.gcLog = createWriteStream(runLayout(this.dir).gcTrace);
    // A write that fails (a full disk, the folder deleted under us) stops the sweep as Cancel would.
    this.gcLog.on('error', (err) => this.ctx.onWriteError?.(`${this.relDir}/gc-trace.log`, err));
    this.outputLog = new CappedLog(join(this.dir, 'output.log'), OUTPUT_LOG_LIMIT, (err) => this.ctx.onWriteError?.(`${this.relDir}/output.log`, err));
    this.setPhase('starting');
    if (ctx.signal?.aborted) return this.finish('cancelled', 'cancelled before it started', null);

    let target: TargetProcess;
    try {
      const launch = runLaunch(ctx, slot.value, this.dir, this.purpose);
      target = await launchTarget({ command: launch.command, args: launch.args, cwd: ctx.cwd, env: { ...ctx.env, ...launch.env }, stopGraceMs: STOP_GRACE_MS });
    } catch (err) {
      return this.finish('invalid', `could not start the target: ${errorMessage(err)}`, null);
    }
    this.target = target;
    this.pipeOutput(target);

    // Readiness.
    this.setPhase('waiting-ready');
    this.readiness = watchReadiness(ctx.config.readiness);
    const ready = await this.race<ReadyOutcome>(this.readiness.done);
    this.readiness.cancel();
    if (ready.kind === 'abort') return this.cancel();
    if (ready.kind === 'exit') return this.finish('invalid', `the target ${describeExit(ready.exit)} before it was ready${this.stderrHint()}`, null);
    if (!ready.value.ready) return this.stopAndFinish('invalid', ready.value.reason, null);

    // Warm-up and the measured window, back to back in the load runner.
    const { load: settings, request } = ctx.config;
    const pid = target.pid;
    const generator = startLoad(
      ctx.loadRunnerPath,
      {
        url: request.url,
        method: request.method,
        headers: request.headers,
        body: request.body,
        connections: settings.connections,
        warmupSeconds: settings.warmupSeconds,
        duration: settings.durationSeconds,
        rate: settings.rate,
        timeout: settings.timeoutSeconds,
      },
      {
        onPhase: (phase) => {
          if (phase === 'measuring') {
            this.window = { start: Date.now(), end: null, atStart: groupStats(pid), atEnd: null };
            markLoadWindow(runLayout(this.dir).agentDir, 'open');
          }
          this.setPhase(phase);
        },
        onTick: (phase, rps) => {
          if (phase !== this.phase) return;
          const elapsedSeconds = Math.round((Date.now() - this.phaseStart) / 100) / 10;
          ctx.emit({ type: 'tick', run: slot.index, rps, scavenges: this.scavengesSince(this.phaseStart), elapsedSeconds });
        },
        onResult: () => {
          if (!this.window || this.window.end !== null) return;
          this.window.end = Date.now();
          this.window.atEnd = groupStats(pid);
          markLoadWindow(runLayout(this.dir).agentDir, 'close');
        },
      },
    );
    const loaded = await this.race<LoadOutcome>(generator.done);
    if (loaded.kind === 'abort') {
      await generator.kill();
      return this.cancel();
    }
    if (loaded.kind === 'exit') {
      await generator.kill();
      const during = this.phase === 'measuring' ? 'the measurement' : 'the warm-up';
      return this.finish('invalid', `the target ${describeExit(loaded.exit)} during ${during}${this.stderrHint()}`, null);
    }
    if (!loaded.value.ok) return this.stopAndFinish('invalid', loaded.value.reason, null);
    const figures = loaded.value.figures;
    return this.stopAndFinish(failureOf(figures) ? 'invalid' : 'ok', failureOf(figures), figures);
  }

  /** Waits for `step`, the target's exit or the abort, whichever comes first. */
  private race<T>(step: Promise<T>): Promise<Step<T>> {
    return Promise.race([
      step.then((value): Step<T> => ({ kind: 'value', value })),
      this.target!.exited.then((exit): Step<T> => ({ kind: 'exit', exit })),
      this.aborted.then((): Step<T> => ({ kind: 'abort' })),
    ]);
  }

  private async cancel(): Promise<SweepRun> {
    await this.target?.kill();
    return this.finish('cancelled', 'cancelled', null);
  }

  private async stopAndFinish(status: SweepRun['status'], reason: string | null, load: LoadFigures | null): Promise<SweepRun> {
    this.setPhase('stopping');
    const stopped = this.target!.stop();
    const how = await Promise.race([stopped.then(() => 'stopped' as const), this.aborted.then(() => 'aborted' as const)]);
    // Cancelled while stopping: the measurement is complete, so the run keeps its figures.
    if (how === 'aborted') await this.target!.kill();
    return this.finish(status, reason, load);
  }

  private async finish(status: SweepRun['status'], reason: string | null, load: LoadFigures | null): Promise<SweepRun> {
    const records = (await readAgentRecords(runLayout(this.dir))).filter(isMainThreadRecord);
    const record = records.find((r) => r.pid === this.target?.pid) ?? null;
    const effective = this.effectiveYoungMB(records);
    const window = this.window;
    const measured = status !== 'cancelled' && load !== null && window !== null && window.end !== null;
    const windowMs = measured ? window.end! - window.start : 0;
    const gc = measured ? this.windowGc(window.start, window.end!) : null;
    const perProcess = measured ? this.windowProcesses(window.start, window.end!, window.atStart, window.atEnd) : [];
    const cpuKnown = perProcess.filter((p) => p.cpuMs !== null);
    const cpuMs = cpuKnown.length > 0 ? round(cpuKnown.reduce((n, p) => n + p.cpuMs!, 0), 1) : null;
    const rssKnown = perProcess.filter((p) => p.peakRssMB !== null);
    const peakFromAgent = record && record.maxRssKB > 0 ? round(record.maxRssKB / 1024, 1) : null;
    const peakRssMB = rssKnown.length > 0 ? round(rssKnown.reduce((n, p) => n + p.peakRssMB!, 0), 1) : peakFromAgent;
    // The GC share is of the threads that serve the requests, each process's main thread: a cluster's
    // pauses over one window would pass 100%, and a worker thread's pause stops only itself (with a
    // pool's idle workers counted, 1,665 ms per 1k requests at 156 req/s read 8.6% instead of 26%).
    const serving = measured ? servingIsolates(this.events, this.arrivals, window.end!) : new Set<string>();
    const servingPauseMs = measured ? sum(this.events.filter((e, i) => serving.has(`${e.pid}:${e.isolate}`) && this.arrivals[i]! >= window.start && this.arrivals[i]! <= window.end!).map((e) => e.pauseMs)) : 0;
    const requests = measured && load !== null ? load.requests : 0;
    const keptLoad = status === 'cancelled' ? null : load;
    const flag = sweepFlag(this.ctx.config);
    const per1k = (n: number) => round((n / requests) * 1000, 4);
    const alloc = measured ? await windowAllocations(runLayout(this.dir), records, requests, this.ctx.preloadPath).catch(() => null) : null;
    const run: SweepRun = {
      flag,
      value: this.slot.value,
      semiSpaceMB: semiSpaceValue(flag, this.slot.value),
      round: this.slot.round,
      index: this.slot.index,
      status,
      reason: reason === null ? null : oneLine(reason),
      effectiveSemiSpaceMB: effective,
      loadAverage1m: round(this.loadAverage1m, 2),
      startedAt: this.startedAt,
      load: keptLoad,
      gc,
      cpuMs,
      gcWallShare: gc && windowMs > 0 ? round(Math.min(1, servingPauseMs / (windowMs * Math.max(1, serving.size))), 5) : null,
      gcCpuShare: gc && cpuMs ? round(gc.totalPauseMs / cpuMs, 5) : null,
      peakRssMB,
      ...(perProcess.length > 1 ? { processes: perProcess } : {}),
      scavengesPer1k: gc && requests > 0 ? per1k(gc.scavenges) : null,
      gcMsPer1k: gc && requests > 0 ? per1k(gc.totalPauseMs) : null,
      markCompactsPer1k: gc && requests > 0 ? per1k(gc.markCompacts) : null,
      markCompactMsPer1k: gc && requests > 0 ? per1k(gc.markCompactMs) : null,
      ...(this.purpose !== 'measure' ? { helperGcMsPer1k: gc && requests > 0 && gc.helperMs !== null && gc.helperMs !== undefined ? per1k(gc.helperMs) : null } : {}),
      failedRequests: keptLoad ? keptLoad.errors + keptLoad.timeouts + keptLoad.non2xx : null,
      dir: this.relDir,
      // A survivors run's bytes are survivors: kept apart from what the code allocates per request.
      ...(this.purpose === 'survivors'
        ? { allocBytesPerRequest: null, survivorBytesPerRequest: alloc ? round(alloc.bytesPerRequest, 1) : null, ...(alloc ? { topSurvivors: alloc.topAllocators.map((a) => ({ ...a, share: round(a.share, 4) })) } : {}) }
        : { allocBytesPerRequest: alloc ? round(alloc.bytesPerRequest, 1) : null, ...(alloc ? { topAllocators: alloc.topAllocators.map((a) => ({ ...a, share: round(a.share, 4) })) } : {}) }),
      purpose: this.purpose,
      pretenuring: this.pretenuringOfTarget(),
    };
    await this.writeRecords(run, record);
    return run;
  }

  /** session.json, load.json and summary.json, so the run opens as a report; a failure costs only that. */
  private async writeRecords(run: SweepRun, record: AgentRecord | null): Promise<void> {
    if (!this.target) return; // never started: nothing to open
    const exit = await Promise.race([this.target.exited, new Promise<null>((done) => setTimeout(() => done(null), 5000).unref())]);
    const window = this.window && this.window.end !== null ? { start: this.window.start, end: this.window.end } : null;
    await writeLabRunRecords({
      dir: this.dir,
      config: this.ctx.config,
      script: this.ctx.script,
      cwd: this.ctx.cwd,
      launch: runLaunch(this.ctx, this.slot.value, this.dir, this.purpose),
      ...runSampling(this.purpose),
      run,
      pid: this.target.pid,
      exit,
      record,
      window,
      stderrTail: [...this.stderrTail],
    }).catch((err: unknown) => this.ctx.onWriteError?.(`${this.relDir}'s records`, err));
  }

  /** V8's pretenuring in the target's processes (every run asks V8 for it); null when the target never started. */
  private pretenuringOfTarget(): RunPretenuring | null {
    if (this.target === null) return null;
    const p = this.collector.pretenuring.summary();
    return { sitesTenured: p.sitesTenured, sitesEndedTenured: p.sitesEndedTenured, sitesWeighed: p.sitesWeighed };
  }

  /** Largest young generation of the target's processes, in the flag's unit (see youngGeneration.ts). */
  private effectiveYoungMB(records: readonly AgentRecord[]): number | null {
    let largest: number | null = null;
    for (const r of records) {
      const young = youngGeneration(youngCollectorOf(this.events.filter((e) => e.pid === r.pid)), r.newSpaceMaxBytes);
      const mb = reachedSemiSpaceMB(young);
      if (mb !== null) largest = Math.max(largest ?? 0, round(mb, 2));
    }
    return largest;
  }

  /** Each process's CPU and GC in the window and its peak RSS at the end (Linux: every process of the target's group). */
  private windowProcesses(start: number, end: number, atStart: GroupStats, atEnd: GroupStats | null): SweepRunProcess[] {
    if (atEnd === null) return [];
    return [...atEnd].map(([pid, last]) => {
      const first = atStart.get(pid);
      const own = this.events.filter((e, i) => e.pid === pid && this.arrivals[i]! >= start && this.arrivals[i]! <= end);
      return {
        pid,
        peakRssMB: last.peakRssMB === null ? null : round(last.peakRssMB, 1),
        // A process started inside the window has all its CPU there.
        cpuMs: last.cpuMs === null ? null : round(last.cpuMs - (first?.cpuMs ?? 0), 1),
        scavenges: own.filter(isYoungGc).length,
        gcPauseMs: round(sum(own.map((e) => e.pauseMs))),
      };
    });
  }

  private windowGc(start: number, end: number): WindowGcFigures {
    const inWindow = this.events.filter((_, i) => this.arrivals[i]! >= start && this.arrivals[i]! <= end);
    const scavengePauses = inWindow.filter(isYoungGc).map((e) => e.pauseMs);
    const markCompactPauses = inWindow.filter(isFullGc).map((e) => e.pauseMs);
    // V8's helper-thread phases, when the trace has them (the profiling run's --trace-gc-nvp).
    const helpers = inWindow.map(helperGcMs).filter((ms): ms is number => ms !== null);
    return {
      scavenges: scavengePauses.length,
      scavengeMs: round(sum(scavengePauses)),
      meanScavengeMs: round(mean(scavengePauses)),
      p95ScavengeMs: round(percentile(scavengePauses, 95)),
      markCompacts: markCompactPauses.length,
      markCompactMs: round(sum(markCompactPauses)),
      totalPauseMs: round(sum(inWindow.map((e) => e.pauseMs))),
      ...(helpers.length > 0 ? { helperMs: round(sum(helpers)) } : {}),
    };
  }

  private scavengesSince(since: number): number {
    let n = 0;
    for (let i = this.arrivals.length - 1; i >= 0 && this.arrivals[i]! >= since; i--) if (isYoungGc(this.events[i]!)) n++;
    return n;
  }

  private setPhase(phase: RunExecution['phase']): void {
    this.phase = phase;
    this.phaseStart = Date.now();
    this.ctx.emit({ type: 'phase', run: this.slot.index, phase });
  }

  private pipeOutput(target: TargetProcess): void {
    const run = this.slot.index;
    const text = new (stringDecoder().StringDecoder)('utf8');
    // An app line that looks like a GC line (another pid than the run's processes) stays the app's.
    const processes = new RunProcesses(target.pid, runLayout(this.dir).agentDir);
    const demux = new StdoutDemux(
      {
        v8Line: (line, _terminated, kind) => {
          if (kind !== 'trace') return;
          this.gcLog!.write(`${line}\n`);
          if (this.collector.addLine(line) !== 'gc') return;
          // Every process of the app counts (a cluster's workers inherit --trace-gc and print here).
          const event = this.collector.events[this.collector.events.length - 1]!;
          this.events.push(event);
          this.arrivals.push(Date.now());
        },
        app: (bytes) => {
          const decoded = text.write(bytes);
          if (decoded !== '') this.appOutput('stdout', decoded, run);
        },
      },
      { isRunProcess: (pid) => processes.has(pid) },
    );
    target.stdout.on('data', (chunk: Buffer) => demux.write(chunk));
    target.stdout.on('end', () => {
      demux.end();
      const rest = text.end();
      if (rest !== '') this.appOutput('stdout', rest, run);
    });
    target.stderr.setEncoding('utf8');
    target.stderr.on('data', (text: string) => {
      this.appOutput('stderr', text, run);
      this.rememberStderr(text);
    });
  }

  private appOutput(stream: 'stdout' | 'stderr', text: string, run: number): void {
    this.outputLog!.write(text);
    this.readiness?.output(text);
    this.ctx.emit({ type: 'output', run, stream, text });
  }

  private rememberStderr(text: string): void {
    const lines = (this.stderrPartial + text).split('\n');
    this.stderrPartial = (lines.pop() ?? '').slice(-4096);
    for (const line of lines) if (line.trim() !== '') this.stderrTail.push(line.slice(0, 500));
    if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.splice(0, this.stderrTail.length - STDERR_TAIL_LINES);
  }

  /** ": Error: Cannot find module 'x'": the last stderr line that says something, for a crash reason. */
  private stderrHint(): string {
    const lines = [...this.stderrTail, this.stderrPartial].filter((l) => l.trim() !== '' && !/^\s+at /.test(l) && !/^Node\.js v\d/.test(l.trim()));
    const last = lines[lines.length - 1]?.trim();
    return last ? `: ${last.length > 200 ? `${last.slice(0, 199)}…` : last}` : '';
  }
}

function isYoungGc(event: GcEvent): boolean {
  return isYoungGenerationGc(event.type);
}

function isFullGc(event: GcEvent): boolean {
  return isFullGcType(event.type);
}

export function describeExit(exit: TargetExit): string {
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

/** "37 of 41,200 requests failed: 30 non-2xx, 7 timeouts", or null when every request got a 2xx. */
export function failureOf(load: LoadFigures): string | null {
  const failed = load.non2xx + load.timeouts + load.errors;
  if (failed > 0) {
    const attempted = load.requests + load.timeouts + load.errors;
    const parts = [
      load.non2xx > 0 ? `${count(load.non2xx)} non-2xx` : null,
      load.timeouts > 0 ? `${count(load.timeouts)} timeout${load.timeouts === 1 ? '' : 's'}` : null,
      load.errors > 0 ? `${count(load.errors)} connection error${load.errors === 1 ? '' : 's'}` : null,
    ].filter((p) => p !== null);
    return `${count(failed)} of ${count(attempted)} requests failed: ${parts.join(', ')}`;
  }
  if (load.requests === 0) return 'no request was answered in the measured window';
  return null;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

type GroupStats = Map<number, { cpuMs: number | null; peakRssMB: number | null }>;

/** The target's processes now (its process group; only the target itself where /proc cannot say). */
function groupStats(pid: number): GroupStats {
  const stats = processGroupStats(pid);
  if (stats.size === 0) stats.set(pid, { cpuMs: processCpuMs(pid), peakRssMB: processPeakRssMB(pid) });
  return stats;
}

/** A log file that stops growing at `limit` bytes and says so. */
class CappedLog {
  private readonly stream: WriteStream;
  private written = 0;
  private full = false;

  constructor(
    path: string,
    private readonly limit: number,
    onError: (err: unknown) => void = () => undefined,
  ) {
    this.stream = createWriteStream(path);
    this.stream.on('error', onError);
  }

  write(text: string): void {
    if (this.full) return;
    const bytes = Buffer.byteLength(text);
    if (this.written + bytes > this.limit) {
      this.full = true;
      this.stream.write(`\n[v8-lens: output.log stops here, at ${Math.round(this.limit / 2 ** 20)} MB]\n`);
      return;
    }
    this.written += bytes;
    this.stream.write(text);
  }

  end(): Promise<void> {
    return new Promise((done) => this.stream.end(done));
  }
}
