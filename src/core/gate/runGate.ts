/**
 * `v8-lens compare <baseline> <candidate> --fail-on …`: each side a run folder, a profile, or a
 * folder of run folders (several rounds); every rule checked, `cpu.self` per function for each of
 * the top 20 functions by self time in either side.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import type { SessionRecord } from '../../shared/model/session';
import type { Summary } from '../../shared/model/summary';
import { isWaitingFrame } from '../../shared/frameCategory';
import { loadReport } from '../report/loadReport';
import { readSessionRecord } from '../run/runRecords';
import { UserError } from '../util/errors';
import { clipText } from '../util/terminalText';
import { EXIT } from '../util/exitCodes';
import { median } from '../util/stats';
import { GATE_METRICS, functionKey, requestsOf, scalarOf } from './gateMetrics';
import type { GateRule } from './gateRules';
import type { GateCheck, GateResult, GateSide, MissingPolicy } from './gateTypes';
import { judgeChange } from './judgeChange';

/** How many functions by self time, per side, cpu.self checks (those sampled at least once per run, by median). */
export const GATE_TOP_FUNCTIONS = 20;

/**
 * A function is held to a cpu.self rule only when it has, on at least one side, this many samples
 * (by median over the runs): a count of k samples varies by ±2/√k at 2σ from sampling alone, ±45%
 * at 20, so below that no usual limit can be told from noise; and a share of the on-CPU samples,
 * which keeps a long run's start-up functions (3 ms of Module._compile) out. Functions under both
 * floors are shown, not held, and the summary counts them.
 */
export const GATE_SAMPLE_FLOOR = { samples: 20, shareOfOnCpu: 0.01 } as const;

/** Session statuses whose figures are the program's; others (crashed, cancelled, still running…) are refused unless asked for. */
const COMPLETE = new Set<SessionRecord['status']>(['finished', 'stopped']);

/** Frames that are not code: their time is idle, or the GC (which the gc.* figures hold). */
const NOT_CODE = /^\((?!anonymous\))[^)]*\)$/;

export interface GateOptions {
  /** A rule that measured nothing on a side: fail the gate (exit 1), stop as unusable (exit 2), or leave it out, said in the summary. */
  missing: MissingPolicy;
  /** Hold runs that crashed, were cancelled or did not finish, instead of refusing them. */
  allowFailed: boolean;
  /** Compare inputs of different kinds (a run folder against a pprof), instead of refusing them. */
  allowMixed: boolean;
}

export const GATE_DEFAULTS: GateOptions = { missing: 'fail', allowFailed: false, allowMixed: false };

interface Run {
  path: string;
  summary: Summary;
  session: SessionRecord | null;
}

interface Side extends GateSide {
  summaries: Summary[];
  sessions: (SessionRecord | null)[];
}

export async function runGate(baselinePath: string, candidatePath: string, rules: readonly GateRule[], options: GateOptions = GATE_DEFAULTS): Promise<GateResult> {
  const [baseline, candidate] = await Promise.all([readSide(baselinePath), readSide(candidatePath)]);
  const accepted = [...checkComplete(baseline, 'baseline', options), ...checkComplete(candidate, 'candidate', options), ...checkSameKind(baseline, candidate, options)];
  const all = [...baseline.summaries, ...candidate.summaries];
  const perRequest = all.every((s) => requestsOf(s) !== null);
  const checks: GateCheck[] = [];
  const unmeasured: string[] = [];
  for (const rule of rules) {
    const info = GATE_METRICS[rule.metric];
    const blind = blindSide(rule, baseline, candidate);
    if (blind) {
      const why = `not measured in the ${blind.side}: ${blind.why}`;
      unmeasured.push(`${rule.metric}: ${why}`);
      const values = (side: Side) => ({ values: side.summaries.map(() => null), median: null });
      checks.push({ metric: rule.metric, rule: rule.text, unit: info.unit, baseline: values(baseline), candidate: values(candidate), change: null, verdict: 'not-measured', why, p: null });
      continue;
    }
    if (rule.metric === 'cpu.self') {
      checks.push(...functionChecks(rule, baseline.summaries, candidate.summaries, perRequest));
      continue;
    }
    const metric = rule.metric;
    const values = (side: Side) => side.summaries.map((s) => scalarOf(s, metric, perRequest));
    const a = values(baseline);
    const b = values(candidate);
    const j = judgeChange(rule, a, b);
    const partly = [partial(a, 'baseline'), partial(b, 'candidate')].filter(Boolean).join('; ');
    checks.push({
      metric,
      rule: rule.text,
      unit: info.unit,
      baseline: { values: a, median: j.baselineMedian },
      candidate: { values: b, median: j.candidateMedian },
      change: j.change,
      verdict: j.verdict,
      why: partly ? `${j.why} (${partly})` : j.why,
      p: j.p,
      ...(j.heldAsAbsolute ? { heldAsAbsolute: true } : {}),
    });
  }
  const broken = checks.filter((c) => c.verdict === 'broken').length;
  const n = baseline.runs.length;
  const m = candidate.runs.length;
  const noise =
    n >= 3 && m >= 3
      ? `${n} vs ${m} runs: medians; a change beyond its limit fails only when the runs tell it from noise (Mann-Whitney U p < 0.05, or ranges that do not overlap where ${n} vs ${m} runs cannot reach that p); self times also beyond V8's sampling noise`
      : `${n} vs ${m} run${m === 1 ? '' : 's'}: no run-to-run noise estimate, so each limit is held against the measured change (only V8's sampling noise is known); profile 3 or more rounds per side (a folder of run folders; 4 for the U test) to let the gate tell a change from noise`;
  const blindFails = unmeasured.length > 0 && options.missing === 'fail';
  return {
    verdict: unmeasured.length > 0 && options.missing === 'error' ? 'not-measured' : broken > 0 || blindFails ? 'fail' : 'pass',
    baseline: { path: baseline.path, runs: baseline.runs, label: baseline.label },
    candidate: { path: candidate.path, runs: candidate.runs, label: candidate.label },
    perRequest,
    noise,
    rules: rules.map((r) => r.text),
    checks,
    broken,
    missing: options.missing,
    unmeasured,
    tooFewSamples: checks.filter((c) => c.verdict === 'too-few-samples').length,
    accepted,
  };
}

/** "measured in 3 of 4 candidate runs", when some runs of a side lack the figure. */
function partial(values: readonly (number | null)[], side: string): string | null {
  const measured = values.filter((v) => v !== null).length;
  return measured < values.length ? `measured in ${measured} of ${values.length} ${side} runs` : null;
}

/** The side on which a rule measured nothing at all, and why; null when both measured it in some run. */
function blindSide(rule: GateRule, baseline: Side, candidate: Side): { side: 'baseline' | 'candidate' | 'baseline and the candidate'; why: string } | null {
  const metric = rule.metric;
  const perRequest = [...baseline.summaries, ...candidate.summaries].every((s) => requestsOf(s) !== null);
  const measured = (side: Side) =>
    side.summaries.some((s) => (metric === 'cpu.self' ? (s.cpu?.functions.length ?? 0) > 0 : scalarOf(s, metric, perRequest) !== null));
  const a = measured(baseline);
  const b = measured(candidate);
  if (a && b) return null;
  const side = !a && !b ? 'baseline and the candidate' : !a ? 'baseline' : 'candidate';
  const runs = (s: Side) => s.runs.length;
  const count = !a && !b ? runs(baseline) + runs(candidate) : !a ? runs(baseline) : runs(candidate);
  return { side, why: `${count === 1 ? 'its run has' : `none of its ${count} runs has`} ${GATE_METRICS[metric].needs}` };
}

/** Refuses a side with runs that crashed, were cancelled or never finished; with --allow-failed, says which were held anyway. */
function checkComplete(side: Side, name: 'baseline' | 'candidate', options: GateOptions): string[] {
  const failed = side.runs.flatMap((run, i) => {
    const status = side.sessions[i]?.status;
    return status !== undefined && !COMPLETE.has(status) ? [`${clipText(displayPath(side.path, run), 120)} ${statusText(status)}`] : [];
  });
  if (failed.length === 0) return [];
  const list = `${failed.slice(0, 3).join(', ')}${failed.length > 3 ? ` and ${failed.length - 3} more` : ''}`;
  if (!options.allowFailed) {
    throw new UserError(`the ${name} has ${failed.length === 1 ? 'a run that' : `${failed.length} runs that`} did not finish (${list}): its figures are not the program's; profile it again, or pass --allow-failed to hold ${failed.length === 1 ? 'it' : 'them'} anyway`);
  }
  return [`--allow-failed: the ${name}'s ${list} held anyway`];
}

function statusText(status: SessionRecord['status']): string {
  switch (status) {
    case 'running':
      return 'never finished (still running, or V8 Lens was killed)';
    case 'interrupted':
      return 'was interrupted (V8 Lens ended before it did)';
    case 'target-exited':
      return 'ended early (the attached process exited)';
    default:
      return status;
  }
}

const KIND_TEXT: Record<Summary['source']['kind'], string> = {
  run: 'a run folder',
  cpuprofile: 'a .cpuprofile',
  heapprofile: 'a .heapprofile',
  pprof: 'a pprof profile',
  'gc-trace': 'a GC trace',
  'v8-log': 'a V8 log',
};

/** Refuses two sides of different kinds of input (a run against a pprof), unless --allow-mixed. */
function checkSameKind(baseline: Side, candidate: Side, options: GateOptions): string[] {
  const kinds = (side: Side) => [...new Set(side.summaries.map((s) => s.source.kind))];
  const a = kinds(baseline);
  const b = kinds(candidate);
  if (a.length === 1 && b.length === 1 && a[0] === b[0]) return [];
  const text = (k: Summary['source']['kind'][]) => k.map((x) => KIND_TEXT[x]).join(' and ');
  const what = `the baseline is ${text(a)} and the candidate ${text(b)}`;
  if (!options.allowMixed) throw new UserError(`${what}: not the same kind of input, so their figures do not compare; gate like with like, or pass --allow-mixed`);
  return [`--allow-mixed: ${what}`];
}

function displayPath(sidePath: string, run: string): string {
  const rel = relative(sidePath, run);
  return rel === '' ? basename(run) : rel;
}

function functionChecks(rule: GateRule, a: readonly Summary[], b: readonly Summary[], perRequest: boolean): GateCheck[] {
  const byKey = (summaries: readonly Summary[]) =>
    summaries.map((s) => {
      const out = new Map<string, { name: string; url: string; line: number; ms: number; samples: number }>();
      const requests = requestsOf(s);
      const interval = s.cpu?.sampleIntervalMs || 1;
      for (const f of s.cpu?.functions ?? []) {
        // A thread blocked in Atomics.wait is off the CPU: never held to a CPU rule (summaries before
        // 0.2 still list such frames among their functions).
        if (NOT_CODE.test(f.name) || isWaitingFrame(f.name, f.url)) continue;
        const key = functionKey(f);
        const prev = out.get(key);
        const ms = (prev?.ms ?? 0) + (perRequest && requests !== null ? (f.selfMs / requests) * 1000 : f.selfMs);
        out.set(key, { name: f.name || '(anonymous)', url: f.url, line: f.line, ms, samples: (prev?.samples ?? 0) + f.selfMs / interval });
      }
      const onCpuSamples = s.cpu ? Math.max(0, s.cpu.durationMs - s.cpu.pseudo.idleMs - (s.cpu.waitingMs ?? 0)) / interval : 0;
      return { collected: s.cpu !== null, functions: out, onCpuSamples };
    });
  const runsA = byKey(a);
  const runsB = byKey(b);
  const topOf = (runs: typeof runsA) => {
    const totals = new Map<string, number>();
    for (const r of runs) for (const [k, f] of r.functions) totals.set(k, (totals.get(k) ?? 0) + f.ms);
    return [...totals].sort((x, y) => y[1] - x[1]).slice(0, GATE_TOP_FUNCTIONS).map(([k]) => k);
  };
  const medianSamples = (runs: typeof runsA, key: string) => median(runs.filter((r) => r.collected).map((r) => r.functions.get(key)?.samples ?? 0));
  // A function sampled less than once per run on both sides is below what a profile can measure.
  const measurable = (key: string) => [runsA, runsB].some((runs) => medianSamples(runs, key) >= 1);
  const floorOf = (runs: typeof runsA) => Math.max(GATE_SAMPLE_FLOOR.samples, GATE_SAMPLE_FLOOR.shareOfOnCpu * median(runs.filter((r) => r.collected).map((r) => r.onCpuSamples)));
  const floorA = floorOf(runsA);
  const floorB = floorOf(runsB);
  const keys = [...new Set([...topOf(runsA), ...topOf(runsB)])].filter(measurable);
  return keys.map((key) => {
    const ref = [...runsA, ...runsB].map((r) => r.functions.get(key)).find(Boolean)!;
    // A function not sampled in a run that profiled the CPU took no time there (0), not "unknown".
    const values = (runs: typeof runsA) => runs.map((r) => (r.collected ? (r.functions.get(key)?.ms ?? 0) : null));
    const samples = (runs: typeof runsA) => runs.reduce((sum, r) => sum + (r.functions.get(key)?.samples ?? 0), 0) / Math.max(1, runs.length);
    const kA = samples(runsA);
    const kB = samples(runsB);
    // A self time is a count of samples: one run's relative noise is about 1/√k; a median of n
    // runs' about √(π/2n) of that. So a function of few samples needs a large change to count.
    const term = (k: number, n: number) => (n <= 1 ? 1 / k : Math.PI / 2 / (k * n));
    const sampling = kA > 0 && kB > 0 ? { relativeSd: Math.sqrt(term(kA, runsA.length) + term(kB, runsB.length)) } : null;
    const va = values(runsA);
    const vb = values(runsB);
    const j = judgeChange(rule, va, vb, sampling);
    const mA = medianSamples(runsA, key);
    const mB = medianSamples(runsB, key);
    let { verdict, why } = j;
    if (mA < floorA && mB < floorB) {
      verdict = 'too-few-samples';
      why = `too few samples on both sides to tell a change (${Math.round(mA)} and ${Math.round(mB)}; held from ${Math.round(Math.min(floorA, floorB))}: ${GATE_SAMPLE_FLOOR.samples} samples or ${GATE_SAMPLE_FLOOR.shareOfOnCpu * 100}% of on-CPU time): shown, not held`;
    } else if (j.baselineMedian === 0 && (j.candidateMedian ?? 0) > 0) {
      verdict = 'new';
      why = 'not sampled in the baseline (new, renamed, or no longer inlined): shown, not held to the limit';
    }
    return {
      metric: 'cpu.self',
      rule: rule.text,
      function: { name: ref.name, url: ref.url, line: ref.line },
      unit: perRequest ? 'ms per 1k requests' : 'ms',
      baseline: { values: va, median: j.baselineMedian },
      candidate: { values: vb, median: j.candidateMedian },
      change: verdict === 'new' ? null : j.change,
      verdict,
      why,
      p: j.p,
      // A function of a few samples that the baseline never sampled: its change is shown in ms, from 0.
      ...(j.heldAsAbsolute && verdict !== 'new' ? { heldAsAbsolute: true } : {}),
    } satisfies GateCheck;
  });
}

/** A run folder, a profile, or a folder whose subfolders are run folders (rounds), in name order. */
async function readSide(path: string): Promise<Side> {
  const info = await stat(path).catch(() => {
    throw new UserError(`no such file or folder: ${clipText(path, 200)}`, EXIT.usage);
  });
  let runs = [path];
  if (info.isDirectory() && !(await isRunFolder(path))) {
    const entries = (await readdir(path, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => join(path, e.name)).sort();
    runs = [];
    for (const e of entries) if (await isRunFolder(e)) runs.push(e);
    if (runs.length === 0) throw new UserError(`${clipText(path, 200)} is neither a run folder nor a folder of run folders (none of its subfolders has a session.json or summary.json)`, EXIT.usage);
  }
  const read: Run[] = await Promise.all(
    runs.map(async (r) => ({
      path: r,
      summary: await loadReport(r),
      session: (await stat(r)).isDirectory() ? (await readSessionRecord(r)).value : null,
    })),
  );
  const session = read[0]!.session;
  const label = session ? [session.target.kind === 'script' ? session.node.command : '', session.target.program, ...session.target.args].filter(Boolean).join(' ') : basename(runs[0]!);
  return { path, runs, label, summaries: read.map((r) => r.summary), sessions: read.map((r) => r.session) };
}

async function isRunFolder(path: string): Promise<boolean> {
  for (const f of ['session.json', 'summary.json']) if (await stat(join(path, f)).then((s) => s.isFile(), () => false)) return true;
  return false;
}
