/**
 * The prediction's inputs, read from one isolate's GC events (V8's own trace of the run): what the
 * app allocated between GCs (the heap's growth from one GC's end to the next one's start, or
 * `--trace-gc-nvp`'s `allocated=`), how much of the young generation a scavenge let it use, what a
 * scavenge kept and promoted, and what the scavenges and Mark-Compacts cost, all inside the measured
 * window of a run under load (per 1,000 requests) or over the isolate's life without load (per second).
 */
import type { GcEvent } from '../gc/gcEvent';
import { isFullGc, isYoungGenerationGc } from '../gc/gcEvent';
import { mean, median, round } from '../util/stats';
import { unitsPerFigure, type PredictionBasis, type PredictionIsolate, type PredictionSource } from '../../shared/model/prediction';

const MB = 1024 * 1024;
/** A scavenge that let the app allocate at least this share of the semi-space ran at full size (the new space grows by doubling, so a smaller one is at most half). */
const FULL_SIZE_SHARE = 0.55;
/** Fewer scavenges than this tell too little about the young generation to predict from. */
const MIN_SCAVENGES = 5;
/** Scavenges at full size the pause is read from (fewer: every scavenge of the span). */
const MIN_FULL_SIZE_PAUSES = 5;
/** V8's scavenge task trigger (--scavenge-task-trigger, --minor-gc-task-trigger: 80% on Node 20–26). */
export const TASK_TRIGGER = 0.8;

export interface IsolateGc {
  pid: number;
  isolate: string;
  /** Its GC events in trace order (V8 Lens's own left out). */
  events: readonly GcEvent[];
  /** Epoch ms of its GC clock's 0 (the agent's `processStartMs`); null when unknown. */
  startEpochMs: number | null;
  /** Its largest new space, bytes (the agent's reading); null when not measured. */
  newSpaceMaxBytes: number | null;
  /** Its wall time, ms (a run without load); null: its last GC's time. */
  wallMs: number | null;
  /**
   * GCs that are not the app's (V8 Lens's allocation sampler stopping makes V8 collect all garbage):
   * they count as nothing, but the heap's growth up to them is still what the app allocated.
   */
  notTheApps?: ReadonlySet<GcEvent>;
}

/** Under load: the measured window (epoch ms) and the requests answered in it; null: the isolate's whole life, per second. */
export type PredictionWindow = { startEpochMs: number; endEpochMs: number; requests: number } | null;

/** What a survivors pass saw of the same target's scavenges (its --trace-gc-nvp), per scavenge. */
export interface SurvivorsHint {
  keptBytesPerScavenge: number;
  promotedBytesPerScavenge: number;
}

/** The isolate's figures, or why it cannot be one of the inputs. */
export type IsolateReading = { ok: true; figures: PredictionIsolate; units: number; spanMs: number } | { ok: false; reason: string };

export function readIsolate(iso: IsolateGc, window: PredictionWindow, survivors: SurvivorsHint | null = null): IsolateReading {
  const name = `pid ${iso.pid}`;
  if (iso.events.some((e) => isYoungGenerationGc(e.type) && !e.type.startsWith('Scavenge'))) {
    return { ok: false, reason: `${name} collected its young generation with Minor Mark-Sweep (--minor-ms), which the model does not cover` };
  }
  const semiSpaceBytes = semiSpaceOf(iso);
  if (semiSpaceBytes === null) return { ok: false, reason: `${name}: its young generation's size was not measured` };
  const span = spanOf(iso, window);
  if (span === null) return { ok: false, reason: `${name}: its GC events cannot be placed in the measured window (its start time was not recorded)` };
  const units = window ? window.requests : span.ms / 1000;
  if (!(units > 0)) return { ok: false, reason: window ? 'no request was answered in the measured window' : `${name} ran for no measurable time` };
  const per = unitsPerFigure(window ? 'requests' : 'seconds') / units;

  let allocated = 0;
  let allocatedFromNvp = true;
  const usable: number[] = [];
  const fullSizePauses: number[] = [];
  const pauses: number[] = [];
  const kept: number[] = [];
  const promotedNvp: number[] = [];
  let oldGrowth = 0;
  let oldGrowthScavenges = 0;
  let markCompacts = 0;
  let markCompactMs = 0;
  let youngPauseMs = 0;
  iso.events.forEach((e, i) => {
    if (!span.contains(e)) return;
    const prev = i > 0 ? iso.events[i - 1]! : null;
    if (iso.notTheApps?.has(e)) {
      if (prev !== null) {
        allocated += allocatedSince(e, prev);
        allocatedFromNvp &&= nvpNumber(e, 'allocated') !== null;
      }
      return;
    }
    const young = isYoungGenerationGc(e.type);
    if (young) {
      pauses.push(e.pauseMs);
      youngPauseMs += e.pauseMs;
      const survived = nvpNumber(e, 'new_space_survived');
      const promoted = nvpNumber(e, 'promoted');
      if (promoted !== null) promotedNvp.push(promoted);
      if (survived !== null) kept.push(survived);
    } else if (isFullGc(e.type)) {
      markCompacts++;
      markCompactMs += e.pauseMs;
    }
    if (prev === null) return; // what it allocated since the isolate started is not a span of work
    const bytes = allocatedSince(e, prev);
    allocated += bytes;
    allocatedFromNvp &&= nvpNumber(e, 'allocated') !== null;
    if (young && bytes >= FULL_SIZE_SHARE * semiSpaceBytes) {
      usable.push(bytes);
      fullSizePauses.push(e.pauseMs);
    }
    // The old generation's growth across a scavenge: what it promoted (and any pretenured allocation).
    if (young && isYoungGenerationGc(prev.type)) {
      oldGrowth += (e.heapAfterMB - prev.heapAfterMB) * MB;
      oldGrowthScavenges++;
    }
  });
  if (pauses.length === 0) return { ok: false, reason: `${name} had no scavenge ${window ? 'in the measured window' : 'in the run'}` };
  if (pauses.length < MIN_SCAVENGES) return { ok: false, reason: `${name} had ${pauses.length} scavenge${pauses.length === 1 ? '' : 's'} ${window ? 'in the measured window' : 'in the run'}: too few to predict from (${MIN_SCAVENGES} or more)` };
  if (usable.length === 0) return { ok: false, reason: `${name}: none of its scavenges ran with the young generation at full size` };
  // The GCs' allocation starts before the span (at the GC before its first) and ends at its last GC:
  // in steady work the part before and the part after the span are alike, so the sum is the span's.
  const spanAllocated = allocated;

  const promoted = promotedOf(promotedNvp, oldGrowth, oldGrowthScavenges, survivors);
  const usableBytes = median(usable);
  const keptKnown = kept.length > 0 ? { bytes: median(kept), source: 'nvp' as const } : survivors ? { bytes: survivors.keptBytesPerScavenge, source: 'survivors' as const } : null;
  const { bytes: keptBytes, source: keptSource } = keptKnown ?? keptFromTrigger(usableBytes, semiSpaceBytes, promoted.bytes);
  // A scavenge's pause at the full size: part of it grows with the size (V8's work per page of the
  // semi-space: 0.24 ms at 16 MB, 0.79 at 64 in the short-lived fixture's nvp phases), so those the
  // new space ran while it grew cost less. With too few at full size, every scavenge of the span.
  const atSize = fullSizePauses.length >= MIN_FULL_SIZE_PAUSES ? fullSizePauses : pauses;
  const meanMs = mean(atSize);
  const halfWidth = atSize.length > 1 ? (1.96 * standardDeviation(atSize, meanMs)) / Math.sqrt(atSize.length) : meanMs;
  return {
    ok: true,
    units,
    spanMs: span.ms,
    figures: {
      pid: iso.pid,
      isolate: iso.isolate,
      semiSpaceBytes,
      usableBytes: Math.round(usableBytes),
      fullSizeScavenges: usable.length,
      allocatedBytesPerUnit: Math.round(spanAllocated * per),
      allocatedSource: allocatedFromNvp ? 'nvp' : 'trace-gc',
      scavenges: pauses.length,
      scavengesPerUnit: round(pauses.length * per, 4),
      youngPauseMsPerUnit: round(youngPauseMs * per, 3),
      meanScavengeMs: round(meanMs, 4),
      meanScavengeLowMs: round(Math.max(0, meanMs - halfWidth), 4),
      meanScavengeHighMs: round(meanMs + halfWidth, 4),
      keptBytesPerScavenge: Math.round(keptBytes),
      keptSource,
      promotedBytesPerScavenge: Math.round(promoted.bytes),
      promotedSource: promoted.source,
      markCompactsPerUnit: round(markCompacts * per, 4),
      markCompactMsPerUnit: round(markCompactMs * per, 3),
      youngGcWallShare: span.ms > 0 ? round(Math.min(1, youngPauseMs / span.ms), 6) : 0,
    },
  };
}

/** The basis of a prediction from these inputs. */
export function basisOf(window: PredictionWindow): PredictionBasis {
  return window ? 'requests' : 'seconds';
}

/** The semi-space the isolate had at full size: its largest new space / 2 (two semi-spaces), else V8's nvp `new_space_capacity`. */
function semiSpaceOf(iso: IsolateGc): number | null {
  // The new space V8 reports is a little under its capacity (31.46 MB at a 16 MB semi-space on Node
  // 20): the size is the flag's, in whole MB.
  if (iso.newSpaceMaxBytes !== null && iso.newSpaceMaxBytes > 0) return Math.max(1, Math.round(iso.newSpaceMaxBytes / 2 / MB)) * MB;
  let capacity = 0;
  for (const e of iso.events) capacity = Math.max(capacity, nvpNumber(e, 'new_space_capacity') ?? 0);
  return capacity > 0 ? capacity : null;
}

interface Span {
  ms: number;
  contains(e: GcEvent): boolean;
}

function spanOf(iso: IsolateGc, window: PredictionWindow): Span | null {
  if (window) {
    const start = iso.startEpochMs;
    if (start === null) return null;
    return { ms: Math.max(0, window.endEpochMs - window.startEpochMs), contains: (e) => start + e.timeMs >= window.startEpochMs && start + e.timeMs <= window.endEpochMs };
  }
  const last = iso.events.length > 0 ? iso.events[iso.events.length - 1]!.timeMs : 0;
  return { ms: iso.wallMs ?? last, contains: () => true };
}

/** Bytes the app allocated between `prev` ended and `e` began: V8's nvp `allocated=`, else the heap's growth (to 0.1 MB). */
function allocatedSince(e: GcEvent, prev: GcEvent): number {
  const nvp = nvpNumber(e, 'allocated');
  if (nvp !== null) return nvp;
  return Math.max(0, e.heapBeforeMB - prev.heapAfterMB) * MB;
}

/**
 * What a scavenge kept young, when V8 did not print it: V8 scavenges once the semi-space is 80% full
 * (its task trigger) or more, so what the app could not allocate below that was held by the last
 * scavenge's survivors; at least what is later promoted. A lower bound (the task may run later).
 */
function keptFromTrigger(usableBytes: number, semiSpaceBytes: number, promotedBytes: number): { bytes: number; source: PredictionSource } {
  const held = TASK_TRIGGER * semiSpaceBytes - usableBytes;
  return held > promotedBytes ? { bytes: held, source: 'trigger' } : { bytes: promotedBytes, source: 'none' };
}

/** Promoted bytes per scavenge: V8's nvp `promoted=`, the survivors pass's, or the old generation's growth across scavenges in the trace. */
function promotedOf(nvp: readonly number[], oldGrowth: number, scavenges: number, survivors: SurvivorsHint | null): { bytes: number; source: PredictionSource } {
  if (nvp.length > 0) return { bytes: mean(nvp), source: 'nvp' };
  if (survivors) return { bytes: survivors.promotedBytesPerScavenge, source: 'survivors' };
  if (scavenges > 0) return { bytes: Math.max(0, oldGrowth / scavenges), source: 'trace-gc' };
  return { bytes: 0, source: 'none' };
}

function nvpNumber(e: GcEvent, key: string): number | null {
  const v = e.nvp?.[key];
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}

function standardDeviation(values: readonly number[], m: number): number {
  let s = 0;
  for (const v of values) s += (v - m) ** 2;
  return Math.sqrt(s / (values.length - 1));
}
