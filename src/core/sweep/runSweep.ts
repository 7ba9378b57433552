/**
 * Runs a sweep for real (gc.md sections 9 and 13): every value × round in the rotated,
 * interleaved order of sweepSchedule(), a fresh target process per run, launched directly as
 * `node <nodeArgs> --trace-gc --trace-pretenuring-statistics --<flag>=V [--min-semi-space-size=V]
 * --require <preload> <script> <args>` (no shell, its own process group; the preload only stops
 * the target gracefully and reads its young generation at the end), and load from autocannon in a
 * forked process. Then, unless config.profileRounds is false, one profiling run per value with
 * `--cpu-prof` and allocation sampling added, for the reports only (see labSchedule). The
 * flag is `--max-semi-space-size` unless config.flag names another numeric V8 or Node flag
 * (checked against the target's Node first); `--min-semi-space-size` only with pinMinSemiSpace,
 * which only a semi-space sweep accepts.
 * sweep.json is rewritten after every run, so a cancelled (or killed) sweep keeps what finished;
 * while the sweep runs, the file has `endedAt: null`.
 *
 * Progress events carry `run` = the run's `index` (0-based, execution order) and `round` 0-based;
 * `tick.scavenges` counts the scavenges since the current phase (warm-up or measured window) began.
 */
import { childProcess } from '../util/lazyBuiltins';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { cpus } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { probeNodeRuntime } from '../flags/nodeRuntime';
import { validateUserFlags } from '../flags/userFlags';
import { UserError } from '../util/errors';
import { requireLoopbackUrl } from '../load/loopback';
import { summarizeSweep } from './summarizeSweep';
import { predictionChecks } from './predictionChecks';
import { flagValueText, parseSweepFlagName, validateSweepFlag } from './sweepFlagCheck';
import { formatSetting, sweepFlagInfo } from '../../shared/sweepFlags';
import { executeRun, labPreloadPath, type RunContext } from './sweepRun';
import { labSchedule } from './sweepSchedule';
import { EXIT } from '../util/exitCodes';
import { writeErrorText, writeFileWhole } from '../util/safeWrite';
import {
  SEMI_SPACE_FLAG,
  SWEEP_SCHEMA_VERSION,
  hasProfileRounds,
  normalizeSweepConfig,
  sweepValues,
  type SweepConfig,
  type SweepEnvironment,
  type SweepProgress,
  type SweepResult,
  type SweepRun,
} from '../../shared/model/sweep';

export interface RunSweepOptions {
  /** The sweep folder: sweep.json (rewritten after every run, so a cancelled sweep keeps what finished), runs/<index>-<value>[mb]-r<round>/ with gc-trace.log and output.log. */
  outDir: string;
  signal?: AbortSignal;
  onProgress?: (p: SweepProgress) => void;
  /** Path of dist/preload.js (the caller knows where the bundle is; see src/core/launcher/bundledScripts.ts). */
  preloadPath: string;
  /** Path of dist/load-runner.js. */
  loadRunnerPath: string;
  toolVersion: string;
  /**
   * The environment `config.target.env` is added to for the target (default: this process's). The
   * editor passes its own without VS Code's variables; sweep.json records only `target.env`, so
   * whatever secrets the base holds stay out of it.
   */
  baseEnv?: NodeJS.ProcessEnv;
}

/**
 * Flags the sweep sets itself on every run; the same flag from the target's configuration would
 * fight it: the swept flag, and for a semi-space sweep both semi-space flags (the minimum is
 * pinned, or V8's own).
 */
function sweepOwnedFlags(flag: string): Set<string> {
  return flag === SEMI_SPACE_FLAG ? new Set([SEMI_SPACE_FLAG, 'min-semi-space-size']) : new Set([flag]);
}
/** The largest value of a flag measured in MB (64 GB). */
const MAX_SIZE_MB = 65536;
/** The default-semi-space probe: churn with survivors for a second, report the largest new space / 2. */
const DEFAULT_SEMI_SPACE_PROBE =
  "const v8=require('v8');let max=0;const keep=new Array(20000);let i=0;const t0=Date.now();" +
  "while(Date.now()-t0<1000){for(let k=0;k<2000;k++)keep[i++%20000]={a:i,b:[i,i+1],c:'x'+i};" +
  "for(const s of v8.getHeapSpaceStatistics())if(s.space_name==='new_space'&&s.space_size>max)max=s.space_size;}" +
  'process.stdout.write(String(max/2/1048576))';
const DEFAULT_SEMI_SPACE_TIMEOUT_MS = 2500;

/**
 * Runs the protocol; resolves with the final SweepResult (also written to outDir/sweep.json).
 * Invalid runs never throw; config errors (a non-loopback URL, a missing script, an unknown Node)
 * throw UserError (src/core/util/errors.ts) before anything starts. Cancel = abort the signal: the
 * load and the target stop at once (process group kill), the result has status 'cancelled' with the
 * finished runs kept. `config.target.env` is added to this process's environment for the target.
 */
export async function runSweep(given: SweepConfig, options: RunSweepOptions): Promise<SweepResult> {
  // sweep.json always carries `flag` and `values` (and `sizesMB` for readers that know only it).
  const config = normalizeSweepConfig({ ...given, flag: given.flag === undefined ? undefined : parseSweepFlagName(given.flag) });
  const prepared = await prepare(config, options);
  const emit = (p: SweepProgress) => {
    try {
      options.onProgress?.(p);
    } catch {
      // A progress consumer's bug must not break the measurement.
    }
  };
  const schedule = labSchedule(sweepValues(config), config.rounds, hasProfileRounds(config), config.survivors === true);
  const sweepJson = join(prepared.outDir, 'sweep.json');
  const startedAt = new Date().toISOString();
  const runs: SweepRun[] = [];
  const extraWarnings = machineWarnings(prepared.environment);

  const resultOf = (status: SweepResult['status'], endedAt: string | null): SweepResult => {
    const summary = summarizeSweep(runs, config, prepared.environment);
    return {
      schemaVersion: SWEEP_SCHEMA_VERSION,
      tool: { name: 'v8-lens', version: options.toolVersion },
      config,
      environment: prepared.environment,
      startedAt,
      endedAt,
      status,
      results: summary.results,
      recommendation: summary.recommendation,
      warnings: [...summary.warnings, ...extraWarnings],
      ...(config.prediction ? { predictionChecks: predictionChecks(summary.results, config.prediction) } : {}),
    };
  };
  // A full disk or an I/O error, anywhere in the sweep's folder, stops the sweep as Cancel would: the
  // finished runs are kept, the sweep ends 'failed' and its first warning says why.
  const disk: { problem: string | null } = { problem: null };
  const stopForDisk = new AbortController();
  const onWriteError = (what: string, err: unknown) => {
    if (disk.problem !== null || typeof (err as NodeJS.ErrnoException | null)?.code !== 'string') return;
    disk.problem = `${what} could not be written: ${writeErrorText(err)}; the sweep was stopped as on Cancel, and the finished runs are kept`;
    stopForDisk.abort();
  };
  const signal = options.signal ? AbortSignal.any([options.signal, stopForDisk.signal]) : stopForDisk.signal;
  const save = async (result: SweepResult) => {
    // Whole or not at all: the sidebar reads the file after every run and must never see half of it.
    await writeFileWhole(sweepJson, `${JSON.stringify(result, null, 2)}\n`).catch((err: unknown) => onWriteError('sweep.json', err));
  };

  await mkdir(join(prepared.outDir, 'runs'), { recursive: true });
  // Until the sweep ends the file says 'cancelled' with no end time: that is what it is if we die.
  await save(resultOf('cancelled', null));

  const ctx: RunContext = {
    config,
    node: prepared.node,
    script: prepared.script,
    cwd: prepared.cwd,
    env: prepared.env,
    preloadPath: options.preloadPath,
    loadRunnerPath: options.loadRunnerPath,
    sweepDir: prepared.outDir,
    totalRuns: schedule.length,
    signal,
    emit,
    onWriteError,
  };

  let status: SweepResult['status'] = 'finished';
  try {
    for (const slot of schedule) {
      if (signal.aborted) {
        status = disk.problem ? 'failed' : 'cancelled';
        break;
      }
      const run = await executeRun(ctx, slot);
      runs.push(run);
      await save(resultOf('cancelled', null));
      emit({ type: 'run-end', run });
      if (run.status === 'cancelled') {
        status = disk.problem ? 'failed' : 'cancelled';
        break;
      }
      if (run.status === 'invalid' && config.onRunFailure === 'stop') {
        status = 'stopped-on-failure';
        break;
      }
    }
  } catch (err) {
    // A bug or the disk (not the target: runs report their own problems). Keep what was measured.
    onWriteError('the run folder', err);
    if (disk.problem === null) {
      await save(resultOf('failed', new Date().toISOString()));
      throw err;
    }
    status = 'failed';
  }
  if (status === 'finished' && options.signal?.aborted) status = 'cancelled';
  if (disk.problem !== null) status = 'failed';
  const result = resultOf(status, new Date().toISOString());
  if (disk.problem !== null) result.warnings.unshift(disk.problem);
  await save(result);
  return result;
}

interface Prepared {
  outDir: string;
  node: string;
  script: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  environment: SweepEnvironment;
}

/** Everything that can be checked before the first run, so a typo never costs a sweep. */
async function prepare(config: SweepConfig, options: RunSweepOptions): Promise<Prepared> {
  validateNumbers(config);
  requireLoopbackUrl(config.request.url, 'the load URL');
  if (config.readiness.kind === 'url') requireLoopbackUrl(config.readiness.url, 'the readiness URL');
  else if (config.readiness.text.trim() === '') throw new UserError('the readiness line is empty: give the text the target prints once it listens', EXIT.usage);
  if (!/^[A-Za-z]+$/.test(config.request.method)) throw new UserError(`'${config.request.method}' is not an HTTP method`, EXIT.usage);

  const { target } = config;
  const cwd = resolve(target.cwd);
  if (!(await isDirectory(cwd))) throw new UserError(`working directory not found: ${cwd}`, EXIT.usage);
  const script = resolve(cwd, target.script);
  if (!(await isFile(script))) throw new UserError(`script not found: ${target.script}${isAbsolute(target.script) ? '' : ` (in ${cwd})`}`, EXIT.usage);
  if (!(await isFile(options.preloadPath))) throw new UserError(`the preload agent is missing: ${options.preloadPath} (run npm run build)`, EXIT.usage);
  if (!(await isFile(labPreloadPath(options.preloadPath)))) throw new UserError(`the lab's agent is missing: ${labPreloadPath(options.preloadPath)} (run npm run build)`, EXIT.usage);
  if (!(await isFile(options.loadRunnerPath))) throw new UserError(`the load generator is missing: ${options.loadRunnerPath} (run npm run build)`, EXIT.usage);

  const outDir = resolve(options.outDir);
  if ((await stat(outDir).catch(() => null))?.isDirectory() === false) throw new UserError(`sweep folder ${outDir} already exists and is not a folder; choose another --out`, EXIT.usage);
  const existing = await readdir(outDir).catch(() => null);
  if (existing && existing.length > 0) throw new UserError(`sweep folder ${outDir} already exists and is not empty; choose another --out`, EXIT.usage);

  const env: NodeJS.ProcessEnv = { ...(options.baseEnv ?? process.env), ...target.env };
  const [runtime, defaultSemiSpaceMB] = await Promise.all([probeNodeRuntime(target.node, env), measureDefaultSemiSpace(target.node, env)]);
  const flag = config.flag!;
  validateSweepFlag(flag, sweepValues(config), runtime);
  const owned = sweepOwnedFlags(flag);
  for (const userFlag of validateUserFlags(target.nodeArgs, runtime)) {
    if (owned.has(userFlag.name)) {
      const what = flag === SEMI_SPACE_FLAG ? 'the semi-space' : `--${flag}`;
      throw new UserError(`${userFlag.raw} is in the target's Node arguments, but the sweep sets ${what} itself; remove it there`, EXIT.usage);
    }
  }
  return {
    outDir,
    node: target.node,
    script,
    cwd,
    env,
    environment: {
      nodeVersion: runtime.version,
      v8Version: runtime.v8Version,
      cpus: cpus().length,
      platform: process.platform,
      defaultSemiSpaceMB,
    },
  };
}

/** What needs no Node to check: the values, the pin, the load settings. The flag itself is checked against the target's Node in prepare(). */
function validateNumbers(config: SweepConfig): void {
  const { rounds, load, readiness } = config;
  const flag = config.flag ?? SEMI_SPACE_FLAG;
  const values = sweepValues(config);
  const semi = flag === SEMI_SPACE_FLAG;
  if (values.length === 0) {
    throw new UserError(semi ? 'no semi-space sizes to compare: give at least one, e.g. 16,32,64' : `no values of --${flag} to compare: give at least one, e.g. 256,512`, EXIT.usage);
  }
  const info = sweepFlagInfo(flag);
  for (const value of values) {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new UserError(`--${flag}: '${String(value)}' is not a number`, EXIT.usage);
    if (info.unit === 'MB' && (!Number.isInteger(value) || value < 1 || value > MAX_SIZE_MB)) {
      throw new UserError(
        semi ? `semi-space size ${value} is not a whole number of MB from 1 to ${MAX_SIZE_MB}` : `--${flag}=${flagValueText(value)}: a whole number of MB from 1 to ${MAX_SIZE_MB} is expected`,
        EXIT.usage,
      );
    }
  }
  const duplicate = values.find((v, i) => values.indexOf(v) !== i);
  if (duplicate !== undefined) throw new UserError(semi ? `semi-space size ${duplicate} MB is listed twice` : `${formatSetting(flag, duplicate)} is listed twice`, EXIT.usage);
  if (config.pinMinSemiSpace && !semi) {
    throw new UserError(
      `pinning the minimum semi-space (--pin-min) only applies to a --max-semi-space-size sweep (it sets --min-semi-space-size to each size); this sweep is of --${flag}: leave it off`,
      EXIT.usage,
    );
  }
  if (!Number.isInteger(rounds) || rounds < 1) throw new UserError(`rounds must be a whole number ≥ 1 (got ${rounds})`, EXIT.usage);
  if (!Number.isInteger(load.connections) || load.connections < 1) throw new UserError(`connections must be a whole number ≥ 1 (got ${load.connections})`, EXIT.usage);
  if (!(load.warmupSeconds >= 0) || !Number.isFinite(load.warmupSeconds)) throw new UserError(`warm-up must be 0 or more seconds (got ${load.warmupSeconds})`, EXIT.usage);
  if (!(load.durationSeconds > 0) || !Number.isFinite(load.durationSeconds)) throw new UserError(`duration must be a positive number of seconds (got ${load.durationSeconds})`, EXIT.usage);
  if (load.rate !== null && !(load.rate >= 1 && Number.isFinite(load.rate))) throw new UserError(`rate must be at least 1 request per second (got ${load.rate})`, EXIT.usage);
  if (!(load.timeoutSeconds > 0) || !Number.isFinite(load.timeoutSeconds)) throw new UserError(`request timeout must be a positive number of seconds (got ${load.timeoutSeconds})`, EXIT.usage);
  if (!(readiness.timeoutMs > 0) || !Number.isFinite(readiness.timeoutMs)) throw new UserError(`readiness timeout must be a positive time (got ${readiness.timeoutMs} ms)`, EXIT.usage);
  if (config.onRunFailure !== 'continue' && config.onRunFailure !== 'stop') throw new UserError(`on run failure must be 'continue' or 'stop' (got '${String(config.onRunFailure)}')`, EXIT.usage);
}

/**
 * Node's own semi-space on this machine (no flag), MB: the largest new space / 2 while a short
 * script churns with survivors (the new space only grows under survival). null when the probe fails
 * or takes longer than 2.5 s.
 */
function measureDefaultSemiSpace(node: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  const cleanEnv = { ...env };
  delete cleanEnv.NODE_OPTIONS; // a --max-semi-space-size there is not the default
  return new Promise((done) => {
    childProcess().execFile(node, ['-e', DEFAULT_SEMI_SPACE_PROBE], { env: cleanEnv, timeout: DEFAULT_SEMI_SPACE_TIMEOUT_MS, windowsHide: true }, (err, stdout) => {
      const mb = Number(stdout);
      done(!err && Number.isFinite(mb) && mb > 0 ? Math.round(mb * 100) / 100 : null);
    });
  });
}

function machineWarnings(environment: SweepEnvironment): string[] {
  if (environment.cpus > 2) return [];
  return [
    `The load generator runs on this machine too and takes about one of its ${environment.cpus} core${environment.cpus === 1 ? '' : 's'}: ` +
      "it competes with the target and with V8's parallel scavenger threads (a bias that grows with the semi-space size), so GC counts per 1k requests are steadier than req/s.",
  ];
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}
