/**
 * Lines a CPU profile up with its isolate's GC trace, so both share the report's time axis.
 *
 * The two clocks differ: a `.cpuprofile` counts µs on the machine's monotonic clock, `--trace-gc`
 * ms since the isolate was created. The preload agent records where the monotonic clock stood at
 * the process's time origin and when, after it, Node created V8 and its environment (the isolate is
 * made between the two: measured on Node 20, 22 and 24). That window places the first sample within
 * a few ms; the profile's own "(garbage collector)" samples then fix it: the offset at which they
 * fall inside the most GC pauses of the trace is the one taken, when they agree clearly enough.
 */
import type { TimeProfile } from '../../shared/model/timeProfile';
import { TIME_PROFILE_CATEGORIES } from '../../shared/model/timeProfile';

export interface ClockWindow {
  /** Earliest and latest place of the first sample on the isolate's clock, ms. */
  fromMs: number;
  toMs: number;
}

export interface GcInterval {
  /** The trace's time of the event (ms since the isolate started, printed as a whole ms). */
  timeMs: number;
  pauseMs: number;
}

/** The trace prints whole ms: a pause is taken to be anywhere within this much of its printed place. */
const TRACE_SLACK_MS = 1;
const STEP_MS = 0.25;
/** Below this many GC pauses or GC samples, the window's middle is taken. */
const MIN_MATCHES = 3;

/**
 * The window for the first sample: the agent's clock record, the profile's own start (µs on the
 * monotonic clock) and the time from the profile's start to its first sample.
 */
export function clockWindow(record: { monotonicOriginUs?: number; isolateCreatedMs?: [number, number] | null }, firstSampleMonotonicUs: number): ClockWindow | null {
  const origin = record.monotonicOriginUs;
  const created = record.isolateCreatedMs;
  if (typeof origin !== 'number' || !Number.isFinite(origin) || !Array.isArray(created) || created.length !== 2 || !created.every(Number.isFinite)) return null;
  const sinceOrigin = (firstSampleMonotonicUs - origin) / 1000;
  return { fromMs: sinceOrigin - created[1] - TRACE_SLACK_MS, toMs: sinceOrigin - created[0] + TRACE_SLACK_MS };
}

export function lineUpWithGc(profile: TimeProfile, events: readonly GcInterval[], window: ClockWindow | null): Pick<TimeProfile, 'clockMs' | 'clockNote'> {
  if (!window) return { clockMs: null, clockNote: 'not lined up with the GC trace: the run has no clock record (recorded since V8 Lens 0.14)' };
  const gcSpans = gcSpansMs(profile);
  const middle = (window.fromMs + window.toMs) / 2;
  const approx = `placed from the process's start-up clock (±${Math.ceil((window.toMs - window.fromMs) / 2)} ms)`;
  if (events.length < MIN_MATCHES || gcSpans.length < MIN_MATCHES) return { clockMs: middle, clockNote: approx };
  let best = -1;
  let bestFrom = middle;
  let bestTo = middle;
  for (let c = window.fromMs; c <= window.toMs; c += STEP_MS) {
    const score = overlapMs(gcSpans, events, c);
    if (score > best + 1e-9) {
      best = score;
      bestFrom = bestTo = c;
    } else if (Math.abs(score - best) <= 1e-9) bestTo = c;
  }
  const gcTime = gcSpans.reduce((sum, [s, e]) => sum + e - s, 0);
  if (best < gcTime * 0.3) return { clockMs: middle, clockNote: approx };
  const matched = countMatched(gcSpans, events, (bestFrom + bestTo) / 2);
  return { clockMs: (bestFrom + bestTo) / 2, clockNote: `lined up on ${matched} GC pauses of the trace (±${Math.max(1, Math.ceil((bestTo - bestFrom) / 2 + TRACE_SLACK_MS))} ms)` };
}

/** The profile's "(garbage collector)" stretches, [start, end] ms after its first sample. */
function gcSpansMs(profile: TimeProfile): [number, number][] {
  const gc = TIME_PROFILE_CATEGORIES.indexOf('gc');
  const out: [number, number][] = [];
  let t = 0;
  const n = profile.spanNode.length;
  for (let s = 0; s < n; s++) {
    t += profile.spanDeltaUs[s]!;
    const end = s + 1 < n ? t + profile.spanDeltaUs[s + 1]! : profile.durationUs;
    if (profile.fnCategory[profile.nodeFn[profile.spanNode[s]!]!] === gc && end > t) out.push([t / 1000, end / 1000]);
  }
  return out;
}

/** GC sample time that falls inside a traced pause when the first sample is at `c` on the isolate clock. */
function overlapMs(spans: readonly [number, number][], events: readonly GcInterval[], c: number): number {
  let sum = 0;
  let j = 0;
  for (const [s0, e0] of spans) {
    const s = s0 + c;
    const e = e0 + c;
    while (j < events.length && events[j]!.timeMs + TRACE_SLACK_MS < s) j++;
    for (let k = j; k < events.length; k++) {
      const from = events[k]!.timeMs - events[k]!.pauseMs - TRACE_SLACK_MS;
      if (from > e) break;
      sum += Math.max(0, Math.min(e, events[k]!.timeMs + TRACE_SLACK_MS) - Math.max(s, from));
    }
  }
  return sum;
}

function countMatched(spans: readonly [number, number][], events: readonly GcInterval[], c: number): number {
  let matched = 0;
  for (const ev of events) {
    const from = ev.timeMs - ev.pauseMs - TRACE_SLACK_MS - c;
    const to = ev.timeMs + TRACE_SLACK_MS - c;
    // Spans are in order and do not overlap: the first that ends after `from` is the only candidate to check.
    let lo = 0;
    let hi = spans.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (spans[mid]![1] > from) hi = mid;
      else lo = mid + 1;
    }
    if (lo < spans.length && spans[lo]![0] < to) matched++;
  }
  return matched;
}
