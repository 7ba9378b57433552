/**
 * Predicted beside measured, as `v8-lens sweep --from-run` prints it under the sweep's table: per
 * swept size the scavenges and the young-GC pause per 1k requests, what the run predicted, what the
 * lab measured (medians of its valid rounds) and the error.
 */
import type { PredictionCheck, SweepPrediction } from '../../shared/model/prediction';
import { PREDICTION_CHECK_HEADERS, predictionCheckCells, predictionCheckSummary } from '../../shared/predictionText';

export function predictionCheckLines(prediction: SweepPrediction, checks: readonly PredictionCheck[]): string[] {
  const rows = checks.map(predictionCheckCells);
  const headers = [...PREDICTION_CHECK_HEADERS];
  const widths = headers.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) => `  ${cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')}`.trimEnd();
  const out = [`Predicted from ${prediction.fromRun} beside measured (medians of the valid rounds; error = (measured − predicted) / measured):`, line(headers), ...rows.map(line)];
  out.push(predictionCheckSummary(checks));
  for (const c of checks) if (c.regimeDiffers) out.push(`  ${c.semiSpaceMB} MB: ${c.regimeDiffers}`);
  return out;
}
