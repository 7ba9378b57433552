import type { CpuFunctionSummary, CpuLineSummary, CpuSummary } from '../../shared/model/summary';
import { round } from '../util/stats';
import { buildCpuModel, type CpuFunctionTime, type CpuModel, type CpuModelOptions } from './cpuModel';
import type { CpuProfile } from './cpuProfileFormat';
import type { CpuLineTime } from './lineSelfTimes';
import { compareText } from '../util/compareText';
import { V8_LENS_FRAME } from './v8LensFrames';
import { waitingTime } from './waitingTime';

export interface CpuSummaryOptions {
  /** File name written to `CpuSummary.profile`. */
  profileFile: string;
  /** Keep only the N functions with the most self time. Default: all (the editor annotates every one). */
  topFunctions?: number;
  /** Keep only the N lines with the most self time. Default: all. */
  topLines?: number;
}

/** The pseudo-frames V8 adds for time spent outside JavaScript; they have no url. */
const PSEUDO = { gc: '(garbage collector)', idle: '(idle)', program: '(program)', root: '(root)' } as const;

export function summarizeCpu(profile: CpuProfile, options: CpuSummaryOptions & CpuModelOptions): Omit<CpuSummary, 'profiles'> {
  return summarizeCpuModel(buildCpuModel(profile, options), options);
}

/** For callers that keep the model (flame graph, lenses) and want the summary of the same numbers. */
export function summarizeCpuModel(model: CpuModel, options: CpuSummaryOptions): Omit<CpuSummary, 'profiles'> {
  const isRoot = (f: CpuFunctionTime): boolean => f.url === '' && f.name === PSEUDO.root;
  // V8 Lens's own agent is one folded frame (cpu/v8LensFrames.ts): stated in `leftOut`, in no figure.
  const isV8Lens = (f: CpuFunctionTime): boolean => f.url === '' && f.name === V8_LENS_FRAME;
  // A thread blocked in Atomics.wait is sampled as the function that called it: waiting, not work.
  const waiting = waitingTime(model);
  const isWaiting = new Set([...waiting.functions].map((i) => model.functions[i]!));
  const functions = model.functions
    .filter((f) => f.totalUs > 0 && !isRoot(f) && !isV8Lens(f) && !isWaiting.has(f))
    .sort(byFunctionTime)
    .slice(0, options.topFunctions ?? Infinity)
    .map(toFunctionSummary);
  const lines = model.lines
    .map((l) => (waiting.lineUs.size === 0 ? l : { ...l, selfUs: l.selfUs - (waiting.lineUs.get(`${l.url}\u0000${l.line}`) ?? 0) }))
    // Split by ticks, a line can get a fraction of a microsecond: not worth a row once rounded.
    .filter((l) => ms(l.selfUs) > 0)
    .sort(byLineTime)
    .slice(0, options.topLines ?? Infinity)
    .map(toLineSummary);

  const pseudoUs = (name: string): number =>
    model.functions.reduce((sum, f) => (f.url === '' && f.name === name ? sum + f.selfUs : sum), 0);
  const durationUs = model.coveredUs - model.v8LensUs;
  return {
    profile: options.profileFile,
    // Σ of every node's self time but V8 Lens's: the sum of the functions' self times (the waiting ones' included), to rounding.
    durationMs: ms(durationUs),
    sampleCount: model.profile.samples.length - model.v8LensSamples,
    sampleIntervalMs: ms(model.sampleIntervalUs),
    functions,
    lines,
    pseudo: { gcMs: ms(pseudoUs(PSEUDO.gc)), idleMs: ms(pseudoUs(PSEUDO.idle)), programMs: ms(pseudoUs(PSEUDO.program)) },
    waitingMs: ms(waiting.us),
    ...(isWaiting.size > 0 ? { waiting: [...isWaiting].filter((f) => f.selfUs > 0).sort(byFunctionTime).map(toFunctionSummary) } : {}),
    onCpuMs: ms(Math.max(0, durationUs - pseudoUs(PSEUDO.idle) - waiting.us)),
    leftOut: { v8LensMs: ms(model.v8LensUs), v8LensSamples: model.v8LensSamples, beforeFirstSampleMs: ms(model.beforeFirstSampleUs) },
  };
}

/** Most self time first; ties broken by total, then by position, so the output is stable. */
function byFunctionTime(a: CpuFunctionTime, b: CpuFunctionTime): number {
  return (
    b.selfUs - a.selfUs ||
    b.totalUs - a.totalUs ||
    compareText(a.url, b.url) ||
    a.line - b.line ||
    a.column - b.column ||
    compareText(a.name, b.name)
  );
}

function byLineTime(a: CpuLineTime, b: CpuLineTime): number {
  return b.selfUs - a.selfUs || compareText(a.url, b.url) || a.line - b.line;
}


function toFunctionSummary(f: CpuFunctionTime): CpuFunctionSummary {
  return { name: f.name, url: f.url, line: f.line, column: f.column, selfMs: ms(f.selfUs), totalMs: ms(f.totalUs) };
}

function toLineSummary(l: CpuLineTime): CpuLineSummary {
  return { url: l.url, line: l.line, selfMs: ms(l.selfUs) };
}

/** µs → ms, rounded only here, at output (3 decimals = 1 µs). */
function ms(us: number): number {
  return round(us / 1000, 3);
}
