/**
 * The semi-space lab's contract: what a sweep is asked to do, what each run measured, and
 * `sweep.json` (read by the sidebar, the CLI and CI). Times in ms, sizes in MB, rates per second.
 * Fields may be added; the documented ones are kept.
 */

export const SWEEP_SCHEMA_VERSION = 1;

/** How to know the target is ready for load. */
export type Readiness =
  | { kind: 'url'; url: string; timeoutMs: number }
  | { kind: 'line'; text: string; timeoutMs: number };

export interface LoadRequest {
  /** Must be a loopback URL: load tests never leave the machine. */
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
}

export interface LoadSettings {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** null: closed loop (as fast as the target answers); a number: fixed overall req/s. */
  rate: number | null;
  /** Per-request timeout; a timed-out request counts as an error. */
  timeoutSeconds: number;
}

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
  /** The values of `--max-semi-space-size` to compare, MB. */
  sizesMB: number[];
  rounds: number;
  /** Also pass `--min-semi-space-size` equal to the max, so the new space starts full size. */
  pinMinSemiSpace: boolean;
  onRunFailure: OnRunFailure;
}

/** What the load generator measured in the measured window. */
export interface LoadFigures {
  requests: number;
  durationSeconds: number;
  rps: number;
  /** autocannon's latencies are whole milliseconds. */
  p50Ms: number;
  p99Ms: number;
  meanLatencyMs: number;
  errors: number;
  timeouts: number;
  non2xx: number;
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
}

export interface SweepRun {
  semiSpaceMB: number;
  round: number;
  /** Position in the whole sweep, 0-based (the order runs happened in). */
  index: number;
  status: 'ok' | 'invalid' | 'cancelled';
  /** One line, when not ok: "never answered http://127.0.0.1:3000/ within 30 s", "exited with code 1", "12 non-2xx answers". */
  reason: string | null;
  /** The new space the process really had / 2, MB (largest seen); null when not measured. */
  effectiveSemiSpaceMB: number | null;
  loadAverage1m: number;
  startedAt: string;
  load: LoadFigures | null;
  gc: WindowGcFigures | null;
  /** Process CPU time (user + system) in the measured window. */
  cpuMs: number | null;
  /** GC pause / window wall time, 0–1. */
  gcWallShare: number | null;
  /** GC pause / process CPU time in the window, 0–1 (GC helper threads make this an estimate). */
  gcCpuShare: number | null;
  peakRssMB: number | null;
  scavengesPer1k: number | null;
  gcMsPer1k: number | null;
  /** The run's own folder (GC trace, app output), relative to the sweep folder. */
  dir: string;
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
  semiSpaceMB: number;
  /** Median of the runs' effective semi-space. */
  effectiveSemiSpaceMB: number | null;
  runs: SweepRun[];
  validRuns: number;
  median: SweepMedians;
  spread: Partial<Record<keyof SweepMedians, Spread>>;
  /** Against the baseline setting (the smallest size), per metric. */
  vsBaseline: Partial<Record<keyof SweepMedians, Comparison>>;
}

export interface Recommendation {
  /** null: keep the default (nothing is better beyond the noise). */
  semiSpaceMB: number | null;
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
}

/** Progress while a sweep runs (the sidebar's per-run line, the CLI's status line). */
export type SweepProgress =
  | { type: 'run-start'; run: number; of: number; semiSpaceMB: number; round: number }
  | { type: 'phase'; run: number; phase: 'starting' | 'waiting-ready' | 'warmup' | 'measuring' | 'stopping' }
  | { type: 'tick'; run: number; rps: number; scavenges: number; elapsedSeconds: number }
  | { type: 'run-end'; run: SweepRun }
  | { type: 'output'; run: number; stream: 'stdout' | 'stderr'; text: string };
