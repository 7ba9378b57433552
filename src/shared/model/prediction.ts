/**
 * What a bigger young generation would do, predicted from one run (src/core/predict/): the model's
 * inputs as V8's own trace of the run gave them, a row per semi-space size, and a recommendation.
 * Part of `summary.json` (`Summary.prediction`) and of a sweep made from it (`SweepResult.prediction`).
 * Sizes are `--max-semi-space-size` MB; bytes are bytes; times ms. Every "per unit" figure is per
 * 1,000 requests under load (`per: 'requests'`), or per second of a run without load (`'seconds'`).
 */

export type PredictionBasis = 'requests' | 'seconds';

/** How many units each "per unit" figure is for: 1,000 requests, or 1 second. */
export function unitsPerFigure(per: PredictionBasis): number {
  return per === 'requests' ? 1000 : 1;
}

/** Where a figure came from: V8's `--trace-gc` lines, its `--trace-gc-nvp` phases, the survivors pass, or not known. */
export type PredictionSource = 'trace-gc' | 'nvp' | 'survivors' | 'trigger' | 'none';

/** One isolate's part of the inputs (a cluster has one per worker). */
export interface PredictionIsolate {
  pid: number;
  isolate: string;
  /** The semi-space it had at full size, bytes (its largest new space / 2). */
  semiSpaceBytes: number;
  /** Bytes the app allocated between two scavenges at that size (median), young and pretenured. */
  usableBytes: number;
  /** Scavenges at that size the usable figure came from (of `scavenges`). */
  fullSizeScavenges: number;
  /** Bytes allocated per unit (see the file comment): V8's account of the heap's growth between GCs, or its nvp `allocated=`. */
  allocatedBytesPerUnit: number;
  allocatedSource: PredictionSource;
  /** Young GCs in the measured span and their main-thread pause, per unit. */
  scavenges: number;
  scavengesPerUnit: number;
  youngPauseMsPerUnit: number;
  /** Mean pause of a scavenge at full size (of every one, with fewer than 5 at full size) and the 95% interval of that mean (its spread in the run), ms. */
  meanScavengeMs: number;
  meanScavengeLowMs: number;
  meanScavengeHighMs: number;
  /** Survivors a scavenge kept in the young generation (objects still in use), bytes; `keptSource` says how it is known. */
  keptBytesPerScavenge: number;
  keptSource: PredictionSource;
  /** Bytes a scavenge promoted to the old generation (what survived twice), per scavenge. */
  promotedBytesPerScavenge: number;
  promotedSource: PredictionSource;
  /** Full GCs in the span and their pause, per unit. */
  markCompactsPerUnit: number;
  markCompactMsPerUnit: number;
  /** Its scavenges' pause over its own wall time in the span, 0–1. */
  youngGcWallShare: number;
}

export interface PredictionInputs {
  /** Units (requests, or seconds) the span covered, all isolates. */
  units: number;
  /** The window the figures are of, ms. */
  spanMs: number;
  isolates: PredictionIsolate[];
  /** The largest semi-space the isolates had, MB (what the rows start from), and what the run asked for (null: V8's default). */
  semiSpaceMB: number;
  askedMB: number | null;
  /** Bytes allocated per unit, all isolates: V8's trace, and the sampled allocations as a cross-check (null: not sampled). */
  allocatedBytesPerUnit: number;
  allocatedSource: PredictionSource;
  sampledBytesPerUnit: number | null;
  /** Allocation sites V8 tenured in the run (their objects are allocated old and fill no semi-space); null when not recorded. */
  sitesTenured: number | null;
  /** The young GC's share of wall time in the span (the serving threads'), 0–1. */
  youngGcWallShare: number;
  /** What the run measured, all isolates, per unit. */
  scavengesPerUnit: number;
  youngPauseMsPerUnit: number;
  markCompactsPerUnit: number;
  markCompactMsPerUnit: number;
  promotedBytesPerUnit: number;
}

/** A low–high range with the model's expected value between. */
export interface PredictedRange {
  low: number;
  expected: number;
  high: number;
}

export interface PredictionRow {
  semiSpaceMB: number;
  /** The run's own size: its figures are the model at that size (the measured ones are in the inputs). */
  current: boolean;
  scavengesPerUnit: number;
  youngPauseMsPerUnit: PredictedRange;
  /** Per unit; null when the run promoted nothing. */
  promotedBytesPerUnit: PredictedRange | null;
  /** Per unit; null when the run had no Mark-Compact. */
  markCompactsPerUnit: PredictedRange | null;
  /** New space per isolate (two semi-spaces, once grown), MB, and the change from the current size over all isolates. */
  newSpaceMBPerIsolate: number;
  extraMemoryMB: number;
  /**
   * The processes (isolates) whose young generation would reach this size: those at the run's size
   * now; one whose new space never grew that far (a cluster's idle primary) stays as it is.
   */
  processes: number;
  /**
   * Units (requests or seconds) V8 would take to grow the new space to this size on its own (it
   * doubles it once survivors add up to its size); 'never' when nothing survives to grow it (the size
   * needs `--min-semi-space-size` too); null when not known (the run's trace does not say what a
   * scavenge kept). 0 for the current size.
   */
  growthUnits: number | 'never' | null;
}

export interface PredictionRecommendation {
  /** The size to set; null: keep the current one (the gain would be small, or none is predicted). */
  semiSpaceMB: number | null;
  /** Set `--min-semi-space-size` to it too: V8 would take long to grow there on its own. */
  pinMinimum: boolean;
  /** The gain would be small whatever the size: the young GC is a small share of the time. */
  gainSmall: boolean;
  /** One or two sentences with the figures. */
  text: string;
}

export interface YoungGenPrediction {
  per: PredictionBasis;
  inputs: PredictionInputs;
  /** The current size first, then 2×, 4×, … up to what the machine's memory allows for these isolates. */
  rows: PredictionRow[];
  recommendation: PredictionRecommendation;
  /** The model's assumptions and what the run could not say, one line each. */
  notes: string[];
}

/** A sweep made to confirm a prediction (`v8-lens sweep --from-run`): the run, and its prediction for the swept sizes. */
export interface SweepPrediction {
  /** The run folder the prediction came from, as given. */
  fromRun: string;
  per: PredictionBasis;
  /** The run's own size, MB. */
  currentMB: number;
  /** Allocation sites V8 tenured in the run (another number in the lab's runs is another GC regime); null when not recorded. */
  sitesTenured: number | null;
  rows: PredictionRow[];
}

export type PauseDirection = 'down' | 'flat' | 'up';

/** One swept size: what was predicted and what the lab measured (medians of its valid rounds). */
export interface PredictionCheck {
  semiSpaceMB: number;
  validRuns: number;
  predictedScavengesPer1k: number;
  measuredScavengesPer1k: number | null;
  /** (measured − predicted) / measured; null without a measurement. */
  scavengesError: number | null;
  predictedYoungMsPer1k: PredictedRange;
  measuredYoungMsPer1k: number | null;
  /** Whether the measured young-GC ms per 1k lies in the predicted range: some valid round at or above its low end and some at or below its high end. */
  youngMsInRange: boolean | null;
  /** (measured − expected) / measured. */
  youngMsError: number | null;
  /**
   * Which way the young-GC pause per 1k goes from the run's size: predicted (the expected figures,
   * 5% either way counting as flat), and as the lab measured it: 'down' or 'up' when every round at
   * this size is below (above) every round at the run's size, '~' when the rounds overlap (the lab
   * cannot tell); null at the run's own size or without rounds at both.
   */
  predictedDirection: PauseDirection | null;
  measuredDirection: PauseDirection | '~' | null;
  /** When the lab's runs at this size were in another GC regime than the run (V8 tenured sites in one, none in the other): what differs; null otherwise. */
  regimeDiffers: string | null;
}
