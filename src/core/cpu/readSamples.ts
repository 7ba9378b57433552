import { CpuProfileError } from './cpuProfileError';
import type { NumberList } from './cpuProfileFormat';
import type { NodeIdIndex } from './nodeIdIndex';

/** Before validation: a JSON array, or a typed array from the trailing-array fast path. */
type RawList = unknown[] | Int32Array | Float64Array;

export interface SampleTimeline {
  /** Node index (pre-order) per sample. */
  samples: NumberList;
  /** µs since the previous sample ([0]: since `startTimeUs`), unclamped. */
  timeDeltasUs: NumberList;
  startTimeUs: number;
  endTimeUs: number;
}

/**
 * `samples` + `timeDeltas` (modern) or `samples` + absolute `timestamps` (legacy) → node indices and
 * deltas. Lengths that disagree are tolerated (a warning, the shorter length wins), except that one
 * extra trailing timestamp is how the legacy format records when the last sample ended.
 *
 * The arrays (from `JSON.parse`, or typed arrays from the trailing-array fast path) are validated and
 * rewritten *in place* (ids → indices, timestamps → deltas) rather than copied: they hold millions of
 * entries, and fresh copies cost more in allocation and garbage collection than all the arithmetic
 * of the model. The parsed value is ours alone.
 */
export function readSamples(
  value: Record<string, unknown>,
  ids: NodeIdIndex,
  sourceName: string,
  warnings: string[],
): SampleTimeline {
  const rawSamples = value['samples'];
  if (!isRawList(rawSamples)) {
    throw new CpuProfileError(sourceName, 'it has no samples list, so there is no time to attribute.');
  }
  const rawDeltas = value['timeDeltas'];
  const rawTimestamps = value['timestamps'];
  if (isRawList(rawDeltas)) return saneTimeline(fromDeltas(value, rawSamples, rawDeltas, ids, sourceName, warnings), warnings);
  if (isRawList(rawTimestamps)) return saneTimeline(fromTimestamps(value, rawSamples, rawTimestamps, ids, sourceName, warnings), warnings);
  if (rawSamples.length === 0) return saneTimeline(fromDeltas(value, rawSamples, [], ids, sourceName, warnings), warnings);
  throw new CpuProfileError(sourceName, 'it has samples but neither timeDeltas nor timestamps, so they cannot be timed.');
}

function fromDeltas(
  value: Record<string, unknown>,
  allSamples: RawList,
  allDeltas: RawList,
  ids: NodeIdIndex,
  sourceName: string,
  warnings: string[],
): SampleTimeline {
  const count = Math.min(allSamples.length, allDeltas.length);
  if (allSamples.length !== allDeltas.length) {
    warnings.push(
      `samples (${allSamples.length}) and timeDeltas (${allDeltas.length}) differ in length; only the first ${count} samples are used.`,
    );
  }
  const samples = truncate(allSamples, count);
  const deltas = truncate(allDeltas, count);
  mapSamplesInPlace(samples, ids, sourceName);
  // Typed arrays come from the integer scanner: nothing to check.
  if (Array.isArray(deltas)) {
    for (let i = 0; i < count; i++) {
      const d: unknown = deltas[i];
      if (typeof d !== 'number' || !Number.isFinite(d)) {
        throw new CpuProfileError(sourceName, `timeDeltas[${i}] is not a number (${short(d)}).`);
      }
    }
  }
  const times = deltas as NumberList;
  const rawStart = value['startTime'];
  const rawEnd = value['endTime'];
  let startTimeUs = 0;
  if (isFiniteNumber(rawStart)) startTimeUs = rawStart;
  else warnings.push('startTime is missing; times are counted from 0 at the first delta.');
  let endTimeUs: number;
  if (isFiniteNumber(rawEnd)) endTimeUs = rawEnd;
  else {
    warnings.push('endTime is missing; the profile is taken to end at the last sample.');
    let sum = 0;
    for (let i = 0; i < count; i++) sum += times[i]!;
    endTimeUs = startTimeUs + Math.max(0, sum);
  }
  return { samples: samples as NumberList, timeDeltasUs: times, startTimeUs, endTimeUs };
}

function fromTimestamps(
  value: Record<string, unknown>,
  allSamples: RawList,
  timestamps: RawList,
  ids: NodeIdIndex,
  sourceName: string,
  warnings: string[],
): SampleTimeline {
  const trailingEnd = timestamps.length === allSamples.length + 1;
  const count = Math.min(allSamples.length, timestamps.length);
  if (allSamples.length !== timestamps.length && !trailingEnd) {
    warnings.push(
      `samples (${allSamples.length}) and timestamps (${timestamps.length}) differ in length; only the first ${count} samples are used.`,
    );
  }
  const samples = truncate(allSamples, count);
  mapSamplesInPlace(samples, ids, sourceName);
  const used = count + (trailingEnd ? 1 : 0);
  for (let i = 0; i < used; i++) {
    const t = timestamps[i];
    if (typeof t !== 'number' || !Number.isFinite(t)) {
      throw new CpuProfileError(sourceName, `timestamps[${i}] is not a number (${short(t)}).`);
    }
  }
  const end = trailingEnd ? (timestamps[count] as number) : undefined;
  // Deltas overwrite the timestamps (validated numbers by now).
  const times = truncate(timestamps, count) as number[] | Float64Array;
  if (count === 0) return { samples: [], timeDeltasUs: [], startTimeUs: end ?? 0, endTimeUs: end ?? 0 };

  // startTime/endTime are in whole *seconds* in this format (163140 for 163140.599286 s), too coarse
  // to use: the profile is taken to start at the first sample and end at the trailing timestamp.
  const startTimeUs = times[0]!;
  const lastSampleUs = times[count - 1]!;
  const rawEnd = value['endTime'];
  const endTimeUs =
    end ?? (typeof rawEnd === 'number' && rawEnd >= lastSampleUs ? rawEnd /* already µs */ : lastSampleUs);
  for (let i = count - 1; i > 0; i--) times[i] = times[i]! - times[i - 1]!;
  times[0] = 0;
  return { samples: samples as NumberList, timeDeltasUs: times, startTimeUs, endTimeUs };
}

/** Longer than any CPU profile anyone records (30 days, in µs): a span or a gap beyond it is a broken or crafted file. */
const MAX_SPAN_US = 30 * 24 * 3600 * 1e6;
/** A clock reading further than this from 0 (about 300 years in µs) is not a clock reading. */
const MAX_CLOCK_US = 1e16;
/** A sample this far before the one it follows went back in time (V8's own reorderings are far smaller). */
const BACKWARDS_US = 1e6;

/**
 * Numbers no profiler writes (a gap of 1e300 µs, an end at 1e308, a start of −1e308) would turn
 * every figure into ∞ or NaN. Each kind is put right the way a missing value is, with one warning,
 * and the rest of the profile is kept. Small negative gaps are left to the clamping of sample times.
 */
function saneTimeline(timeline: SampleTimeline, warnings: string[]): SampleTimeline {
  const deltas = timeline.timeDeltasUs;
  const writable = deltas as unknown as { [index: number]: number }; // ours alone, rewritten in place as above
  let impossible = 0;
  let backwards = 0;
  let sum = 0;
  for (let i = 0; i < deltas.length; i++) {
    const d = deltas[i]!;
    if (!(Math.abs(d) <= MAX_SPAN_US)) {
      writable[i] = 0;
      impossible++;
    } else {
      if (d < -BACKWARDS_US) backwards++;
      sum += d;
    }
  }
  if (impossible > 0) warnings.push(`${impossible} sample time gap${impossible === 1 ? ' is' : 's are'} impossible (beyond ±30 days); counted as 0.`);
  if (backwards > 0) warnings.push(`${backwards} sample${backwards === 1 ? '' : 's'} went back in time by more than 1 s; sample times are kept from going backwards.`);
  let { startTimeUs, endTimeUs } = timeline;
  if (!(Math.abs(startTimeUs) <= MAX_CLOCK_US)) {
    warnings.push(`startTime (${startTimeUs}) is not a clock reading; times are counted from 0 at the first delta.`);
    startTimeUs = 0;
    endTimeUs = Number.NaN; // measured from the old start: recomputed below
  }
  if (!(endTimeUs >= startTimeUs && endTimeUs - startTimeUs <= MAX_SPAN_US)) {
    if (Number.isFinite(endTimeUs)) warnings.push(`endTime (${endTimeUs}) is not within 30 days after startTime; the profile is taken to end at the last sample.`);
    endTimeUs = startTimeUs + Math.max(0, sum);
  }
  return { ...timeline, startTimeUs, endTimeUs };
}

/** Node ids → node indices. The hot loop of the whole parse for long profiles. */
function mapSamplesInPlace(samples: RawList, ids: NodeIdIndex, sourceName: string): void {
  const count = samples.length;
  const table = ids.table;
  if (table) {
    const size = table.length;
    for (let i = 0; i < count; i++) {
      const id = samples[i] as number;
      // `| 0` turns the undefined of a fractional id into "unknown".
      const slot = typeof id === 'number' && id >= 0 && id < size ? table[id]! | 0 : 0;
      if (slot === 0) throw missingNode(sourceName, i, id);
      samples[i] = slot - 1;
    }
    return;
  }
  for (let i = 0; i < count; i++) {
    const id = samples[i];
    const index = typeof id === 'number' ? ids.get(id) : -1;
    if (index < 0) throw missingNode(sourceName, i, id);
    samples[i] = index;
  }
}

function missingNode(sourceName: string, i: number, id: unknown): CpuProfileError {
  if (typeof id !== 'number') return new CpuProfileError(sourceName, `samples[${i}] is not a node id (${short(id)}).`);
  return new CpuProfileError(sourceName, `sample ${i} refers to node id ${id}, which is not in the profile's node list.`);
}

function isRawList(value: unknown): value is RawList {
  return Array.isArray(value) || value instanceof Int32Array || value instanceof Float64Array;
}

/** The first `count` entries, without copying. */
function truncate<T extends RawList>(list: T, count: number): T {
  if (list.length === count) return list;
  if (Array.isArray(list)) {
    list.length = count;
    return list;
  }
  return list.subarray(0, count) as T;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
