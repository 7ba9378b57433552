/**
 * `v8-lens compare` as text: both runs, the headline figures with their change (per request first
 * when the runs were under load), the functions whose self time changed most, and the functions
 * that moved. The same CompareModel the compare webview draws.
 */
import { fmtBytes } from '../../shared/formatBytes';
import { describeMove, type CompareModel, type FunctionChange, type MetricRow } from '../../shared/model/compareModel';
import { fmtNum, formatLocation, table } from './textReport';

export interface CompareTextOptions {
  /** Paths under this folder are shown relative to it. */
  cwd: string;
  /** Functions per direction (slower, faster). */
  topFunctions?: number;
}

/** The whole-run figures worth a line in a terminal (the webview shows them all). */
const HEADLINE_KEYS = [
  'duration',
  'semiSpaceRequested',
  'gcEvents',
  'gcPause',
  'gc.Scavenge.count',
  'gc.Mark-Compact.count',
  'gc.Incremental Mark-Compact.count',
  'scavengeMean',
  'gcShare',
  'alloc.rate',
  'busy',
  'peakRss',
];

const MINUS = '\u2212';

export function formatCompareText(model: CompareModel, options: CompareTextOptions): string {
  const out: string[] = [];
  for (const run of [model.base, model.other]) {
    out.push(`${run.side === 'base' ? 'A' : 'B'}: ${run.label}  (${formatLocation(run.source, 0, 0, options.cwd)})`);
  }
  out.push('');
  // Every verdict below is one run against one.
  if (model.noiseNote) out.push(`Noise: ${model.noiseNote}`, '');

  const load = model.load;
  if (load) {
    out.push(load.rows.length > 0 ? 'Under load, per request (each run’s measured window):' : 'Under load:');
    if (load.rows.length > 0) out.push(metricTable(load.rows));
    for (const note of load.notes) out.push(`  · ${note}`);
    out.push('');
  }

  const headline = HEADLINE_KEYS.map((key) => model.metrics.find((r) => r.key === key)).filter((r): r is MetricRow => r !== undefined);
  if (headline.length > 0) {
    out.push('Run and GC (whole run):');
    out.push(metricTable(headline));
    if (model.gcMissing) out.push(`  · no GC figures: ${model.gcMissing}`);
    out.push('');
  }

  if (model.profileMs.base > 0 && model.profileMs.other > 0) {
    const requests = model.requests ?? null;
    const { increases, decreases } = requests ? model.topChanges.request : model.topChanges.ms;
    const limit = options.topFunctions ?? 10;
    if (requests) {
      // Under load a run that served more requests spent more in total: per request says whether each cost more.
      out.push(`Biggest changes in self time per request (µs, B ${MINUS} A; the whole profile's self time over the window's ${fmtNum(requests.base, 0)} and ${fmtNum(requests.other, 0)} requests):`);
      out.push('  · it includes start-up and warm-up, so it overstates a request\'s cost, alike in both runs (same warm-up and window); --json has the lists in ms too (topChanges.ms)');
    } else {
      out.push(`Biggest changes in self time (ms, B ${MINUS} A; sampled A ${fmtMs(model.profileMs.base)}, B ${fmtMs(model.profileMs.other)}):`);
      if (model.lengthsDiffer) out.push('  · the profiles differ in length by more than 20%: --json has the same lists as shares of each profile (topChanges.share)');
    }
    const unit = requests ? { base: 1000 / requests.base, other: 1000 / requests.other, fmt: fmtUs } : { base: 1, other: 1, fmt: fmtMs };
    out.push(functionTable('slower in B', increases.slice(0, limit), options.cwd, unit));
    out.push(functionTable('faster in B', decreases.slice(0, limit), options.cwd, unit));
    out.push('');
  } else if (model.flameMissing) {
    out.push(`No function changes: ${model.flameMissing}`, '');
  }

  const allocs = model.allocChanges;
  if (allocs && allocs.functions.length > 0) {
    const per = allocs.unit === 'bytes/request' ? 'per request' : 'per second';
    const amount = (bytes: number) => (allocs.unit === 'bytes/request' ? fmtBytes(bytes) : `${fmtBytes(bytes)}/s`);
    out.push(`Biggest changes in allocation (bytes ${per} in the function itself, sampled, B ${MINUS} A):`);
    const rows = allocs.functions.slice(0, options.topFunctions ?? 10);
    out.push(
      table(
        ['A', 'B', 'change', 'function', 'location'],
        rows.map((f) => [
          f.presence === 'other' ? '–' : amount(f.base),
          f.presence === 'base' ? '–' : amount(f.other),
          signed(f.change, amount),
          f.name,
          f.url ? formatLocation(f.url, f.line, f.column, options.cwd) : '',
        ]),
        [true, true, true, false, false],
      ).replace(/^/gm, '  '),
      '',
    );
  } else if (model.allocMissing) {
    out.push(`Allocations: ${model.allocMissing}`, '');
  }

  if (model.moved.count > 0) {
    const listed = model.moved.functions.slice(0, 10).map((m) => `${m.name} ${m.from.line}→${m.to.line}`);
    const more = model.moved.count > listed.length ? `, and ${model.moved.count - listed.length} more` : '';
    out.push(`Moved (in both runs, at another line in B, so the source changed): ${model.moved.count} function(s): ${listed.join(', ')}${more}`);
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function metricTable(rows: readonly MetricRow[]): string {
  return table(
    ['figure', 'A', 'B', 'change', 'change %', 'verdict'],
    rows.map((r) => [
      r.label,
      r.base !== null ? fmtMetric(r.unit, r.base) : r.baseText ?? '–',
      r.other !== null ? fmtMetric(r.unit, r.other) : r.otherText ?? '–',
      r.change !== null ? fmtChange(r.unit, r.change) : '–',
      r.changePct !== null ? signed(r.changePct, (v) => `${fmtNum(v, Math.abs(v) >= 100 ? 0 : 1)}%`) : '–',
      r.verdictNote ?? (r.verdict === 'same' ? 'no change' : r.verdict === 'better' || r.verdict === 'worse' ? r.verdict : ''),
    ]),
    [false, true, true, true, true, false],
  );
}

/** Each run's ms of self time in the table's unit, and how a value of that unit is written. */
interface TimeUnit {
  base: number;
  other: number;
  fmt: (value: number) => string;
}

function functionTable(title: string, rows: readonly FunctionChange[], cwd: string, unit: TimeUnit): string {
  if (rows.length === 0) return `  ${title}: none`;
  const body = table(
    ['change', 'A self', 'B self', 'function', 'location'],
    rows.map((f) => {
      const where = f.url ? formatLocation(f.url, f.line, f.column, cwd) : f.line > 0 ? `(script without a file):${f.line}` : '(native / VM)';
      const what = f.presence === 'other' ? 'new in B' : f.presence === 'base' ? 'gone in B' : f.movedFrom ? describeMove(f.movedFrom, f) : '';
      return [signed(f.delta, unit.fmt), unit.fmt(f.baseSelfMs * unit.base), unit.fmt(f.otherSelfMs * unit.other), f.name, what ? `${where}  (${what})` : where];
    }),
    [true, true, true, false, false],
  );
  return `  ${title}:\n${body.replace(/^/gm, '  ')}`;
}

function fmtMetric(unit: MetricRow['unit'], value: number): string {
  switch (unit) {
    case 'count':
      return fmtNum(value, Number.isInteger(value) ? 0 : 2);
    case 'ms':
      return fmtMs(value);
    case 'duration':
      return value >= 1000 ? `${fmtNum(value / 1000, 2)} s` : `${fmtNum(value, 1)} ms`;
    case 'share':
      return `${fmtNum(value * 100, 2)}%`;
    case 'MB':
      return `${fmtNum(value, value >= 100 ? 0 : 1)} MB`;
    case 'per-s':
      return `${fmtNum(value, 2)}/s`;
    case 'req/s':
      return `${fmtNum(value, Math.abs(value) >= 100 ? 0 : 1)} req/s`;
    case 'bytes':
      return fmtBytes(value);
    case 'bytes/s':
      return `${fmtBytes(value)}/s`;
  }
}

/** A change B − A in the figure's unit; a share's change is in percentage points. */
function fmtChange(unit: MetricRow['unit'], change: number): string {
  if (unit === 'share') return signed(change * 100, (v) => `${fmtNum(v, 2)} pp`);
  return signed(change, (v) => fmtMetric(unit, v));
}

/** "+1.2", "−3", "0": a sign on every non-zero change. */
function signed(value: number, text: (abs: number) => string): string {
  if (value === 0) return text(0);
  return `${value > 0 ? '+' : MINUS}${text(Math.abs(value))}`;
}

/** 0.042 µs, 19.7 µs, 250 µs: a request's share of a function's time. */
function fmtUs(us: number): string {
  if (us === 0) return '0 µs';
  const abs = Math.abs(us);
  return `${fmtNum(us, abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3)} µs`;
}

/** 0.042 ms, 1.35 ms, 123.4 ms, 12,345 ms: a precision that suits the size. */
function fmtMs(ms: number): string {
  if (ms === 0) return '0 ms';
  const abs = Math.abs(ms);
  return `${fmtNum(ms, abs >= 1000 ? 0 : abs >= 100 ? 1 : abs >= 1 ? 2 : 3)} ms`;
}
