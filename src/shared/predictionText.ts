/**
 * The prediction in words and table cells, the same in the CLI (`v8-lens predict`, the text report),
 * the report page and the lab: what a bigger young generation would do, with its ranges and its cost.
 */
import { fmtBytes } from './formatBytes';
import type { PredictedRange, PredictionBasis, PredictionCheck, PredictionInputs, PredictionRecommendation, PredictionRow, YoungGenPrediction } from './model/prediction';

/** "per 1k requests" or "per second". */
export function perText(per: PredictionBasis): string {
  return per === 'requests' ? 'per 1k requests' : 'per second';
}

/** "1k requests" / "s": the unit after a figure ("2.9 /1k requests"). */
export function perShort(per: PredictionBasis): string {
  return per === 'requests' ? '/1k req' : '/s';
}

/** A count with the decimals it deserves: 240, 11.5, 2.94, 0.052. */
export function fmtCount(n: number): string {
  const abs = Math.abs(n);
  const decimals = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return n.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: decimals });
}

/** "12–20 ms" (one figure when both ends round alike). */
export function msRangeText(r: PredictedRange): string {
  const lo = fmtCount(r.low);
  const hi = fmtCount(r.high);
  return lo === hi ? `${lo} ms` : `${lo}–${hi} ms`;
}

/** "0.05–0.11" (one figure when both ends round alike). */
export function countRangeText(r: PredictedRange): string {
  const lo = fmtCount(r.low);
  const hi = fmtCount(r.high);
  return lo === hi ? lo : `${lo}–${hi}`;
}

/** "1.2–3.4 MB". */
export function bytesRangeText(r: PredictedRange): string {
  const lo = fmtBytes(r.low);
  const hi = fmtBytes(r.high);
  return lo === hi ? lo : `${lo}–${hi}`;
}

/** "64 MB", "1 MB". */
export function mbText(mb: number): string {
  return `${fmtCount(mb)} MB`;
}

/** "+96 MB per process (3 processes: +288 MB)", "+96 MB", "±0". */
export function memoryText(row: PredictionRow, isolates: number): string {
  if (row.current) return '±0';
  const perIsolate = row.extraMemoryMB / Math.max(1, isolates);
  const sign = row.extraMemoryMB >= 0 ? '+' : '−';
  const one = `${sign}${fmtCount(Math.abs(perIsolate))} MB`;
  return isolates > 1 ? `${one} per process (${isolates} processes: ${sign}${fmtCount(Math.abs(row.extraMemoryMB))} MB)` : one;
}

/** "after ~120k requests", "after ~40 s", "never at this survival", "not known". */
export function growthText(row: PredictionRow, per: PredictionBasis): string {
  if (row.growthUnits === 'never') return 'never at this survival';
  if (row.growthUnits === null) return 'not known';
  if (row.growthUnits === 0) return 'now';
  return per === 'requests' ? `after ~${fmtCount(row.growthUnits / 1000)}k requests` : `after ~${fmtCount(row.growthUnits)} s`;
}

export const PREDICTION_HEADERS = ['semi-space', 'scavenges', 'young-GC pause', 'promoted', 'Mark-Compacts', 'new space per process', 'memory', 'V8 grows there'] as const;

/** The table's cells per row (PREDICTION_HEADERS), the current size marked. */
export function predictionCells(p: YoungGenPrediction): string[][] {
  return p.rows.map((r) => [
    `${mbText(r.semiSpaceMB)}${r.current ? ' (now)' : ''}${p.recommendation.semiSpaceMB === r.semiSpaceMB ? ' ✓' : ''}`,
    fmtCount(r.scavengesPerUnit),
    `${msRangeText(r.youngPauseMsPerUnit)} (≈ ${fmtCount(r.youngPauseMsPerUnit.expected)})`,
    r.promotedBytesPerUnit ? bytesRangeText(r.promotedBytesPerUnit) : '–',
    r.markCompactsPerUnit ? countRangeText(r.markCompactsPerUnit) : '–',
    mbText(r.newSpaceMBPerIsolate),
    memoryText(r, r.processes),
    growthText(r, p.per),
  ]);
}

/** What the run measured, the model's starting point, in one line. */
export function predictionInputsText(p: YoungGenPrediction): string {
  const i = p.inputs;
  const per = perText(p.per);
  const sampled = i.sampledBytesPerUnit !== null ? ` (sampled allocations: ${fmtBytes(i.sampledBytesPerUnit)})` : '';
  const processes = i.isolates.length > 1 ? ` in ${i.isolates.length} processes` : '';
  return (
    `From V8's trace${processes}: ${fmtBytes(i.allocatedBytesPerUnit)} allocated ${per}${sampled}, a ${mbText(i.semiSpaceMB)} semi-space, ` +
    `${fmtCount(i.scavengesPerUnit)} scavenges and ${fmtCount(i.youngPauseMsPerUnit)} ms of young-GC pause ${per} ` +
    `(${pct(i.youngGcWallShare)} of wall time)${i.markCompactsPerUnit > 0 ? `, ${fmtCount(i.markCompactsPerUnit)} Mark-Compacts (${fmtCount(i.markCompactMsPerUnit)} ms)` : ''}` +
    `${i.promotedBytesPerUnit > 0 ? `, ${fmtBytes(i.promotedBytesPerUnit)} promoted` : ''}`
  );
}

/** The recommendation's sentence (see predictYoungGen.ts's recommend()). */
export function predictionRecommendationText(inputs: PredictionInputs, rows: PredictionRow[], rec: Omit<PredictionRecommendation, 'text'>, per: PredictionBasis): string {
  const unit = perText(per);
  const at = (r: PredictionRow) =>
    `~${fmtCount(r.scavengesPerUnit)} scavenges ${unit} (now ${fmtCount(inputs.scavengesPerUnit)}), young-GC pause ${msRangeText(r.youngPauseMsPerUnit)} ${unit} (now ${fmtCount(inputs.youngPauseMsPerUnit)} ms), ${memoryText(r, r.processes)} of memory`;
  const bigger = rows.filter((r) => !r.current);
  if (rec.gainSmall) {
    const largest = bigger[bigger.length - 1];
    return `Scavenges are ${pct(inputs.youngGcWallShare)} of wall time: no semi-space will buy much${largest ? ` (at ${mbText(largest.semiSpaceMB)}: ${at(largest)})` : ''}.`;
  }
  const chosen = rows.find((r) => r.semiSpaceMB === rec.semiSpaceMB);
  if (!chosen) {
    const next = bigger[0];
    return `Keep ${mbText(inputs.semiSpaceMB)}: no size is predicted to cut the young-GC pause by 15% or more${next ? ` (at ${mbText(next.semiSpaceMB)}: ${at(next)})` : ''}.`;
  }
  const beyond = rows.filter((r) => r.semiSpaceMB > chosen.semiSpaceMB);
  const more = beyond.length > 0 ? `; ${beyond.map((r) => mbText(r.semiSpaceMB)).join('/')} would gain little more (${beyond.map((r) => `≈ ${fmtCount(r.youngPauseMsPerUnit.expected)} ms, ${memoryText(r, r.processes)}`).join('; ')})` : '';
  const pin = rec.pinMinimum ? ` Set --min-semi-space-size=${fmtCount(chosen.semiSpaceMB)} too: V8 grows the new space only as survivors add up, which at this survival would take ${chosen.growthUnits === 'never' ? 'forever' : growthText(chosen, per).replace(/^after /, '')}.` : '';
  return `${mbText(chosen.semiSpaceMB)}: ${at(chosen)}${more}.${pin}`;
}

function pct(share: number): string {
  return `${(share * 100).toLocaleString('en-US', { maximumFractionDigits: share < 0.1 ? 1 : 0 })}%`;
}

export const PREDICTION_CHECK_HEADERS = ['semi-space', 'scavenges /1k predicted', 'measured', 'error', 'young-GC ms /1k predicted', 'measured', 'in range', 'error', 'direction predicted / measured'] as const;

/** "+12%" / "−3%" / "–". */
export function errorText(error: number | null): string {
  if (error === null) return '–';
  const pctValue = Math.round(error * 100);
  return `${pctValue > 0 ? '+' : pctValue < 0 ? '−' : '±'}${Math.abs(pctValue)}%`;
}

/** One swept size's cells (PREDICTION_CHECK_HEADERS). */
export function predictionCheckCells(c: PredictionCheck): string[] {
  return [
    mbText(c.semiSpaceMB),
    fmtCount(c.predictedScavengesPer1k),
    c.measuredScavengesPer1k === null ? 'not measured' : fmtCount(c.measuredScavengesPer1k),
    errorText(c.scavengesError),
    `${msRangeText(c.predictedYoungMsPer1k)} (≈ ${fmtCount(c.predictedYoungMsPer1k.expected)})`,
    c.measuredYoungMsPer1k === null ? 'not measured' : `${fmtCount(c.measuredYoungMsPer1k)} ms`,
    c.youngMsInRange === null ? '–' : c.youngMsInRange ? 'yes' : 'no',
    errorText(c.youngMsError),
    c.predictedDirection === null ? '–' : `${c.predictedDirection} / ${c.measuredDirection === '~' ? '~ (the rounds overlap)' : c.measuredDirection ?? 'not measured'}`,
  ];
}

/** "Scavenges per 1k: within 3–12% of the prediction; young-GC pause in its range at 3 of 3 sizes." */
export function predictionCheckSummary(checks: readonly PredictionCheck[]): string {
  const measured = checks.filter((c) => c.scavengesError !== null);
  if (measured.length === 0) return 'Nothing measured yet to hold the prediction against.';
  const errors = measured.map((c) => Math.abs(c.scavengesError!) * 100);
  const lo = Math.round(Math.min(...errors));
  const hi = Math.round(Math.max(...errors));
  const inRange = checks.filter((c) => c.youngMsInRange === true).length;
  const pauses = checks.filter((c) => c.youngMsInRange !== null).length;
  return `Scavenges per 1k requests: within ${lo === hi ? `${lo}%` : `${lo}–${hi}%`} of the prediction; young-GC pause in its predicted range at ${inRange} of ${pauses} size${pauses === 1 ? '' : 's'}.`;
}
