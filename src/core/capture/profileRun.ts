import { readdirSync, statSync } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { stringDecoder } from '../util/lazyBuiltins';
import type { CaptureOptions } from '../flags/captureOptions';
import { envFileText } from '../flags/envFile';
import { planDirectLaunch, planNodeOptionsLaunch, type LaunchPlan } from '../flags/launchPlan';
import { probeNodeRuntime } from '../flags/nodeRuntime';
import type { PresetId } from '../flags/presets';
import { GcTraceCollector } from '../gc/gcTraceCollector';
import { GcLineBatch } from '../gc/gcLineBatch';
import { launchTarget, type TargetExit, type TargetProcess } from '../launcher/launchTarget';
import { ThreadPoller } from '../launcher/threadPoller';
import { readPaced, type PacedReader } from '../launcher/pacedOutput';
import type { StrayProcess } from '../launcher/strayProcesses';
import { createRunFolder, requireEmptyRunFolder, reserveRecordSpace, summarizeRunFolder, writeRunJson } from '../run/runFolderWriter';
import { runLayout, type RunLayout } from '../run/runLayout';
import type { SessionRecord } from '../../shared/model/session';
import type { Summary } from '../../shared/model/summary';
import { RunLoad, type RunLoadOptions } from './runLoad';
import { UserError } from '../util/errors';
import { RunFileStream } from '../run/runFileStream';
import { runOwner } from '../run/runOwner';
import { writeErrorText } from '../util/safeWrite';
import { StdoutDemux } from '../gc/stdoutDemux';
import { RunProcesses } from '../run/runProcesses';
import { TOOL_VERSION } from '../util/version';
import { preloadAgentPath } from '../launcher/bundledScripts';
import { AGENT_ENV } from '../preload/agentEnv';
import { markLoadWindow } from '../run/windowMarks';
import type { ProfileTarget } from '../targets/profileTarget';
import { prepareCodeTraceDir, type CodeTraceDir } from './codeTraceDir';
import { EXIT } from '../util/exitCodes';

export interface ProfileRequest {
  target: ProfileTarget;
  cwd: string;
  /** The target's environment; defaults to ours. */
  env?: NodeJS.ProcessEnv;
  /** The target's Node: a path, or `node` on PATH. */
  node: string;
  preset: PresetId | null;
  options: CaptureOptions;
  runDir: string;
  /** Stop the target gracefully after this many seconds. */
  timeoutS: number | null;
  stopGraceMs?: number;
  /** Drive the target with HTTP load once it is ready, then stop and collect ("profile under load"). */
  load?: RunLoadOptions;
  /** What the user picked it as (a launch configuration's name), for the run's title; the file name when absent. */
  name?: string;
}

/** Where the app's own output goes, unchanged (a terminal, an output channel). */
export interface AppOutput {
  /**
   * The app's stdout as text (UTF-8, a character cut between chunks kept whole), for a consumer that
   * shows text; not called when `stdoutBytes` is given. Returns false when the consumer is full;
   * the target's output is paused until `whenDrained`.
   */
  stdout(text: string): boolean;
  /** The app's stdout byte for byte (a terminal, a pipe); used instead of `stdout` when given. Same backpressure. */
  stdoutBytes?(bytes: Buffer): boolean;
  whenDrained(): Promise<void>;
  /** The app's stderr as text; not called when `stderrBytes` is given. */
  stderr(text: string): void;
  stderrBytes?(bytes: Buffer): void;
}

export interface RunProgress {
  elapsedMs: number;
  gcCounts: Record<string, number>;
  gcPauseMs: number;
  /** GC-shaped V8 lines so far that V8 Lens could not read (a trace format it does not know). */
  gcUnread: number;
  /** req/s in the last second while the load's measured window runs; null otherwise. */
  loadRps: number | null;
}

export type RunOutcome = 'finished' | 'stopped' | 'cancelled' | 'crashed';

export interface RunResult {
  layout: RunLayout;
  session: SessionRecord;
  summary: Summary;
  outcome: RunOutcome;
  /** One line for the user when the target did not end as asked (a crash), else null. */
  problem: string | null;
}

const STDERR_TAIL_LINES = 20;
/**
 * Without a load, the target's output is read at most this often while it is light: ten reads a
 * second cost the target's machine about a fifth of the CPU that a read per GC line did, and a line
 * shows a tenth of a second late at most (an app that prints a lot is read at once).
 */
const OUTPUT_PACE_MS = 100;

/**
 * One profiled run: validates everything it can before launching (so a typo never costs a run),
 * starts the target, separates V8's GC trace from the app's output, and on exit turns the run
 * folder into `summary.json`. Whatever was collected is kept, whatever way the target ended.
 */
export class ProfileRun {
  readonly done: Promise<RunResult>;
  /** V8's lines, parsed when a figure is asked for (see gcLineBatch.ts). */
  private readonly gcLines = new GcLineBatch(new GcTraceCollector());
  private readonly stderrTail: string[] = [];
  private stderrPartial = '';
  private stdoutPaused = false;
  private stdoutReader: PacedReader | null = null;
  private readonly load: RunLoad | null;
  private readonly gcTrace: RunFileStream;
  /** Each thread's own CPU, read from outside (a waiting worker cannot say how little it ran). */
  private readonly threads: ThreadPoller;
  /** The first file of the run folder that could not be written (a full disk), one line; null while all is well. */
  private writeProblem: string | null = null;
  /** Frees the room kept for the last records (see reserveRecordSpace). */
  private releaseRecordSpace: () => Promise<void> = () => Promise.resolve();

  private constructor(
    private readonly target: TargetProcess,
    private readonly layout: RunLayout,
    private session: SessionRecord,
    private readonly output: AppOutput,
    private readonly codeTrace: CodeTraceDir | null,
    timeoutS: number | null,
    load: RunLoadOptions | undefined,
  ) {
    this.gcTrace = new RunFileStream(layout.gcTrace, 'gc-trace.log', (problem) => this.writeFailed(problem));
    this.load = load
      ? new RunLoad(load, {
          gcTally: () => this.gcLines.parsed().tallyByIsolate(),
          codeTraceBytes: () => codeTraceSizes(this.codeTrace?.writeDir ?? null),
          windowMark: (edge) => markLoadWindow(this.layout.agentDir, edge),
          // The load is done (or could not run): stop and collect, as Stop & Collect would.
          finished: () => void this.target.stop(),
        })
      : null;
    this.pipeOutput();
    this.threads = new ThreadPoller(() => runPids(target.pid, layout.agentDir));
    this.threads.start();
    const timer = timeoutS !== null ? setTimeout(() => void this.target.stop(), timeoutS * 1000) : undefined;
    this.done = this.target.exited.then(async (exit) => {
      clearTimeout(timer);
      return this.finish(exit);
    });
  }

  static async start(request: ProfileRequest, output: AppOutput): Promise<ProfileRun> {
    const cwd = resolve(request.cwd);
    if (!(await isDirectory(cwd))) throw new UserError(`working directory not found: ${cwd}`, EXIT.usage);
    if (request.timeoutS !== null && !(request.timeoutS > 0)) throw new UserError(`timeout must be a positive number of seconds (got ${request.timeoutS})`, EXIT.usage);
    const env = { ...(request.env ?? process.env) };
    const runtime = await probeNodeRuntime(request.node, env);
    const layout = runLayout(resolve(cwd, request.runDir));
    const preload = preloadAgentPath();

    const spec = request.target;
    if (spec.kind === 'script' && !(await isFile(resolve(cwd, spec.script)))) {
      throw new UserError(`script not found: ${spec.script}${isAbsolute(spec.script) ? '' : ` (in ${cwd})`}`, EXIT.usage);
    }
    // Only a direct launch writes a code trace (NODE_OPTIONS refuses the deopt flags).
    const codeTrace = spec.kind === 'script' && request.options.capture.deopts ? await prepareCodeTraceDir(layout.v8LogDir) : null;
    try {
      const plan: LaunchPlan =
        spec.kind === 'script'
          ? planDirectLaunch(runtime, request.options, layout, preload, resolve(cwd, spec.script), spec.args, codeTrace ? { dir: codeTrace.writeDir, startupPath: codeTrace.startupPath } : undefined)
          : planNodeOptionsLaunch(runtime, request.options, layout, preload, spec.command, spec.args, env.NODE_OPTIONS);
      if (codeTrace?.problem) plan.limitations.push(codeTrace.problem);
      // Under load only the measured window's allocations count: the sampler starts when it opens.
      if (request.load && plan.capture.alloc) plan.env[AGENT_ENV.allocFromWindow] = '1';
      await prepareRunFolder(layout);
      // Written whole before Node starts: Node reads it first thing, in the target and in every child.
      // Empty (nothing given back) in the one case planDirectLaunch could not foresee.
      if (plan.envFile !== null) await writeFile(plan.envFile, envFileText(plan.env) ?? '');
      // V8 creates a trace only when it first has something to say; an empty start-up file tells a
      // run that wrote no trace at all from one whose traces were lost (see analyzeRun).
      if (codeTrace) await writeFile(codeTrace.startupPath, '', { flag: 'a' });
      const session: SessionRecord = {
        schemaVersion: 1,
        tool: { name: 'v8-lens', version: TOOL_VERSION },
        status: 'running',
        owner: runOwner(),
        node: { command: runtime.command, execPath: runtime.execPath, version: runtime.version, v8Version: runtime.v8Version },
        target:
          request.target.kind === 'script'
            ? { kind: 'script', program: request.target.script, args: request.target.args, cwd, ...(request.name ? { name: request.name } : {}) }
            : { kind: 'command', program: request.target.command, args: request.target.args, cwd, ...(request.name ? { name: request.name } : {}) },
        launch: { mode: plan.mode, command: plan.command, argv: plan.args, env: plan.env, limitations: plan.limitations },
        flags: {
          preset: request.preset,
          // What the launch really collects (an npm script cannot collect deopts); the preset says what was asked.
          capture: { ...plan.capture },
          samplingIntervalUs: request.options.samplingIntervalUs,
          semiSpaceMB: request.options.semiSpaceMB,
          stableDeopts: request.options.stableDeopts,
          extra: [...request.options.extraFlags],
          ...(plan.capture.alloc ? { allocSamplingBytes: request.options.allocSamplingBytes, exactAllocSites: request.options.exactAllocSites } : {}),
          ...(plan.capture.alloc && request.options.allocMode === 'survivors' ? { allocMode: 'survivors' as const } : {}),
          ...(plan.capture.gc && request.options.gcPhases ? { gcPhases: true } : {}),
          // The environment's own NODE_OPTIONS changes the run as much as our flags do.
          inheritedNodeOptions: env.NODE_OPTIONS?.trim() || null,
          timeoutS: request.timeoutS,
        },
        pid: null,
        startedAt: new Date().toISOString(),
        endedAt: null,
        durationMs: null,
        exit: null,
        stderrTail: [],
        machine: { platform: process.platform, cpus: cpus().length, loadavg: loadavg(), totalMemMB: Math.round(totalmem() / 2 ** 20) },
      };
      await writeRunJson(layout.session, session);
      const releaseRecordSpace = await reserveRecordSpace(layout);

      const target = await launchTarget({ command: plan.command, args: plan.args, cwd, env: { ...env, ...plan.env }, stopGraceMs: request.stopGraceMs, pacedOutput: true });
      session.pid = target.pid;
      await writeRunJson(layout.session, session);
      const run = new ProfileRun(target, layout, session, output, codeTrace, request.timeoutS, request.load);
      run.releaseRecordSpace = releaseRecordSpace;
      return run;
    } catch (err) {
      await codeTrace?.collect(); // a staged trace folder must not outlive a run that never started
      // A full disk before the target started: one line, not an internal error.
      if (!(err instanceof UserError) && typeof (err as NodeJS.ErrnoException | null)?.code === 'string') {
        throw new UserError(`cannot write the run folder ${layout.dir}: ${writeErrorText(err)}; nothing was started`, EXIT.failed);
      }
      throw err;
    }
  }

  get pid(): number {
    return this.target.pid;
  }

  get runDir(): string {
    return this.layout.dir;
  }

  /** Graceful: the target exits through the preload's handler, so its CPU profile is written. */
  stop(): void {
    void this.target.stop();
  }

  /** At once: the process group is killed; what was already written (GC trace, logs) is kept. */
  cancel(): void {
    void this.target.kill();
  }

  /**
   * A file of the run folder could not be written (ENOSPC, EIO): the target is stopped as on Cancel,
   * so nothing more is produced that cannot be kept; the run ends 'failed' and says why.
   */
  private writeFailed(problem: string): void {
    if (this.writeProblem !== null) return;
    this.writeProblem = problem;
    void this.target.kill();
  }

  progress(): RunProgress {
    const gc = this.gcLines.parsed();
    return { elapsedMs: Date.now() - this.target.startedAt, gcCounts: gc.countsByType(), gcPauseMs: gc.totalPauseMs, gcUnread: gc.unparsedLines, loadRps: this.load?.rps ?? null };
  }

  private pipeOutput(): void {
    const { stdout, stderr } = this.target;
    const { output } = this;
    // The bytes go on as they came; text is made only for who reads text (the load's "listening on
    // <url>" watch, an output channel).
    const stdoutText = new (stringDecoder().StringDecoder)('utf8');
    const appStdout = (text: string) => {
      if (text === '') return;
      this.load?.output(text);
      if (!output.stdoutBytes) this.forwardStdout(output.stdout(text));
    };
    // Only the run's processes print V8's lines: an app line that looks like one stays the app's.
    const processes = new RunProcesses(this.target.pid, this.layout.agentDir);
    const demux = new StdoutDemux(
      {
        v8Line: (line, _terminated, kind) => {
          // A deopt tail belongs to a line whose head V8 wrote to the code-trace file: not the app's.
          if (kind === 'deopt-tail') return;
          this.gcLines.add(line);
          this.gcTrace.write(`${line}\n`);
        },
        app: (bytes) => {
          if (this.load || !output.stdoutBytes) appStdout(stdoutText.write(bytes));
          if (output.stdoutBytes) this.forwardStdout(output.stdoutBytes(bytes));
        },
      },
      { isRunProcess: (pid) => processes.has(pid) },
    );
    // A load's window is told apart by the GC lines read when it opens and closes: read as they
    // come. Otherwise the lines may wait in the pipe a moment (see pacedOutput).
    const pace = this.load ? 0 : OUTPUT_PACE_MS;
    this.stdoutReader = readPaced(stdout, pace, (chunk) => demux.write(chunk), () => {
      demux.end();
      appStdout(stdoutText.end());
    });
    const stderrText = new (stringDecoder().StringDecoder)('utf8');
    const appStderr = (chunk: Buffer | null) => {
      const text = chunk === null ? stderrText.end() : stderrText.write(chunk);
      if (chunk !== null && output.stderrBytes) output.stderrBytes(chunk);
      if (text === '') return;
      this.load?.output(text);
      if (!output.stderrBytes) output.stderr(text);
      this.rememberStderr(text);
    };
    const stderrReader = readPaced(stderr, pace, appStderr, () => appStderr(null));
    // Its last lines and the pipes' ends are read at once: the run's end waits for them.
    void this.target.processExited.then(() => {
      this.stdoutReader?.readAtOnce();
      stderrReader.readAtOnce();
    });
  }

  private forwardStdout(accepted: boolean): void {
    if (accepted || this.stdoutPaused) return;
    // Backpressure: the app waits for us rather than us buffering its output without bound.
    this.stdoutPaused = true;
    this.stdoutReader?.hold();
    void this.output.whenDrained().then(() => {
      this.stdoutPaused = false;
      this.stdoutReader?.release();
    });
  }

  private rememberStderr(text: string): void {
    const lines = (this.stderrPartial + text).split('\n');
    this.stderrPartial = (lines.pop() ?? '').slice(-4096);
    for (const line of lines) if (line.trim() !== '') this.stderrTail.push(line.slice(0, 500));
    if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.splice(0, this.stderrTail.length - STDERR_TAIL_LINES);
  }

  private async finish(exit: TargetExit): Promise<RunResult> {
    this.threads.stop();
    await this.gcTrace.end();
    await this.releaseRecordSpace();
    // Each record is written whole or not at all; one that cannot be (a full disk) is said, and the rest still tried.
    const unwritten: string[] = [];
    const save = async (path: string, name: string, value: unknown) => {
      await writeRunJson(path, value).catch((err: unknown) => unwritten.push(`${name} could not be written (${writeErrorText(err)})`));
    };
    if (this.load) {
      const why = exit.requested === 'kill' ? 'the run was cancelled before the load finished' : exit.requested === 'stop' ? 'the run was stopped before the load finished' : 'the target exited before the load finished';
      await save(this.layout.load, 'load.json', await this.load.end(why));
    }
    if (this.stderrPartial.trim() !== '') this.stderrTail.push(this.stderrPartial.slice(0, 500));
    const outcome = outcomeOf(exit);
    const stoppedForWrite = this.writeProblem !== null ? `${this.writeProblem}: the target was stopped as on Cancel; what was collected until then is kept` : null;
    this.session = {
      ...this.session,
      status: stoppedForWrite ? 'failed' : outcome,
      launch: stoppedForWrite ? { ...this.session.launch, limitations: [...this.session.launch.limitations, stoppedForWrite] } : this.session.launch,
      endedAt: new Date().toISOString(),
      durationMs: exit.durationMs,
      exit: { code: exit.code, signal: exit.signal, requested: exit.requested, hardKilled: exit.hardKilled },
      stderrTail: this.stderrTail.slice(-STDERR_TAIL_LINES),
    };
    await save(this.layout.session, 'session.json', this.session);
    const threads = this.threads.record();
    if (threads) await save(this.layout.threads, 'threads.json', threads);
    const moveProblem = (await this.codeTrace?.collect()) ?? null;
    const gc = this.gcLines.parsed();
    const summary = await summarizeRunFolder(this.layout, this.session, { events: gc.events, unparsedLines: gc.unparsedLines, raw: gc.rawCounts(), pretenuring: gc.pretenuring.summary() });
    if (moveProblem) summary.warnings.push(moveProblem);
    if (exit.hardKilled) summary.warnings.unshift(`the target did not stop within the grace time and was killed; its CPU profile may be missing`);
    for (const stray of exit.strays) summary.warnings.push(strayWarning(stray));
    await save(this.layout.summary, 'summary.json', summary);
    const problem = [stoppedForWrite ?? problemOf(exit), ...unwritten].filter((p) => p !== null).join('; ');
    return { layout: this.layout, session: this.session, summary, outcome, problem: problem === '' ? null : problem };
  }
}

/** The launched process and every process its agent recorded (`<pid>.json`, `<pid>-<threadId>.json`). */
function runPids(launchedPid: number, agentDir: string): Set<number> {
  const pids = new Set([launchedPid]);
  let names: string[] = [];
  try {
    names = readdirSync(agentDir);
  } catch {
    // not there yet
  }
  for (const name of names) {
    const pid = /^(\d+)(?:-\d+)?\.json$/.exec(name)?.[1];
    if (pid !== undefined) pids.add(Number(pid));
  }
  return pids;
}

function strayWarning({ pid, command }: StrayProcess): string {
  return `process ${pid} (${command}) left the target's process group (detached), so it was not stopped with the run and is still running; end it yourself if it should not (kill ${pid})`;
}

/** The size of each code trace in the folder now (a missing folder: none). */
function codeTraceSizes(dir: string | null): Record<string, number> {
  const sizes: Record<string, number> = {};
  if (dir === null) return sizes;
  try {
    for (const name of readdirSync(dir)) if (name.endsWith('.asm')) sizes[name] = statSync(join(dir, name)).size;
  } catch {
    // Not there (yet): every trace counts as empty.
  }
  return sizes;
}

function outcomeOf(exit: TargetExit): RunOutcome {
  if (exit.requested === 'kill') return 'cancelled';
  if (exit.requested === 'stop') return 'stopped';
  return exit.code === 0 ? 'finished' : 'crashed';
}

function problemOf(exit: TargetExit): string | null {
  if (exit.requested !== null || exit.code === 0) return null;
  const after = `after ${(exit.durationMs / 1000).toFixed(2)} s`;
  return exit.signal ? `the target was killed by ${exit.signal} ${after}` : `the target exited with code ${exit.code} ${after}`;
}

async function prepareRunFolder(layout: RunLayout): Promise<void> {
  await requireEmptyRunFolder(layout);
  await createRunFolder(layout, [layout.cpuDir, layout.v8LogDir, layout.agentDir]);
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}
