/** One line for each part of the report that has no data: what is missing and why. */
import type { ReportModel } from '../../src/shared/reportProtocol';
import { selfCheckGaps } from '../../src/shared/selfCheckText';

/** The self-check's sentence when V8 wrote records of this kind that could not be read: never "none". */
function unread(model: ReportModel, kind: 'gcLines' | 'deopts'): string | null {
  return selfCheckGaps(model.summary.selfCheck).find((g) => g.kind === kind)?.text ?? null;
}

function matching(model: ReportModel, pattern: RegExp): string | null {
  // The launch's limitations are among the summary's warnings (analyzeRun copies them).
  const hits = model.summary.warnings.filter((w) => pattern.test(w));
  return hits.length > 0 ? hits.join(' ') : null;
}

function capture(model: ReportModel): { cpu: boolean; gc: boolean; deopts: boolean; preset: string | null } | null {
  const s = model.session;
  return s ? { ...s.flags.capture, preset: s.flags.preset } : null;
}

export function missingFlame(model: ReportModel): string {
  const kind = model.summary.source.kind;
  if (kind === 'gc-trace') return 'a GC trace has no CPU samples. Profile with a CPU preset (cpu-gc-deopts, cpu-gc or cpu) to get one.';
  if (kind === 'v8-log') return 'a V8 log has no CPU samples. Profile with a CPU preset (cpu-gc-deopts, cpu-gc or cpu) to get one.';
  if (kind === 'heapprofile') return 'a heap profile has allocations, not CPU samples: see the Allocations tab.';
  if (kind === 'pprof' && model.summary.cpu === null) return 'this pprof is a heap profile, not a CPU profile: see the Allocations tab.';
  const why = matching(model, /flame graph|cpu|profile/i);
  if (why) return why;
  const c = capture(model);
  if (c && !c.cpu) return `this run did not collect a CPU profile (preset ${c.preset ?? 'custom'}).`;
  return 'the profile has no samples.';
}

export function missingGc(model: ReportModel): string {
  const kind = model.summary.source.kind;
  if (kind === 'cpuprofile') return 'a .cpuprofile has no GC trace. Profile with the cpu-gc-deopts or cpu-gc preset (--trace-gc) to see every collection.';
  if (kind === 'v8-log') return 'a V8 log has no GC trace. Profile with a GC preset (--trace-gc) to see every collection.';
  if (kind === 'pprof' || kind === 'heapprofile') return `not collected: a ${kind === 'pprof' ? 'pprof' : 'heap'} profile has no GC trace. Profile the program with V8 Lens (the cpu-gc-deopts or cpu-gc-alloc preset) to see every collection.`;
  const gap = unread(model, 'gcLines');
  if (gap) return `${gap}.`;
  const why = matching(model, /\bGC\b|garbage/i);
  if (why) return why;
  const c = capture(model);
  if (c && !c.gc) return `this run did not trace GC (preset ${c.preset ?? 'custom'}).`;
  return 'the program finished before V8 collected any garbage.';
}

/** Null when deopts were collected and there simply were none. */
export function missingDeopts(model: ReportModel): string | null {
  const kind = model.summary.source.kind;
  if (kind === 'cpuprofile') return 'deopts come from a V8 log (--log-deopt); a .cpuprofile does not record them.';
  if (kind === 'gc-trace') return 'deopts come from a V8 log (--log-deopt); a GC trace does not record them.';
  if (kind === 'pprof' || kind === 'heapprofile') return `deopts come from a V8 log (--log-deopt); a ${kind === 'pprof' ? 'pprof' : 'heap'} profile does not record them.`;
  const gap = unread(model, 'deopts');
  if (gap) return `${gap}.`;
  const why = matching(model, /deopt|V8 log/i);
  if (why) return why;
  const c = capture(model);
  if (c && !c.deopts) return `this run did not collect deopts (preset ${c.preset ?? 'custom'}).`;
  if (model.summary.deoptCoverage === 'not-collected') return 'deopts: not collected.';
  return null;
}
