/**
 * `v8-lens compare <baseline> <candidate> --fail-on …`: each side a run folder, a profile, or a
 * folder of run folders (several rounds); every rule checked, `cpu.self` per function for each of
 * the top 20 functions by self time in either side.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Summary } from '../../shared/model/summary';
import { loadReport } from '../report/loadReport';
import { readSessionRecord } from '../run/runRecords';
import { UserError } from '../util/errors';
import { EXIT } from '../util/exitCodes';
import { median } from '../util/stats';
import { GATE_METRICS, functionKey, requestsOf, scalarOf } from './gateMetrics';
import type { GateRule } from './gateRules';
import type { GateCheck, GateResult, GateSide } from './gateTypes';
import { judgeChange } from './judgeChange';

/** How many functions by self time, per side, cpu.self checks (those sampled at least once per run, by median). */
export const GATE_TOP_FUNCTIONS = 20;

/** Frames that are not code: their time is idle, or the GC (which the gc.* figures hold). */
const NOT_CODE = /^\((?!anonymous\))[^)]*\)$/;

interface Side extends GateSide {
  summaries: Summary[];
}

export async function runGate(baselinePath: string, candidatePath: string, rules: readonly GateRule[]): Promise<GateResult> {
  const [baseline, candidate] = await Promise.all([readSide(baselinePath), readSide(candidatePath)]);
  const all = [...baseline.summaries, ...candidate.summaries];
  const perRequest = all.every((s) => requestsOf(s) !== null);
  const checks: GateCheck[] = [];
  for (const rule of rules) {
    const info = GATE_METRICS[rule.metric];
    if (rule.metric === 'cpu.self') {
      checks.push(...functionChecks(rule, baseline.summaries, candidate.summaries, perRequest));
      continue;
    }
    const metric = rule.metric;
    const values = (side: Side) => side.summaries.map((s) => scalarOf(s, metric, perRequest));
    const a = values(baseline);
    const b = values(candidate);
    const j = judgeChange(rule, a, b);
    checks.push({ metric, rule: rule.text, unit: info.unit, baseline: { values: a, median: j.baselineMedian }, candidate: { values: b, median: j.candidateMedian }, change: j.change, verdict: j.verdict, why: j.why, p: j.p });
  }
  const broken = checks.filter((c) => c.verdict === 'broken').length;
  const n = baseline.runs.length;
  const m = candidate.runs.length;
  const noise =
    n >= 3 && m >= 3
      ? `${n} vs ${m} runs: medians; a change beyond its limit fails only when the runs tell it from noise (Mann-Whitney U p < 0.05, or ranges that do not overlap where ${n} vs ${m} runs cannot reach that p); self times also beyond V8's sampling noise`
      : `${n} vs ${m} run${m === 1 ? '' : 's'}: no run-to-run noise estimate, so each limit is held against the measured change (only V8's sampling noise is known); profile 3 or more rounds per side (a folder of run folders; 4 for the U test) to let the gate tell a change from noise`;
  return {
    verdict: broken > 0 ? 'fail' : 'pass',
    baseline: { path: baseline.path, runs: baseline.runs, label: baseline.label },
    candidate: { path: candidate.path, runs: candidate.runs, label: candidate.label },
    perRequest,
    noise,
    rules: rules.map((r) => r.text),
    checks,
    broken,
  };
}

function functionChecks(rule: GateRule, a: readonly Summary[], b: readonly Summary[], perRequest: boolean): GateCheck[] {
  const byKey = (summaries: readonly Summary[]) =>
    summaries.map((s) => {
      const out = new Map<string, { name: string; url: string; line: number; ms: number; samples: number }>();
      const requests = requestsOf(s);
      const interval = s.cpu?.sampleIntervalMs || 1;
      for (const f of s.cpu?.functions ?? []) {
        if (NOT_CODE.test(f.name)) continue;
        const key = functionKey(f);
        const prev = out.get(key);
        const ms = (prev?.ms ?? 0) + (perRequest && requests !== null ? (f.selfMs / requests) * 1000 : f.selfMs);
        out.set(key, { name: f.name || '(anonymous)', url: f.url, line: f.line, ms, samples: (prev?.samples ?? 0) + f.selfMs / interval });
      }
      return { collected: s.cpu !== null, functions: out };
    });
  const runsA = byKey(a);
  const runsB = byKey(b);
  const topOf = (runs: typeof runsA) => {
    const totals = new Map<string, number>();
    for (const r of runs) for (const [k, f] of r.functions) totals.set(k, (totals.get(k) ?? 0) + f.ms);
    return [...totals].sort((x, y) => y[1] - x[1]).slice(0, GATE_TOP_FUNCTIONS).map(([k]) => k);
  };
  // A function sampled less than once per run on both sides is below what a profile can measure.
  const measurable = (key: string) => [runsA, runsB].some((runs) => median(runs.map((r) => r.functions.get(key)?.samples ?? 0)) >= 1);
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
    const why = j.verdict === 'new' ? 'not sampled in the baseline (new, renamed, or no longer inlined): shown, not held to the limit' : j.why;
    return {
      metric: 'cpu.self',
      rule: rule.text,
      function: { name: ref.name, url: ref.url, line: ref.line },
      unit: perRequest ? 'ms per 1k requests' : 'ms',
      baseline: { values: va, median: j.baselineMedian },
      candidate: { values: vb, median: j.candidateMedian },
      change: j.change,
      verdict: j.verdict,
      why,
      p: j.p,
    } satisfies GateCheck;
  });
}

/** A run folder, a profile, or a folder whose subfolders are run folders (rounds), in name order. */
async function readSide(path: string): Promise<Side> {
  const info = await stat(path).catch(() => {
    throw new UserError(`no such file or folder: ${path}`, EXIT.usage);
  });
  let runs = [path];
  if (info.isDirectory() && !(await isRunFolder(path))) {
    const entries = (await readdir(path, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => join(path, e.name)).sort();
    runs = [];
    for (const e of entries) if (await isRunFolder(e)) runs.push(e);
    if (runs.length === 0) throw new UserError(`${path} is neither a run folder nor a folder of run folders (none of its subfolders has a session.json or summary.json)`, EXIT.usage);
  }
  const summaries = await Promise.all(runs.map((r) => loadReport(r)));
  const session = (await readSessionRecord(runs[0]!)).value;
  const label = session ? [session.target.kind === 'script' ? session.node.command : '', session.target.program, ...session.target.args].filter(Boolean).join(' ') : basename(runs[0]!);
  return { path, runs, label, summaries };
}

async function isRunFolder(path: string): Promise<boolean> {
  for (const f of ['session.json', 'summary.json']) if (await stat(join(path, f)).then((s) => s.isFile(), () => false)) return true;
  return false;
}
