/**
 * The prediction of a run: its isolates' inputs (youngGenInputs.ts), a row per semi-space size (the
 * current one, then 2×, 4×, 8×, as far as the machine's memory allows for these isolates) from the
 * model (youngGenModel.ts), and a recommendation that says when the gain would be small.
 */
import {
  unitsPerFigure,
  type PredictedRange,
  type PredictionBasis,
  type PredictionInputs,
  type PredictionIsolate,
  type PredictionRecommendation,
  type PredictionRow,
  type YoungGenPrediction,
} from '../../shared/model/prediction';
import { predictionRecommendationText } from '../../shared/predictionText';
import { mean, round } from '../util/stats';
import { basisOf, readIsolate, type IsolateGc, type PredictionWindow, type SurvivorsHint } from './youngGenInputs';
import { growthUnits, isolateAtSize } from './youngGenModel';

const MB = 1024 * 1024;
/** The sizes go up to 8× the current one, and no further than this (MB). */
const MAX_RATIO = 8;
const MAX_SEMI_SPACE_MB = 1024;
/** New space for all isolates may take at most this share of the machine's memory. */
const MEMORY_SHARE = 0.25;
/** Below this share of wall time in scavenges, no size can buy much. */
const SMALL_YOUNG_GC_SHARE = 0.05;
/** A size is worth it when it cuts the young-GC pause per unit by at least this much (expected). */
const WORTH_IT = 0.15;
/** The recommended size brings at least this share of the best size's cut in expected pause. */
const MOST_OF_THE_GAIN = 0.75;
/** An isolate at this share of the largest semi-space or more is at the run's size (the others never grew there). */
const AT_THE_SIZE = 0.9;
/** Growth that takes longer than this many units (1,000 requests × this, or seconds) needs --min-semi-space-size too. */
const SLOW_GROWTH_UNITS: Record<PredictionBasis, number> = { requests: 100_000, seconds: 600 };

export interface PredictOptions {
  isolates: readonly IsolateGc[];
  window: PredictionWindow;
  /** What --max-semi-space-size asked for (null: V8's default). */
  askedMB: number | null;
  /** Sampled bytes per unit (garbage included), the cross-check; null when not sampled. */
  sampledBytesPerUnit: number | null;
  /** Allocation sites V8 tenured in the run; null when not recorded. */
  sitesTenured: number | null;
  survivors?: SurvivorsHint | null;
  /** The machine's memory, bytes (os.totalmem()). */
  machineMemoryBytes: number;
}

/** The prediction; null with the reason when the run cannot give one. */
export function predictYoungGeneration(options: PredictOptions): { prediction: YoungGenPrediction | null; reason: string | null } {
  const per = basisOf(options.window);
  const read = options.isolates.map((iso) => readIsolate(iso, options.window, options.survivors ?? null));
  const readings = read.flatMap((r) => (r.ok ? [r] : []));
  const isolates = readings.map((r) => r.figures);
  const skipped = read.flatMap((r) => (r.ok ? [] : [r.reason]));
  if (isolates.length === 0) return { prediction: null, reason: skipped[0] ?? 'the run had no scavenge to predict from' };
  // Without load, the longest life of them is the run's time (their figures are each per second of its own).
  const longest = readings.reduce((a, b) => (b.spanMs > a.spanMs ? b : a));
  const inputs = inputsOf(isolates, options, { units: longest.units, spanMs: longest.spanMs });
  const sizes = sizeLadder(inputs, options.machineMemoryBytes);
  const rows = sizes.map((mb) => rowAt(inputs, mb, per));
  const notes = notesOf(inputs, skipped, per);
  const recommendation = recommend(inputs, rows, per);
  return { prediction: { per, inputs, rows, recommendation, notes }, reason: null };
}

function inputsOf(isolates: PredictionIsolate[], options: PredictOptions, span: { units: number; spanMs: number }): PredictionInputs {
  const total = (pick: (i: PredictionIsolate) => number) => isolates.reduce((n, i) => n + pick(i), 0);
  const top = Math.max(...isolates.map((i) => i.semiSpaceBytes));
  const atSize = isolates.filter((i) => i.semiSpaceBytes >= AT_THE_SIZE * top);
  const per = basisOf(options.window);
  const youngPause = total((i) => i.youngPauseMsPerUnit);
  return {
    units: round(span.units, 3),
    spanMs: round(span.spanMs, 3),
    isolates,
    semiSpaceMB: round(top / MB, 3),
    askedMB: options.askedMB,
    allocatedBytesPerUnit: Math.round(total((i) => i.allocatedBytesPerUnit)),
    allocatedSource: isolates.every((i) => i.allocatedSource === 'nvp') ? 'nvp' : 'trace-gc',
    sampledBytesPerUnit: options.sampledBytesPerUnit === null ? null : Math.round(options.sampledBytesPerUnit * (per === 'requests' ? 1000 : 1)),
    sitesTenured: options.sitesTenured,
    // The share of the isolates at the run's size (a cluster's workers, not its idle primary): the
    // mean of their own shares (each pause stops only its own thread).
    youngGcWallShare: round(mean(atSize.map((i) => i.youngGcWallShare)), 6),
    scavengesPerUnit: round(total((i) => i.scavengesPerUnit), 4),
    youngPauseMsPerUnit: round(youngPause, 3),
    markCompactsPerUnit: round(total((i) => i.markCompactsPerUnit), 4),
    markCompactMsPerUnit: round(total((i) => i.markCompactMsPerUnit), 3),
    promotedBytesPerUnit: Math.round(total((i) => i.promotedBytesPerScavenge * i.scavengesPerUnit)),
  };
}

/** The current size, then 2×, 4×, 8× of it, while the isolates' new spaces fit in the machine's share of memory. */
function sizeLadder(inputs: PredictionInputs, machineMemoryBytes: number): number[] {
  const current = inputs.semiSpaceMB;
  const sizes = [current];
  const budgetMB = (machineMemoryBytes * MEMORY_SHARE) / MB;
  for (let ratio = 2; ratio <= MAX_RATIO; ratio *= 2) {
    const mb = current * ratio;
    if (mb > MAX_SEMI_SPACE_MB || 2 * mb * inputs.isolates.length > budgetMB) break;
    sizes.push(mb);
  }
  return sizes;
}

/**
 * One size: every isolate whose young generation is at the run's size now is at it; one whose new
 * space never grew that far (V8 grows it only as survivors add up: a cluster's idle primary) stays
 * as it is, figures and memory.
 */
export function rowAt(inputs: PredictionInputs, mb: number, per: PredictionBasis): PredictionRow {
  const ratio = mb / inputs.semiSpaceMB;
  const topBytes = inputs.semiSpaceMB * MB;
  const at = inputs.isolates.map((iso) => {
    const grows = iso.semiSpaceBytes >= AT_THE_SIZE * topBytes;
    const size = grows ? iso.semiSpaceBytes * ratio : iso.semiSpaceBytes;
    return { iso, grows, size, fig: isolateAtSize(iso, size) };
  });
  const sum = (pick: (r: PredictedRange) => number, of: (f: (typeof at)[number]['fig']) => PredictedRange) => at.reduce((n, a) => n + pick(of(a.fig)), 0);
  const range = (of: (f: (typeof at)[number]['fig']) => PredictedRange): PredictedRange => ({
    low: round(sum((r) => r.low, of), 3),
    expected: round(sum((r) => r.expected, of), 3),
    high: round(sum((r) => r.high, of), 3),
  });
  const growing = at.filter((a) => a.grows);
  const growth = growing.map((a) => growthUnits(a.iso, a.size, unitsPerFigure(per)));
  const extraBytes = growing.reduce((n, a) => n + 2 * (a.size - a.iso.semiSpaceBytes), 0);
  return {
    semiSpaceMB: round(mb, 3),
    current: ratio === 1,
    scavengesPerUnit: round(at.reduce((n, a) => n + a.fig.scavengesPerUnit, 0), 4),
    youngPauseMsPerUnit: range((f) => f.youngPauseMsPerUnit),
    promotedBytesPerUnit: inputs.promotedBytesPerUnit > 0 ? range((f) => f.promotedBytesPerUnit) : null,
    markCompactsPerUnit: inputs.markCompactsPerUnit > 0 ? range((f) => f.markCompactsPerUnit) : null,
    newSpaceMBPerIsolate: round(2 * mb, 3),
    extraMemoryMB: round(extraBytes / MB, 1),
    processes: growing.length,
    growthUnits: growthOf(growth),
  };
}

/** The slowest isolate's growth: 'never' if any never grows there, null if any is not known. */
function growthOf(list: readonly (number | 'never' | null)[]): number | 'never' | null {
  if (list.includes('never')) return 'never';
  if (list.includes(null)) return null;
  return round(Math.max(0, ...(list as number[])), 0);
}

/**
 * The smallest size that brings most of the gain the sizes offer (three quarters of the best one's
 * cut in expected young-GC pause, and at least 15% of now): beyond it, twice the memory buys little
 * more. None when scavenges are under 5% of wall time (no size can buy much).
 */
function recommend(inputs: PredictionInputs, rows: PredictionRow[], per: PredictionBasis): PredictionRecommendation {
  const current = rows[0]!;
  const now = current.youngPauseMsPerUnit.expected;
  const gainSmall = inputs.youngGcWallShare < SMALL_YOUNG_GC_SHARE;
  const bestGain = Math.max(0, ...rows.map((r) => now - r.youngPauseMsPerUnit.expected));
  const pick = rows.find((r) => !r.current && now - r.youngPauseMsPerUnit.expected >= MOST_OF_THE_GAIN * bestGain && now - r.youngPauseMsPerUnit.expected >= WORTH_IT * now);
  const chosen = gainSmall ? null : pick ?? null;
  const slow = (g: PredictionRow['growthUnits']) => g === 'never' || (typeof g === 'number' && g > SLOW_GROWTH_UNITS[per]);
  const pinMinimum = chosen !== null && slow(chosen.growthUnits);
  const rec = { semiSpaceMB: chosen?.semiSpaceMB ?? null, pinMinimum, gainSmall };
  return { ...rec, text: predictionRecommendationText(inputs, rows, rec, per) };
}

function notesOf(inputs: PredictionInputs, skipped: string[], per: PredictionBasis): string[] {
  const notes: string[] = [...skipped.map((s) => `Left out: ${s}.`)];
  // Of the processes at the run's size: an idle one's reading says nothing about the service.
  const top = Math.max(...inputs.isolates.map((i) => i.semiSpaceBytes));
  const kept = new Set(inputs.isolates.filter((i) => i.semiSpaceBytes >= AT_THE_SIZE * top).map((i) => i.keptSource));
  const gcPhases = 'profile with --gc-phases (V8\'s --trace-gc-nvp) or --survivors for V8\'s own figure';
  if (kept.has('trigger') && !kept.has('none')) {
    notes.push(`What a scavenge kept young is not in --trace-gc: the model reads it from how full the semi-space was when scavenges ran (V8 scavenges at 80% full or later), a lower bound, so it may predict a few more scavenges than V8 will run; ${gcPhases}.`);
  } else if (kept.has('none')) {
    notes.push(`What a scavenge kept young is not in --trace-gc: the model takes it to be what was later promoted; with much request data in flight it may predict a few more scavenges than V8 will run; ${gcPhases}.`);
  }
  if (inputs.isolates.some((i) => i.promotedSource === 'trace-gc' && i.promotedBytesPerScavenge > 0)) {
    notes.push("Promoted bytes are the old generation's growth across scavenges in --trace-gc (pretenured allocation included).");
  }
  if (inputs.sitesTenured !== null && inputs.sitesTenured > 0) {
    notes.push(`V8 tenured ${inputs.sitesTenured} allocation site${inputs.sitesTenured === 1 ? '' : 's'} in this run: their objects are allocated old and fill no semi-space. The model holds those decisions at every size; V8 may decide otherwise at another size (fewer scavenges, more Mark-Compacts, or the reverse), which the lab shows.`);
  }
  const growing = inputs.isolates.filter((i) => i.fullSizeScavenges < i.scavenges);
  if (growing.length > 0) notes.push(`The new space was still growing in the ${per === 'requests' ? 'measured window' : 'run'}: ${growing.reduce((n, i) => n + i.scavenges - i.fullSizeScavenges, 0)} scavenges ran below full size, so the run measured more scavenges than the model gives at its size.`);
  return notes;
}
