/**
 * What the lab knows about the flags it sweeps: the common ones offered in the form, units, which
 * metric decides, and how a setting is written in texts. Pure (the webview imports it too).
 *
 * - Young-generation flags (`max-semi-space-size`, `min-semi-space-size`, `semi-space-growth-factor`,
 *   and any flag about the semi-space or the new space) are judged on GC ms per 1k requests: all GC
 *   pause per request, mostly scavenges.
 * - Old-generation flags (`max-old-space-size` and any flag about the old space or the heap size)
 *   are judged on Mark-Compact ms per 1k requests: what a bigger old space buys is fewer and rarer
 *   full GCs, and its bill (peak RSS) is shown next to it.
 * - Any other flag: GC ms per 1k requests, like the semi-space.
 */
import { SEMI_SPACE_FLAG, type PrimaryMetric } from './model/sweep';

export type SweepFlagKind = 'young' | 'old' | 'other';

export interface SweepFlagInfo {
  /** Without dashes. */
  name: string;
  kind: SweepFlagKind;
  /** 'MB' for the space sizes; '' for factors and flags the lab knows nothing about. */
  unit: 'MB' | '';
  /** What the recommendation compares. */
  primary: PrimaryMetric;
  /** Values the form offers when the flag is picked. */
  suggested: string;
  /** One line for the form. */
  hint: string;
  /**
   * An on/off V8 flag: 1 runs `--<flag>`, 0 `--no-<flag>` (V8 refuses `--<flag>=0`). Absent: the flag
   * takes a number. Only the flags listed here are swept this way.
   */
  onOff?: boolean;
}

export const SWEEP_FLAGS: readonly SweepFlagInfo[] = [
  {
    name: SEMI_SPACE_FLAG,
    kind: 'young',
    unit: 'MB',
    primary: 'gcMsPer1k',
    suggested: '16, 32, 64, 128, 256',
    hint: 'The young generation: fewer scavenges per request as it grows, for 3× its size in RSS.',
  },
  {
    name: 'max-old-space-size',
    kind: 'old',
    unit: 'MB',
    primary: 'markCompactMsPer1k',
    suggested: '256, 512, 1024, 2048',
    hint: 'The old generation’s limit: fewer Mark-Compacts as it grows; too small and requests fail or the process dies.',
  },
  {
    name: 'semi-space-growth-factor',
    kind: 'young',
    unit: '',
    primary: 'gcMsPer1k',
    suggested: '2, 4, 8',
    hint: 'How fast the new space grows towards its maximum (a factor, V8 default 2).',
  },
  {
    // Pretenuring can flip a service's GC regime (fewer scavenges, many more Mark-Compacts): the lab
    // runs it off against V8's default. Judged on all GC pause per 1k requests, which holds both.
    name: 'allocation-site-pretenuring',
    kind: 'young',
    unit: '',
    primary: 'gcMsPer1k',
    suggested: '1, 0',
    hint: 'V8 allocating hot sites’ objects straight in the old generation: 1 = on (V8’s default), 0 = --no-allocation-site-pretenuring.',
    onOff: true,
  },
  {
    name: 'min-semi-space-size',
    kind: 'young',
    unit: 'MB',
    primary: 'gcMsPer1k',
    suggested: '1, 4, 16',
    hint: 'Where the new space starts before it grows.',
  },
];

/** Everything the lab assumes about a flag; flags it does not list are classified by name. */
export function sweepFlagInfo(flag: string): SweepFlagInfo {
  const name = flag.replace(/^-+/, '').replace(/_/g, '-');
  const known = SWEEP_FLAGS.find((f) => f.name === name);
  if (known) return known;
  const kind: SweepFlagKind = /old-space|old-gen|heap-size/.test(name) ? 'old' : /semi-space|new-space|young/.test(name) ? 'young' : 'other';
  return {
    name,
    kind,
    unit: kind !== 'other' && /-size$/.test(name) ? 'MB' : '',
    primary: kind === 'old' ? 'markCompactMsPer1k' : 'gcMsPer1k',
    suggested: '',
    hint: '',
  };
}

/** The metric that decides for this flag. */
export function primaryMetricOf(flag: string): PrimaryMetric {
  return sweepFlagInfo(flag).primary;
}

/** Whether the Mark-Compact columns (and peak RSS first) belong in the tables. */
export function isOldSpaceFlag(flag: string): boolean {
  return sweepFlagInfo(flag).kind === 'old';
}

/** "GC ms per 1k requests" / "Mark-Compact ms per 1k requests". */
export function metricLabel(metric: PrimaryMetric, short = false): string {
  const what = metric === 'markCompactMsPer1k' ? 'Mark-Compact ms' : 'GC ms';
  return short ? `${what} per 1k` : `${what} per 1k requests`;
}

function plain(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 100) / 100);
}

/**
 * A setting in words: the semi-space keeps its short form ("64 MB", as the lab always wrote it);
 * any other flag is named with its value ("--max-old-space-size=512").
 */
export function formatSetting(flag: string, value: number): string {
  return flag === SEMI_SPACE_FLAG ? `${plain(value)} MB` : flagArg(flag, value);
}

/** The command-line word of a setting: `--<flag>=<value>`, or for an on/off flag `--<flag>` / `--no-<flag>`. */
export function flagArg(flag: string, value: number): string {
  const name = flag.replace(/^-+/, '');
  if (sweepFlagInfo(name).onOff) return value !== 0 ? `--${name}` : `--no-${name}`;
  return `--${name}=${Number.isInteger(value) ? value.toFixed(0) : String(value)}`;
}

/** Whether the lab sweeps this flag as on (1) and off (0). */
export function isOnOffFlag(flag: string): boolean {
  return sweepFlagInfo(flag).onOff === true;
}

/** Several settings: "128/256 MB", "--max-old-space-size=1024/2048". */
export function formatSettings(flag: string, values: readonly number[]): string {
  if (isOnOffFlag(flag)) return values.map((v) => flagArg(flag, v)).join(' / ');
  const list = values.map(plain).join('/');
  return flag === SEMI_SPACE_FLAG ? `${list} MB` : `--${flag}=${list}`;
}

/** A value with the flag's unit, for table cells and chart labels: "512 MB", "4". */
export function formatValueWithUnit(flag: string, value: number): string {
  if (isOnOffFlag(flag)) return value !== 0 ? 'on' : 'off';
  const unit = sweepFlagInfo(flag).unit;
  return unit ? `${plain(value)} ${unit}` : plain(value);
}
