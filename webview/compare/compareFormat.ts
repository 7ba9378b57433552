/** Values and signed changes for the compare view, in the units the model names. */
import { fmtBytes } from '../../src/shared/formatBytes';
import type { CompareNormalization, MetricRow } from '../../src/shared/compareProtocol';
import type { CompareRequests } from '../../src/shared/model/compareModel';
export { describeMove } from '../../src/shared/model/compareModel';
import { fmtDuration, fmtMB, fmtMs, fmtNum } from '../common/format';

const MINUS = '\u2212';

/** "+1.2", "−3", "0": a sign on every non-zero change. */
export function signed(value: number, text: (abs: number) => string): string {
  if (!Number.isFinite(value)) return '–';
  if (value === 0) return text(0);
  return `${value > 0 ? '+' : MINUS}${text(Math.abs(value))}`;
}

export function fmtPctChange(pct: number | null, decimals = 1): string {
  if (pct === null || !Number.isFinite(pct)) return '–';
  return signed(pct, (v) => `${fmtNum(v, Math.abs(v) >= 100 ? 0 : decimals)}%`);
}

function count(v: number): string {
  return fmtNum(v, Number.isInteger(v) ? 0 : 1);
}

/** A metric value in its unit ("12 ms", "4.1%", "16 MB", "3.20/s"). */
export function fmtMetric(unit: MetricRow['unit'], value: number): string {
  switch (unit) {
    case 'count':
      return count(value);
    case 'ms':
      // Latency comes in whole ms: "0.000 ms" would claim a precision it does not have.
      return value === 0 ? '0 ms' : fmtMs(value);
    case 'duration':
      return fmtDuration(value);
    case 'share':
      return `${fmtNum(value * 100, 2)}%`;
    case 'MB':
      return fmtMB(value);
    case 'per-s':
      return `${fmtNum(value, 2)}/s`;
    case 'req/s':
      // No change at all (two runs at the same fixed rate) is "0 req/s", not a measured "0.0".
      return value === 0 ? '0 req/s' : `${fmtNum(value, Math.abs(value) >= 100 ? 0 : 1)} req/s`;
    case 'bytes':
      return fmtBytes(value);
    case 'bytes/s':
      return `${fmtBytes(value)}/s`;
  }
}

/** A metric's change B − A in its unit; a share's change is in percentage points. */
export function fmtMetricChange(unit: MetricRow['unit'], change: number): string {
  if (unit === 'share') return signed(change * 100, (v) => `${fmtNum(v, 2)} pp`);
  return signed(change, (v) => fmtMetric(unit, v));
}

/** µs per request: "19.7 µs", "1.25 ms" from 1,000 µs. */
function fmtPerRequest(us: number): string {
  const abs = Math.abs(us);
  if (abs >= 1000) return `${fmtNum(us / 1000, 2)} ms`;
  return `${fmtNum(us, abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3)} µs`;
}

/** A self or total time in the comparison's unit: ms, percent of the profile, or µs per request. */
export function fmtTime(value: number, normalization: CompareNormalization): string {
  if (normalization === 'request') return fmtPerRequest(value);
  return normalization === 'ms' ? fmtMs(value) : `${fmtNum(value, value !== 0 && Math.abs(value) < 0.1 ? 3 : 2)}%`;
}

export function fmtTimeChange(delta: number, normalization: CompareNormalization): string {
  if (normalization === 'request') return signed(delta, fmtPerRequest);
  return normalization === 'ms' ? signed(delta, fmtMs) : signed(delta, (v) => `${fmtNum(v, v !== 0 && v < 0.1 ? 3 : 2)} pp`);
}

/** What the numbers are, in words, for the page. */
export function describeNormalization(normalization: CompareNormalization, profileMs: { base: number; other: number }, requests: CompareRequests | null = null): string {
  if (normalization === 'request' && requests) {
    return (
      `Self time per request: each whole profile’s self time over the requests of its measured window (A: ${count(requests.base)}, B: ${count(requests.other)}), in µs. ` +
      'It includes start-up and warm-up, so it overstates a request’s cost, alike in both runs (same warm-up and window); a run that served more requests is not slower for it.'
    );
  }
  return normalization === 'ms'
    ? 'Self time in milliseconds, as measured in each run.'
    : `Self time as a share of each profile’s sampled time (A: ${fmtDuration(profileMs.base)}, B: ${fmtDuration(profileMs.other)}); changes in percentage points (pp).`;
}
