/** One figure of A and B side by side, with its change and whether that change is better or worse. */
import { round } from '../util/stats';
import type { MetricDirection, MetricRow, MetricUnit, MetricVerdict } from '../../shared/model/compareModel';

/** Changes smaller than this fraction of the larger value count as no change. */
export const SAME_THRESHOLD = 0.01;

/** Better or worse, by the figure's direction: fewer scavenges is better, more req/s is better. */
export function judgeChange(direction: MetricDirection, base: number | null, other: number | null): MetricVerdict {
  if (base === null || other === null) return 'n/a';
  if (direction === 'neutral') return 'info';
  const diff = other - base;
  const scale = Math.max(Math.abs(base), Math.abs(other));
  if (diff === 0 || scale === 0 || Math.abs(diff) / scale < SAME_THRESHOLD) return 'same';
  return (diff > 0) === (direction === 'higher') ? 'better' : 'worse';
}

export function metricRow(
  key: string,
  label: string,
  group: MetricRow['group'],
  unit: MetricUnit,
  direction: MetricDirection,
  base: number | null,
  other: number | null,
  extra: Pick<MetricRow, 'baseText' | 'otherText' | 'hint'> = {},
): MetricRow {
  const both = base !== null && other !== null;
  const change = both ? round(other - base, 6) : null;
  const changePct = both && base !== 0 ? round(((other - base) / Math.abs(base)) * 100, 3) : null;
  return { key, label, group, unit, direction, base, other, change, changePct, verdict: judgeChange(direction, base, other), ...extra };
}

/** A list that keeps only rows with something on either side. */
export function rowCollector(): { rows: MetricRow[]; add(row: MetricRow): void } {
  const rows: MetricRow[] = [];
  return {
    rows,
    add(row) {
      if (row.base !== null || row.other !== null || row.baseText || row.otherText) rows.push(row);
    },
  };
}
