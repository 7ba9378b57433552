import { SEMI_SPACE_FLAG } from '../../shared/model/sweep';
import { flagArg } from '../../shared/sweepFlags';
import { UserError } from '../util/errors';
import { AGENT_ENV, TRACE_GC_NVP_FLAG, TRACE_PRETENURING_FLAG } from '../preload/agentEnv';
import { STABLE_DEOPTS_FLAG, type CaptureOptions } from './captureOptions';
import type { NodeRuntime } from './nodeRuntime';
import { EXACT_ALLOC_SITES_FLAGS } from '../preload/allocationSampler';
import { ALLOC_SAMPLING_BYTES_RANGE, type CaptureSet } from './presets';
import { envFileText } from './envFile';
import { validateUserFlags, type UserFlag } from './userFlags';

/**
 * How the target is started. `direct`: we own the Node command line (a script). `node-options`:
 * something else starts Node (an npm script, a framework CLI), so flags travel in NODE_OPTIONS and
 * the preload switches on what NODE_OPTIONS refuses.
 */
export type LaunchMode = 'direct' | 'node-options';

/** A Node command line (no shell) and what to add to the target's environment. */
export interface LaunchCommand {
  command: string;
  args: string[];
  /** Variables to add to the target's environment. */
  env: Record<string, string>;
}

export interface LaunchPlan extends LaunchCommand {
  mode: LaunchMode;
  flags: UserFlag[];
  /** What this plan really collects: less than asked when the launch mode cannot (see limitations). */
  capture: CaptureSet;
  /** What this plan cannot collect, and why; shown to the user, never silently empty. */
  limitations: string[];
  /**
   * Node's `--env-file` on the command line: the launch must write `envFileText(env)` there before
   * it starts Node (envFile.ts says why); null: none.
   */
  envFile: string | null;
}

export function validateCaptureOptions(options: CaptureOptions, runtime: NodeRuntime): UserFlag[] {
  if (!Number.isInteger(options.samplingIntervalUs) || options.samplingIntervalUs < 1) {
    throw new UserError(`sampling interval must be a whole number of microseconds ≥ 1 (got ${options.samplingIntervalUs})`);
  }
  if (options.semiSpaceMB !== null && (!Number.isInteger(options.semiSpaceMB) || options.semiSpaceMB < 1 || options.semiSpaceMB > 65536)) {
    throw new UserError(`semi-space size must be a whole number of MB from 1 to 65536 (got ${options.semiSpaceMB})`);
  }
  const { min, max } = ALLOC_SAMPLING_BYTES_RANGE;
  if (!Number.isInteger(options.allocSamplingBytes) || options.allocSamplingBytes < min || options.allocSamplingBytes > max) {
    throw new UserError(`allocation sampling interval must be a whole number of bytes from ${min} to ${max} (got ${options.allocSamplingBytes})`);
  }
  if (options.exactAllocSites && !options.capture.alloc) {
    throw new UserError('exact allocation sites need allocations to be collected (a preset with allocations)');
  }
  if (options.allocMode === 'survivors' && !options.capture.alloc) {
    throw new UserError('survivors are sampled allocations: they need a preset with allocations');
  }
  if (options.gcPhases && !options.capture.gc) {
    throw new UserError("V8's GC phases are read from the GC trace: they need a preset with the GC trace");
  }
  const flags = validateUserFlags(options.extraFlags, runtime);
  if (options.semiSpaceMB !== null && flags.some((f) => f.name === 'max-semi-space-size')) {
    throw new UserError('--max-semi-space-size is given twice (as the semi-space option and as an extra flag); keep one');
  }
  return flags;
}

/**
 * The run-folder paths a launch hands to Node and the preload. `run/runLayout.ts` extends it: the
 * flags are planned here, below the run folder, without knowing the rest of its layout.
 */
export interface CapturePaths {
  /** `--cpu-prof-dir` */
  cpuDir: string;
  /** `--logfile` and its folder */
  v8LogDir: string;
  v8LogFile: string;
  /** `--redirect-code-traces-to` before the preload redirects each process's own */
  codeTraces: string;
  /** The preload agent's records */
  agentDir: string;
  /** The allocation sampler's heap profiles */
  heapDir: string;
  /** The preload's settings for `--env-file` (see envFile.ts) */
  agentEnvFile: string;
}

export function planDirectLaunch(
  runtime: NodeRuntime,
  options: CaptureOptions,
  layout: CapturePaths,
  preloadPath: string,
  script: string,
  scriptArgs: readonly string[],
  /** Where V8 writes the code traces: the run folder's `v8/`, or a short stand-in (see codeTraceDir.ts). */
  codeTraces: { dir: string; startupPath: string } = { dir: layout.v8LogDir, startupPath: layout.codeTraces },
): LaunchPlan {
  const flags = validateCaptureOptions(options, runtime);
  const { capture } = options;
  const env: Record<string, string> = { [AGENT_ENV.dir]: layout.agentDir };
  if (capture.gc) env[AGENT_ENV.traceGc] = options.gcPhases ? 'nvp' : '1';
  // The code trace is read only with a CPU profile; then every process and thread needs its own file.
  if (capture.deopts && capture.cpu) env[AGENT_ENV.codeTraceDir] = codeTraces.dir;
  Object.assign(env, allocationEnv(options, layout));
  // The preload's settings also travel on the command line, which a child the app forks with an
  // environment of its own keeps (Node 20.6+; a path Node's --env-file cannot hold goes without).
  const envFile = runtime.nodeFlags.has('env-file') && envFileText(env) !== null ? layout.agentEnvFile : null;
  const args = [
    ...flags.map((f) => f.raw),
    ...(options.semiSpaceMB !== null ? [`--max-semi-space-size=${options.semiSpaceMB}`] : []),
    ...(capture.cpu ? ['--cpu-prof', `--cpu-prof-dir=${layout.cpuDir}`, `--cpu-prof-interval=${options.samplingIntervalUs}`] : []),
    // No V8 flag of ours on the command line (but the V8 log's, without a CPU profile): the preload
    // sets the GC trace and the code traces (AGENT_ENV.traceGc, AGENT_ENV.codeTraceDir) before the
    // app's first line, once it has loaded the built-ins it needs. Any V8 flag makes Node compile its
    // built-ins without their embedded code cache from then on, so on the command line the flags
    // slowed the preload's own loading too: the default preset reached a script's first line 13 ms
    // later (medians of 30 runs on a 2-core VM). No GC happens in Node's own start-up before the
    // preload (`node --trace-gc -e 0` prints none), so the trace loses nothing.
    ...(capture.deopts && !capture.cpu
      ? [
          // A running CPU profiler stops V8 from logging code-deopt events and JS code-creation (seen
          // on Node 18-26: with --cpu-prof the log holds only builtins and bytecode handlers), so
          // with a profile the deopts are read from the code traces, which have their positions,
          // and the optimizations from --trace-opt's lines, in order; the preload points each
          // process and thread at its own trace and only then switches both traces on (on the
          // command line, Node 24 would trace its own start-up into a shared file first). Without a
          // profile they come from the V8 log.
          '--log-deopt',
          '--log-code',
          `--logfile=${layout.v8LogFile}`,
          // Both flags are needed to keep `[bailout …]` lines out of the app's stdout, and the target
          // must be a real file: /dev/null makes V8 abort.
          '--redirect-code-traces',
          `--redirect-code-traces-to=${codeTraces.startupPath}`,
        ]
      : []),
    // Once, even when the user's own flags (launch.json runtimeArgs) already say it.
    ...(options.stableDeopts && !flags.some((f) => f.raw === STABLE_DEOPTS_FLAG) ? [STABLE_DEOPTS_FLAG] : []),
    ...(options.exactAllocSites ? EXACT_ALLOC_SITES_FLAGS.filter((x) => !flags.some((f) => f.raw === x)) : []),
    ...(envFile !== null ? [`--env-file=${envFile}`] : []),
    ...preloadThenScript(preloadPath, script, scriptArgs),
  ];
  return { mode: 'direct', command: runtime.command, args, env, flags, capture: { ...capture }, limitations: [], envFile };
}

/** Allocations are sampled in-process by the preload, the same for every kind of launch. */
function allocationEnv(options: CaptureOptions, layout: CapturePaths): Record<string, string> {
  if (!options.capture.alloc) return {};
  const env: Record<string, string> = { [AGENT_ENV.allocDir]: layout.heapDir, [AGENT_ENV.allocIntervalBytes]: String(options.allocSamplingBytes) };
  if (options.allocMode === 'survivors') env[AGENT_ENV.allocSurvivors] = '1';
  return env;
}

/** How every direct launch ends: our preload first, then the user's script and its arguments. */
function preloadThenScript(preloadPath: string, script: string, scriptArgs: readonly string[]): string[] {
  return ['--require', preloadPath, script, ...scriptArgs];
}

/** One run of a sweep: the user's own Node flags, the swept flag at one value, and the GC trace. */
export interface SweepRunFlags {
  /** Already validated against the target's Node (runSweep's prepare). */
  nodeArgs: readonly string[];
  /** Without dashes. */
  flag: string;
  value: number;
  /** Semi-space sweeps only: `--min-semi-space-size` equal to the value, so the new space starts full size. */
  pinMinSemiSpace: boolean;
  /** Bytes between allocation samples, so each run records what the code allocates per request; null: none. */
  allocSamplingBytes: number | null;
  /** µs between CPU samples, so each run keeps its CPU profile (a run folder like any other); null: none. */
  cpuSamplingUs: number | null;
  /** The GC trace as V8's phases (`--trace-gc-nvp`): the profiling run's helper-thread GC time. Absent: `--trace-gc`. */
  gcPhases?: boolean;
  /** The allocation sampler keeps survivors only (a survivors run). Absent: every allocation. */
  allocSurvivors?: boolean;
}

/**
 * A lab run's launch: the user's Node flags, `--trace-gc`, `--<flag>=<value>` (after the user's,
 * so it wins), the preload, the script. The GC trace is on the command line so start-up GCs count.
 */
export function planSweepRunLaunch(
  command: string,
  run: SweepRunFlags,
  paths: Pick<CapturePaths, 'agentDir' | 'heapDir' | 'cpuDir'>,
  preloadPath: string,
  script: string,
  scriptArgs: readonly string[],
  /** How long the preload lets an app's own SIGINT handler run before it exits for it. */
  exitGraceMs: number,
): LaunchCommand {
  const args = [
    ...run.nodeArgs,
    run.gcPhases ? TRACE_GC_NVP_FLAG : '--trace-gc',
    TRACE_PRETENURING_FLAG,
    flagArg(run.flag, run.value),
    ...(run.pinMinSemiSpace && run.flag === SEMI_SPACE_FLAG ? [`--min-semi-space-size=${run.value}`] : []),
    ...(run.cpuSamplingUs !== null ? ['--cpu-prof', `--cpu-prof-dir=${paths.cpuDir}`, `--cpu-prof-interval=${run.cpuSamplingUs}`] : []),
    ...preloadThenScript(preloadPath, script, scriptArgs),
  ];
  const env: Record<string, string> = { [AGENT_ENV.dir]: paths.agentDir, [AGENT_ENV.exitGraceMs]: String(exitGraceMs) };
  if (run.allocSamplingBytes !== null) Object.assign(env, { [AGENT_ENV.allocDir]: paths.heapDir, [AGENT_ENV.allocIntervalBytes]: String(run.allocSamplingBytes) });
  if (run.allocSamplingBytes !== null && run.allocSurvivors) env[AGENT_ENV.allocSurvivors] = '1';
  return { command, args, env };
}

export function planNodeOptionsLaunch(
  runtime: NodeRuntime,
  options: CaptureOptions,
  layout: CapturePaths,
  preloadPath: string,
  command: string,
  commandArgs: readonly string[],
  inheritedNodeOptions: string | undefined,
): LaunchPlan {
  const flags = validateCaptureOptions(options, runtime);
  const refused = flags.find((f) => !runtime.allowedInNodeOptions.has(f.negated ? `no-${f.name}` : f.name) && !runtime.allowedInNodeOptions.has(f.name));
  if (refused) {
    throw new UserError(`${refused.raw} cannot be passed through NODE_OPTIONS (Node ${runtime.version} refuses it there); profile the script file directly instead`);
  }
  const nodeOptions = [
    ...(inheritedNodeOptions?.trim() ? [inheritedNodeOptions.trim()] : []),
    ...flags.map((f) => quoteForNodeOptions(f.raw)),
    ...(options.semiSpaceMB !== null ? [`--max-semi-space-size=${options.semiSpaceMB}`] : []),
    `--require=${quoteForNodeOptions(preloadPath)}`,
  ].join(' ');
  const env: Record<string, string> = { NODE_OPTIONS: nodeOptions, [AGENT_ENV.dir]: layout.agentDir, ...allocationEnv(options, layout) };
  // NODE_OPTIONS refuses V8's inlining flags: the preload sets them before the app's code runs.
  if (options.exactAllocSites) env[AGENT_ENV.exactAllocSites] = '1';
  if (options.capture.gc) env[AGENT_ENV.traceGc] = options.gcPhases ? 'nvp' : '1';
  if (options.capture.cpu) {
    env[AGENT_ENV.cpuProfileDir] = layout.cpuDir;
    env[AGENT_ENV.cpuProfileIntervalUs] = String(options.samplingIntervalUs);
  }
  const limitations: string[] = [];
  if (options.capture.deopts) limitations.push(NODE_OPTIONS_LIMITS.deopts);
  if (options.capture.gc) limitations.push(NODE_OPTIONS_LIMITS.gcStartup);
  // Deopts cannot be asked for through NODE_OPTIONS at all: the run records that it did not collect them.
  const capture = { ...options.capture, deopts: false };
  return { mode: 'node-options', command, args: [...commandArgs], env, flags, capture, limitations, envFile: null };
}

/** What a launch through NODE_OPTIONS (an npm script, a framework CLI) cannot collect, said once per run. */
export const NODE_OPTIONS_LIMITS = {
  deopts: 'deopts need a direct launch: Node refuses --log-deopt in NODE_OPTIONS, so no deopt log was taken',
  gcStartup: 'GC events before the preload ran (Node start-up) are not in the trace',
} as const;

/** NODE_OPTIONS splits on spaces and understands double quotes with backslash escapes. */
export function quoteForNodeOptions(value: string): string {
  return /[\s"\\]/.test(value) ? `"${value.replace(/[\\"]/g, '\\$&')}"` : value;
}
