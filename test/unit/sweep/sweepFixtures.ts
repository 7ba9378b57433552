/** Synthetic sweep runs for the analysis tests (not a test file itself). */
import { SEMI_SPACE_FLAG, type SweepConfig, type SweepEnvironment, type SweepRun } from '../../../src/shared/model/sweep';
import { sweepSchedule } from '../../../src/core/sweep/sweepSchedule';

export interface SettingShape {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  scavengesPer1k: number;
  gcMsPer1k: number;
  meanScavengeMs: number;
  gcWallShare: number;
  gcCpuShare: number;
  peakRssMB: number;
  /** Default: 1 Mark-Compact of 5 ms per run. */
  markCompactsPer1k?: number;
  markCompactMsPer1k?: number;
}

/**
 * Shaped like gc.md section 8 (closed loop, Node 20, 2 vCPUs): scavenges per 1k requests fall
 * ~1/size, the mean pause rises, RSS rises steeply. GC ms per 1k requests is made to level off
 * past 64 MB (as in the Alibaba case of the same section), so 64 MB is within 10% of the best.
 */
export const SECTION8: Record<number, SettingShape> = {
  16: { rps: 3635, p50Ms: 4, p99Ms: 24, scavengesPer1k: 11.47, gcMsPer1k: 36.9, meanScavengeMs: 3.22, gcWallShare: 0.137, gcCpuShare: 0.234, peakRssMB: 359 },
  32: { rps: 3900, p50Ms: 4, p99Ms: 10, scavengesPer1k: 5.57, gcMsPer1k: 22.6, meanScavengeMs: 4.05, gcWallShare: 0.097, gcCpuShare: 0.147, peakRssMB: 410 },
  64: { rps: 3960, p50Ms: 4, p99Ms: 14, scavengesPer1k: 2.74, gcMsPer1k: 19.1, meanScavengeMs: 6.9, gcWallShare: 0.077, gcCpuShare: 0.112, peakRssMB: 481 },
  128: { rps: 4000, p50Ms: 4, p99Ms: 15, scavengesPer1k: 1.38, gcMsPer1k: 18.4, meanScavengeMs: 10.88, gcWallShare: 0.068, gcCpuShare: 0.102, peakRssMB: 628 },
  256: { rps: 4020, p50Ms: 4, p99Ms: 20, scavengesPer1k: 0.74, gcMsPer1k: 17.9, meanScavengeMs: 17.61, gcWallShare: 0.061, gcCpuShare: 0.09, peakRssMB: 898 },
};

/** Round-to-round noise (fraction), picked by (round + setting position) so settings get different orders. */
const NOISE = [-0.08, 0.05, -0.02, 0.08, -0.05, 0.02];

/** A semi-space sweep's config the way the CLI wrote it before flags: `sizesMB` only, no `flag`/`values`. */
export function config(sizesMB: number[], rounds: number, over: Partial<SweepConfig> = {}): SweepConfig {
  return {
    target: { label: 'server.js', node: 'node', script: 'server.js', args: [], cwd: '/app', env: {}, nodeArgs: [] },
    readiness: { kind: 'url', url: 'http://127.0.0.1:3000/', timeoutMs: 30000 },
    request: { url: 'http://127.0.0.1:3000/', method: 'GET', headers: {}, body: null },
    load: { connections: 20, warmupSeconds: 5, durationSeconds: 20, rate: null, timeoutSeconds: 10 },
    sizesMB,
    rounds,
    pinMinSemiSpace: false,
    onRunFailure: 'continue',
    ...over,
  };
}

/** A sweep of another flag, the way the lab and runSweep write it: `flag` and `values`, `sizesMB` empty. */
export function flagConfig(flag: string, values: number[], rounds: number, over: Partial<SweepConfig> = {}): SweepConfig {
  return config([], rounds, { flag, values, ...over });
}

export const ENV: SweepEnvironment = { nodeVersion: 'v20.20.2', v8Version: '11.3', cpus: 2, platform: 'linux', defaultSemiSpaceMB: 16 };

/** One run with the given figures (all derived per-run fields filled in consistently); `flag` defaults to the semi-space. */
export function run(value: number, round: number, index: number, s: SettingShape, over: Partial<SweepRun> = {}, flag = SEMI_SPACE_FLAG): SweepRun {
  const durationSeconds = 20;
  const requests = Math.round(s.rps * durationSeconds);
  const scavenges = (s.scavengesPer1k * requests) / 1000;
  const totalPauseMs = (s.gcMsPer1k * requests) / 1000;
  const markCompacts = s.markCompactsPer1k !== undefined ? (s.markCompactsPer1k * requests) / 1000 : 1;
  const markCompactMs = s.markCompactMsPer1k !== undefined ? (s.markCompactMsPer1k * requests) / 1000 : 5;
  const out: SweepRun = {
    flag,
    value,
    semiSpaceMB: flag === SEMI_SPACE_FLAG ? value : null,
    round,
    index,
    status: 'ok',
    reason: null,
    effectiveSemiSpaceMB: flag === SEMI_SPACE_FLAG ? value : 16,
    loadAverage1m: 0.3,
    startedAt: new Date(Date.UTC(2025, 0, 1, 12, 0, index * 30)).toISOString(),
    load: { requests, durationSeconds, rps: s.rps, p50Ms: s.p50Ms, p99Ms: s.p99Ms, meanLatencyMs: s.p50Ms + 1, errors: 0, timeouts: 0, non2xx: 0 },
    gc: {
      scavenges,
      scavengeMs: totalPauseMs,
      meanScavengeMs: s.meanScavengeMs,
      p95ScavengeMs: s.meanScavengeMs * 1.6,
      markCompacts,
      markCompactMs,
      totalPauseMs,
    },
    cpuMs: totalPauseMs / s.gcCpuShare,
    gcWallShare: s.gcWallShare,
    gcCpuShare: s.gcCpuShare,
    peakRssMB: s.peakRssMB,
    scavengesPer1k: s.scavengesPer1k,
    gcMsPer1k: s.gcMsPer1k,
    markCompactsPer1k: (markCompacts / requests) * 1000,
    markCompactMsPer1k: (markCompactMs / requests) * 1000,
    failedRequests: 0,
    dir: `runs/${String(index + 1).padStart(3, '0')}-${value}mb`,
    ...over,
  };
  // As the engine does: failed requests from the load figures, null without them.
  if (over.failedRequests === undefined) out.failedRequests = out.load ? out.load.errors + out.load.timeouts + out.load.non2xx : null;
  return out;
}

/** Scales every figure of a shape by (1 + f), req/s by (1 + f/2) (throughput is steadier than GC time). */
function jitter(s: SettingShape, f: number): SettingShape {
  return {
    rps: s.rps * (1 + f / 2),
    p50Ms: s.p50Ms,
    p99Ms: Math.round(s.p99Ms * (1 + f)),
    scavengesPer1k: s.scavengesPer1k * (1 + f / 4),
    gcMsPer1k: s.gcMsPer1k * (1 + f),
    meanScavengeMs: s.meanScavengeMs * (1 + f),
    gcWallShare: s.gcWallShare * (1 + f),
    gcCpuShare: s.gcCpuShare * (1 + f),
    peakRssMB: s.peakRssMB * (1 + f / 4),
    ...(s.markCompactsPer1k !== undefined ? { markCompactsPer1k: s.markCompactsPer1k * (1 + f / 4) } : {}),
    ...(s.markCompactMsPer1k !== undefined ? { markCompactMsPer1k: s.markCompactMsPer1k * (1 + f) } : {}),
  };
}

/**
 * A full sweep in schedule order: shapes[value] with per-run noise (noise[(round + position) % length],
 * so with as many noise values as rounds every setting gets each value once); `patch` edits single
 * runs (after `failedRequests` is derived from the patched load, as the engine does).
 */
export function sweepRuns(
  shapes: Record<number, SettingShape>,
  values: number[],
  rounds: number,
  patch: (r: SweepRun) => SweepRun = (r) => r,
  noise: readonly number[] = NOISE,
  flag = SEMI_SPACE_FLAG,
): SweepRun[] {
  return sweepSchedule(values, rounds).map(({ value, round, index }) => {
    const pos = values.indexOf(value);
    const f = noise[(round + pos) % noise.length]!;
    const patched = patch(run(value, round, index, jitter(shapes[value]!, f), {}, flag));
    const l = patched.load;
    return { ...patched, failedRequests: l ? l.errors + l.timeouts + l.non2xx : null };
  });
}

export const SIZES = [16, 32, 64, 128, 256];
