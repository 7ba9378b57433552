/**
 * The prediction as the CLI prints it (`v8-lens predict`, and a section of the text report): what the
 * run measured, the table of sizes, the recommendation and the model's notes.
 */
import type { YoungGenPrediction } from '../../shared/model/prediction';
import { PREDICTION_HEADERS, perText, predictionCells, predictionInputsText } from '../../shared/predictionText';

/** The section's lines; `confirmHint` adds how to confirm it in the lab. */
export function predictionLines(prediction: YoungGenPrediction | null | undefined, missing: string | null | undefined, confirmHint: string | null = null): string[] {
  if (!prediction) return missing ? [`A bigger young generation: no prediction (${missing})`] : [];
  const out = [
    `A bigger young generation, predicted ${perText(prediction.per)} (young-GC pause: low–high, ≈ expected):`,
    `  ${predictionInputsText(prediction)}`,
    alignedTable([...PREDICTION_HEADERS], predictionCells(prediction)),
    `Recommendation: ${prediction.recommendation.text}`,
  ];
  for (const note of prediction.notes) out.push(`  Note: ${note}`);
  if (confirmHint) out.push(confirmHint);
  return out;
}

function alignedTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) => `  ${cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')}`.trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}
