/**
 * The lab's contract: what a sweep is asked to do, what each run measured, and `sweep.json` (read
 * by the sidebar, the CLI and CI). Times in ms, sizes in MB, rates per second. Fields may be added;
 * the documented ones are kept.
 *
 * A sweep compares values of ONE numeric V8 or Node flag (`config.flag`, the semi-space by
 * default). Compatibility with sweep.json written when only `--max-semi-space-size` was swept
 * (schema 1 as well: the change is additive):
 * - `config.flag` absent means `max-semi-space-size`; `config.values` absent means `config.sizesMB`.
 *   Read both through sweepFlag(config) and sweepValues(config), never directly.
 * - Runs and settings carry `flag` and `value`; older ones only `semiSpaceMB` (runValue(),
 *   settingValue()). `semiSpaceMB` stays, equal to `value` when the flag is the semi-space and
 *   null otherwise, so a reader that knows only `semiSpaceMB` never mistakes an old-space value
 *   for a semi-space size.
 * - `recommendation.semiSpaceMB` likewise: set only when the flag is the semi-space (older
 *   versions' Apply writes `--max-semi-space-size` from it); `recommendation.value` always.
 * normalizeSweepResult() fills every new field of an older sweep.json in one go.
 */

import type { LoadFigures, LoadRequest, LoadSettings, Readiness } from './load';
import type { PredictionCheck, SweepPrediction } from './prediction';

export const SWEEP_SCHEMA_VERSION = 1;

/** The flag a sweep compares when none is given (and what every sweep.json without `flag` swept). */
export const SEMI_SPACE_FLAG = 'max-semi-space-size';

/** What to do when a run is invalid (never ready, crashed, errors): go on with the next, or stop. */
export type OnRunFailure = 'continue' | 'stop';

export interface SweepTarget {
  /** Display name, e.g. "server.js" or "npm run start". */
  label: string;
  /** The Node binary (direct launch) and what follows it: the script and its arguments. */
  node: string;
  script: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Extra Node/V8 flags the user's configuration already passes (launch.json runtimeArgs). */
  nodeArgs: string[];
}

export interface SweepConfig {
  target: SweepTarget;
  readiness: Readiness;
  request: LoadRequest;
  load: LoadSettings;
  /**
   * The flag to sweep, without the leading dashes (`max-old-space-size`); absent: the semi-space.
   * Any V8 or Node flag the target's Node knows and that takes a number; checked against its
   * `--v8-options`/`--help` before the first run. Read through sweepFlag(config).
   */
  flag?: string;
  /**
   * The flag's values to compare, in order: the first is the baseline the others are compared
   * with (normally the smallest, or the current setting). Units as the flag takes them (MB for
   * the space sizes, a plain factor for `semi-space-growth-factor`). Absent in older sweep.json:
   * read through sweepValues(config).
   */
  values?: number[];
  /**
   * Deprecated alias of `values` from when only the semi-space was swept (MB), read only when
   * `values` is absent (older callers and sweep.json fill nothing else). runSweep writes it as the
   * values when the flag is the semi-space and [] for any other flag.
   */
  sizesMB: number[];
  rounds: number;
  /**
   * Also pass `--min-semi-space-size` equal to the max, so the new space starts full size. Only
   * for a `max-semi-space-size` sweep: any other flag with this set is refused before it starts.
   */
  pinMinSemiSpace: boolean;
  onRunFailure: OnRunFailure;
  /**
   * After the measured rounds, one profiling round per value: the CPU profile and the allocation
   * samples the lab's reports show (bytes per request, top allocators). Measured rounds run with the
   * GC trace alone, since the profilers change what they would measure (the sampler's forced GCs,
   * its cost, and, through them, V8's pretenuring). Absent: true; older sweep.json had none, and
   * profiled every round.
   */
  profileRounds?: boolean;
  /**
   * After the profiling runs, one survivors run per value: the allocation sampler keeps only what
   * outlives a young GC (what the scavenger copies and promotes at that size), beside the profiling
   * run's allocations of the same value. Absent: false.
   */
  survivors?: boolean;
  /**
   * The prediction this sweep confirms (`v8-lens sweep --from-run`, the report's "Confirm in the
   * Semi-space Lab"): the run it came from and its rows for the swept sizes. Absent otherwise.
   */
  prediction?: SweepPrediction;
}

/** Whether a sweep runs profiling rounds after its measured ones (see SweepConfig.profileRounds). */
export function hasProfileRounds(config: Pick<SweepConfig, 'profileRounds'>): boolean {
  return config.profileRounds !== false;
}

/** GC inside the measured window only (by arrival time of the trace lines). */
export interface WindowGcFigures {
  scavenges: number;
  scavengeMs: number;
  meanScavengeMs: number;
  p95ScavengeMs: number;
  markCompacts: number;
  markCompactMs: number;
  /** Every GC pause in the window, all types. */
  totalPauseMs: number;
  /** GC time on V8's helper threads in the window (its background phases): profiling runs, which trace them; absent otherwise. */
  helperMs?: number;
}

export interface SweepRun {
  /** The swept flag (no dashes) and this run's value of it: the run had `--<flag>=<value>`. */
  flag: string;
  value: number;
  /** `value` when the flag is the semi-space, else null (older sweep.json: the only key). */
  semiSpaceMB: number | null;
  round: number;
  /** Position in the whole sweep, 0-based (the order runs happened in). */
  index: number;
  status: 'ok' | 'invalid' | 'cancelled';
  /** One line, when not ok: "never answered http://127.0.0.1:3000/ within 30 s", "exited with code 1", "12 non-2xx answers". */
  reason: string | null;
  /**
   * The young generation the run really reached, in the flag's unit (semi-space: the new space / 2;
   * with Minor Mark-Sweep the one space), largest of its processes; null when not measured.
   */
  effectiveSemiSpaceMB: number | null;
  loadAverage1m: number;
  startedAt: string;
  load: LoadFigures | null;
  gc: WindowGcFigures | null;
  /** Process CPU time (user + system) in the measured window, of every process of the target (a cluster's workers too). */
  cpuMs: number | null;
  /**
   * The GC share of the threads that served the requests: their pause / (window wall time × the
   * processes that collected garbage), 0–1, a true share for a cluster too. Each process's main
   * thread counts, not its worker threads (a pool's idle workers diluted it threefold).
   */
  gcWallShare: number | null;
  /** GC pause / process CPU time in the window, 0–1 (GC helper threads make this an estimate). */
  gcCpuShare: number | null;
  /** Peak resident set size, MB: summed over the target's processes when it has several (see `processes`). */
  peakRssMB: number | null;
  /** Per process when the target had several (a cluster): its peak RSS, CPU and GC in the window. Absent for one process. */
  processes?: SweepRunProcess[];
  /** GC counts and pauses are of every process of the target (a cluster's workers), per 1k requests. */
  scavengesPer1k: number | null;
  gcMsPer1k: number | null;
  /** Mark-Compacts (full GCs) per 1k requests, and their pause per 1k requests, in the window. */
  markCompactsPer1k: number | null;
  markCompactMsPer1k: number | null;
  /**
   * Requests lost in the measured window: errors + timeouts + non-2xx answers; null without load
   * figures (never ready, crashed mid-run). Any loss makes the engine's run invalid, and its
   * setting is never recommended.
   */
  failedRequests: number | null;
  /** The run's own folder (GC trace, app output), relative to the sweep folder. */
  dir: string;
  /**
   * Bytes allocated per request in the measured window (sampled, garbage included: the code's
   * property, which the semi-space size must not change); null when not measured. Absent in older sweeps.
   */
  allocBytesPerRequest?: number | null;
  /** The functions that allocated most in the window, top 3 by their own bytes. Absent in older sweeps. */
  topAllocators?: SweepAllocator[];
  /**
   * 'measure': a run the figures and the statistics come from (the GC trace alone); 'profile': a
   * run with the CPU profiler and the allocation sampler on, for the reports and the allocation
   * figures only, never in the statistics. Absent in older sweeps, whose every run was both.
   */
  purpose?: SweepRunPurpose;
  /**
   * A profiling run's GC time on V8's helper threads per 1k requests (its --trace-gc-nvp phases, wall
   * time of V8's helper scopes), beside its main-thread `gcMsPer1k`; null when not traced. Absent in
   * measured runs (plain --trace-gc) and older sweeps.
   */
  helperGcMsPer1k?: number | null;
  /**
   * A survivors run's bytes per request that outlived a young GC, and the functions whose objects
   * survive most (top 3); absent in other runs.
   */
  survivorBytesPerRequest?: number | null;
  topSurvivors?: SweepAllocator[];
  /** V8's pretenuring decisions in this run (its target process); null when not recorded. Absent in older sweeps. */
  pretenuring?: RunPretenuring | null;
}

/** 'survivors': a run that samples only what outlives a young GC (see SweepConfig.survivors); like a profiling run, never in the statistics. */
export type SweepRunPurpose = 'measure' | 'profile' | 'survivors';

/** A run's pretenuring in brief: whether V8 put any allocation site's objects straight in the old generation. */
export interface RunPretenuring {
  /** Sites V8 tenured at some point in the run, and those still tenured at its end. */
  sitesTenured: number;
  sitesEndedTenured: number;
  /** Sites V8 weighed at all (0: the run never had enough allocation-site feedback to decide). */
  sitesWeighed: number;
}

/** A run's purpose (older sweeps: every run measured). */
export function runPurpose(run: Pick<SweepRun, 'purpose'>): SweepRunPurpose {
  return run.purpose === 'profile' || run.purpose === 'survivors' ? run.purpose : 'measure';
}

export interface SweepAllocator {
  name: string;
  url: string;
  /** 1-based; 0 = unknown. */
  line: number;
  column: number;
  /** Of the bytes allocated in the window, 0–1. */
  share: number;
}

export interface SweepRunProcess {
  pid: number;
  peakRssMB: number | null;
  cpuMs: number | null;
  scavenges: number;
  gcPauseMs: number;
}

export interface SweepMedians {
  rps: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  scavengesPer1k: number | null;
  gcMsPer1k: number | null;
  meanScavengeMs: number | null;
  p95ScavengeMs: number | null;
  gcWallShare: number | null;
  gcCpuShare: number | null;
  peakRssMB: number | null;
  markCompactsPer1k: number | null;
  markCompactMsPer1k: number | null;
  /**
   * The one exception to "medians of valid runs": over every run with load figures, invalid ones
   * included (a run that loses requests is invalid, so over valid runs this would always be 0).
   */
  failedRequests: number | null;
  /** Bytes allocated per request (see SweepRun); absent in older sweeps. */
  allocBytesPerRequest?: number | null;
}

/** A distribution-free 95% CI of the median (n ≥ 6), else the range; null without valid runs. */
export interface Spread {
  low: number;
  high: number;
  kind: 'ci95' | 'range';
}

export interface Comparison {
  /** Median of this setting / median of the baseline. */
  ratio: number | null;
  /** Two-sided exact Mann-Whitney U p-value; null when either side has < 2 valid runs. */
  p: number | null;
  /** p < 0.05 and |ratio − 1| above the practical threshold (3%). */
  significant: boolean;
}

export interface SweepSettingResult {
  flag: string;
  value: number;
  /** `value` when the flag is the semi-space, else null. */
  semiSpaceMB: number | null;
  /** Median of the runs' effective semi-space (measured whatever the flag). */
  effectiveSemiSpaceMB: number | null;
  runs: SweepRun[];
  validRuns: number;
  /** Requests lost over all the setting's runs (cancelled runs left out): errors + timeouts + non-2xx. */
  failedRequests: number;
  /**
   * The setting the others are compared with: the first value with a valid run (normally the
   * first value of the config; a later one when every run of the first was invalid).
   */
  baseline: boolean;
  median: SweepMedians;
  spread: Partial<Record<keyof SweepMedians, Spread>>;
  /** Against the baseline setting, per metric (empty for the baseline itself). */
  vsBaseline: Partial<Record<keyof SweepMedians, Comparison>>;
}

/** What a recommendation compares: GC pause per 1k requests, or Mark-Compact pause per 1k (old-space flags). */
export type PrimaryMetric = 'gcMsPer1k' | 'markCompactMsPer1k';

export interface Recommendation {
  flag: string;
  /** The value to set; null: keep the default (nothing is better beyond the noise). */
  value: number | null;
  /** `value` when the flag is the semi-space, else null (what older readers apply). */
  semiSpaceMB: number | null;
  /** The metric the settings were compared on. */
  metric: PrimaryMetric;
  /** One or two sentences with the figures, e.g. "64 MB: GC ms per 1k requests −48%, req/s +9% (p = 0.03), RSS +34%; 128/256 MB: no significant further gain, +75%/+150% RSS". */
  reason: string;
}

export interface SweepEnvironment {
  nodeVersion: string;
  v8Version: string | null;
  cpus: number;
  platform: string;
  /** Node's default semi-space on this machine (no flag), MB; null when not measured. */
  defaultSemiSpaceMB: number | null;
}

export interface SweepResult {
  schemaVersion: typeof SWEEP_SCHEMA_VERSION;
  tool: { name: 'v8-lens'; version: string };
  config: SweepConfig;
  environment: SweepEnvironment;
  startedAt: string;
  endedAt: string | null;
  status: 'finished' | 'cancelled' | 'stopped-on-failure' | 'failed';
  results: SweepSettingResult[];
  recommendation: Recommendation;
  /** One line each: load average was high, too few rounds for a test, … */
  warnings: string[];
  /** Predicted beside measured per swept size, when the sweep confirms a prediction (`config.prediction`). */
  predictionChecks?: PredictionCheck[];
}

/** Progress while a sweep runs (the sidebar's per-run line, the CLI's status line). */
export type SweepProgress =
  | { type: 'run-start'; run: number; of: number; flag: string; value: number; semiSpaceMB: number | null; round: number; purpose?: SweepRunPurpose }
  | { type: 'phase'; run: number; phase: 'starting' | 'waiting-ready' | 'warmup' | 'measuring' | 'stopping' }
  | { type: 'tick'; run: number; rps: number; scavenges: number; elapsedSeconds: number }
  | { type: 'run-end'; run: SweepRun }
  | { type: 'output'; run: number; stream: 'stdout' | 'stderr'; text: string };

// ---------------------------------------------------------------------------------------------
// Reading the contract: the one place where the pre-flag fields are mapped to the new ones
// ---------------------------------------------------------------------------------------------

/** The swept flag without dashes; `max-semi-space-size` when the config (or an older sweep.json) names none. */
export function sweepFlag(config: Pick<SweepConfig, 'flag'> | null | undefined): string {
  const flag = config?.flag;
  return typeof flag === 'string' && flag.trim() !== '' ? flag.trim().replace(/^-+/, '').replace(/_/g, '-') : SEMI_SPACE_FLAG;
}

/** The values to compare: `values`, else the deprecated `sizesMB` (older callers and sweep.json). */
export function sweepValues(config: Pick<SweepConfig, 'values' | 'sizesMB'> | null | undefined): number[] {
  const values = Array.isArray(config?.values) ? config.values : Array.isArray(config?.sizesMB) ? config.sizesMB : [];
  return [...values];
}

/** The config with `flag` and `values` filled in, and `sizesMB` as runSweep writes it (the values for the semi-space, else []). */
export function normalizeSweepConfig(config: SweepConfig): SweepConfig {
  const flag = sweepFlag(config);
  const values = sweepValues(config);
  return { ...config, flag, values, sizesMB: flag === SEMI_SPACE_FLAG ? values : [] };
}

/** `value` when the flag is the semi-space, else null: what the `semiSpaceMB` fields hold. */
export function semiSpaceValue(flag: string, value: number | null): number | null {
  return flag === SEMI_SPACE_FLAG ? value : null;
}

/** A run's value of the swept flag (an older run has only `semiSpaceMB`). */
export function runValue(run: Pick<SweepRun, 'value' | 'semiSpaceMB'>): number {
  return typeof run.value === 'number' ? run.value : (run.semiSpaceMB ?? NaN);
}

/** A setting's value of the swept flag (an older result has only `semiSpaceMB`). */
export function settingValue(result: Pick<SweepSettingResult, 'value' | 'semiSpaceMB'>): number {
  return typeof result.value === 'number' ? result.value : (result.semiSpaceMB ?? NaN);
}

/** The recommended value (an older recommendation has only `semiSpaceMB`). */
export function recommendedValue(rec: Pick<Recommendation, 'value' | 'semiSpaceMB'> | null | undefined): number | null {
  if (!rec) return null;
  return typeof rec.value === 'number' || rec.value === null ? rec.value : (rec.semiSpaceMB ?? null);
}
