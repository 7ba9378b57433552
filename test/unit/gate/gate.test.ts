/**
 * The regression gate's parts: the --fail-on rules, one change judged against its limit and its
 * noise, and the Markdown it prints for a CI job's summary.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatGateMarkdown } from '../../../src/core/gate/gateMarkdown';
import { scalarOf } from '../../../src/core/gate/gateMetrics';
import { parseFailOn, type GateRule } from '../../../src/core/gate/gateRules';
import type { GateResult } from '../../../src/core/gate/gateTypes';
import { judgeChange } from '../../../src/core/gate/judgeChange';
import { UserError } from '../../../src/core/util/errors';
import { EXIT } from '../../../src/core/util/exitCodes';
import { emptySummary } from '../../../src/shared/model/summary';

const rule = (text: string): GateRule => parseFailOn(text)[0]!;

describe('--fail-on rules', () => {
  it('reads figures, the bad direction and relative or absolute limits', () => {
    assert.deepEqual(parseFailOn('cpu.self:+10%, gc.msPer1k:+15% ,load.rps:-5%,load.p99Ms:+3'), [
      { metric: 'cpu.self', direction: 'up', limit: 0.1, relative: true, text: 'cpu.self:+10%' },
      { metric: 'gc.msPer1k', direction: 'up', limit: 0.15, relative: true, text: 'gc.msPer1k:+15%' },
      { metric: 'load.rps', direction: 'down', limit: 0.05, relative: true, text: 'load.rps:-5%' },
      { metric: 'load.p99Ms', direction: 'up', limit: 3, relative: false, text: 'load.p99Ms:+3' },
    ]);
  });

  it('refuses an unknown figure, a missing sign, a repeat or nothing, as usage (exit 2), naming the figures', () => {
    for (const [spec, reason] of [
      ['cpu.slef:+10%', /unknown figure 'cpu\.slef'; the figures are cpu\.self, cpu\.busy/],
      ['cpu.self:10%', /is not METRIC:\+N%/],
      ['cpu.self:+10%,cpu.self:+5%', /given twice/],
      [' , ', /at least one rule/],
      [`cpu.self:+${'9'.repeat(400)}%`, /has no usable limit/],
    ] as const) {
      assert.throws(() => parseFailOn(spec), (err: unknown) => err instanceof UserError && err.exitCode === EXIT.usage && reason.test(err.message), spec);
    }
  });
});

describe('repeated --fail-on options', () => {
  it('add up; a figure in two of them is an error naming both', () => {
    assert.deepEqual(parseFailOn(['cpu.self:+10%', 'gc.pauseMs:+20%,load.rps:-5%']).map((r) => r.text), ['cpu.self:+10%', 'gc.pauseMs:+20%', 'load.rps:-5%']);
    assert.throws(
      () => parseFailOn(['cpu.self:+10%', 'gc.pauseMs:+20%,cpu.self:+5%']),
      (err: unknown) => err instanceof UserError && err.exitCode === EXIT.usage && /cpu\.self is given twice \(cpu\.self:\+10% and cpu\.self:\+5%\)/.test(err.message),
    );
  });

  it('a rule of 100 KB is not echoed whole', () => {
    const huge = `${'x'.repeat(100_000)}:+10%`;
    assert.throws(
      () => parseFailOn(huge),
      (err: unknown) => err instanceof UserError && err.message.length < 400 && /more characters/.test(err.message),
    );
  });
});

describe('one change against its limit and its noise', () => {
  it('several runs per side: beyond the limit and told apart from noise (4 vs 4, p = 2/70) is broken', () => {
    const j = judgeChange(rule('cpu.busy:+10%'), [100, 102, 98, 101], [150, 149, 152, 155]);
    assert.equal(j.verdict, 'broken');
    assert.ok(j.p !== null && Math.abs(j.p - 2 / 70) < 1e-9, String(j.p));
    assert.ok(Math.abs(j.change! - (151 / 100.5 - 1)) < 1e-9, String(j.change));
  });

  it('beyond the limit but overlapping runs: noise, which passes', () => {
    const j = judgeChange(rule('cpu.busy:+10%'), [100, 130, 90, 101], [125, 99, 140, 118]);
    assert.equal(j.verdict, 'noise');
    assert.match(j.why, /inside the run-to-run noise \(p = /);
  });

  it('3 vs 3 cannot reach p < 0.05: ranges that do not overlap decide, as in the lab', () => {
    assert.equal(judgeChange(rule('gc.msPer1k:+15%'), [10, 11, 12], [14, 15, 16]).verdict, 'broken');
    const overlapping = judgeChange(rule('gc.msPer1k:+15%'), [10, 11, 15], [14, 15, 16]);
    assert.equal(overlapping.verdict, 'noise');
    assert.match(overlapping.why, /ranges overlap/);
  });

  it('one run per side: the limit is held against the measured change, and the reason says so', () => {
    const j = judgeChange(rule('alloc.bytesPerRequest:+10%'), [1000], [1200]);
    assert.equal(j.verdict, 'broken');
    assert.match(j.why, /one run per side: no run-to-run noise estimate/);
    assert.equal(judgeChange(rule('alloc.bytesPerRequest:+10%'), [1000], [1090]).verdict, 'pass');
    // 2 vs 2 separate by chance one time in three: no better than one run.
    const two = judgeChange(rule('alloc.bytesPerRequest:+10%'), [1000, 1010], [1200, 1190]);
    assert.equal(two.verdict, 'broken');
    assert.match(two.why, /2 vs 2 runs \(fewer than 3 a side\): no run-to-run noise estimate/);
  });

  it('a self time of few samples: a large change inside V8\'s sampling noise does not fail', () => {
    const j = judgeChange(rule('cpu.self:+10%'), [2], [4], { relativeSd: Math.sqrt(1 / 2 + 1 / 4) });
    assert.equal(j.verdict, 'noise');
    assert.match(j.why, /sampling noise/);
    assert.equal(judgeChange(rule('cpu.self:+10%'), [400], [800], { relativeSd: Math.sqrt(1 / 400 + 1 / 800) }).verdict, 'broken');
  });

  it('a fall is the regression for -N%: req/s', () => {
    assert.equal(judgeChange(rule('load.rps:-5%'), [1000, 1010, 990, 1005], [900, 910, 905, 899]).verdict, 'broken');
    assert.equal(judgeChange(rule('load.rps:-5%'), [1000, 1010, 990, 1005], [1100, 1110, 1105, 1099]).verdict, 'pass');
  });

  it('absolute limits are in the figure\'s unit', () => {
    assert.equal(judgeChange(rule('load.p99Ms:+3'), [10], [12]).verdict, 'pass');
    assert.equal(judgeChange(rule('load.p99Ms:+3'), [10], [14]).verdict, 'broken');
  });

  it('not measured on a side is said, never compared as 0', () => {
    const missing = judgeChange(rule('alloc.bytesPerRequest:+10%'), [null], [1200]);
    assert.equal(missing.verdict, 'not-measured');
    assert.equal(missing.change, null);
    assert.match(missing.why, /not measured in the baseline/);
  });

  it('a relative rule on a baseline of 0 is held as absolute growth, and says so', () => {
    const j = judgeChange(rule('gc.pauseMs:+10%'), [0], [19]);
    assert.equal(j.verdict, 'broken');
    assert.equal(j.heldAsAbsolute, true);
    assert.equal(j.change, 19, 'in ms, not a fraction');
    assert.match(j.why, /^the baseline is 0, so the relative limit is held as absolute growth; beyond the limit; one run per side/);
    // With runs a side, the noise test still decides.
    assert.equal(judgeChange(rule('gc.pauseMs:+10%'), [0, 0, 0, 0], [0, 3, 0, 4]).verdict, 'noise');
    assert.equal(judgeChange(rule('gc.pauseMs:+10%'), [0, 0, 0, 0], [18, 19, 21, 20]).verdict, 'broken');
    assert.equal(judgeChange(rule('gc.pauseMs:+10%'), [0], [0]).verdict, 'pass');
    // A fall from 0 cannot be: a -N% rule on a zero baseline passes.
    assert.equal(judgeChange(rule('load.rps:-5%'), [0], [10]).verdict, 'pass');
  });

  it('a change too large for a double is held as the largest one, never Infinity', () => {
    const j = judgeChange(rule('gc.pauseMs:+10%'), [1e-300], [1e300]);
    assert.equal(j.verdict, 'broken');
    assert.ok(Number.isFinite(j.change), String(j.change));
  });
});

describe('figures read from a summary', () => {
  it('per 1k requests under load; null (not collected) without load', () => {
    const load = { url: 'http://127.0.0.1:1/', connections: 10, rate: null, warmupSeconds: 1, durationSeconds: 2, figures: { requests: 2000, durationSeconds: 2, rps: 1000, p50Ms: 1, p99Ms: 4, meanLatencyMs: 1.2, errors: 0, timeouts: 0, non2xx: 0 }, failedRequests: 0, error: null, gcInWindow: { events: 30, scavenges: 28, markCompacts: 2, pauseMs: 50, wallShare: 0.025 } };
    const underLoad = emptySummary({ kind: 'run', path: '/r' }, { load: load as never });
    assert.equal(scalarOf(underLoad, 'gc.msPer1k', true), 25);
    assert.equal(scalarOf(underLoad, 'gc.scavengesPer1k', true), 14);
    assert.equal(scalarOf(underLoad, 'load.rps', true), 1000);
    const plain = emptySummary({ kind: 'run', path: '/r' });
    assert.equal(scalarOf(plain, 'gc.msPer1k', false), null);
    assert.equal(scalarOf(plain, 'alloc.bytesPerRequest', false), null);
  });

  it('cpu.busy leaves out the idle event loop and threads blocked in Atomics.wait', () => {
    const cpu = { profile: 'p', durationMs: 10_000, sampleCount: 10_000, sampleIntervalMs: 1, functions: [], lines: [], pseudo: { gcMs: 50, idleMs: 3000, programMs: 100 }, waitingMs: 6000, profiles: [] };
    assert.equal(scalarOf(emptySummary({ kind: 'run', path: '/r' }, { cpu }), 'cpu.busy', false), 1000);
  });
});

describe('the Markdown', () => {
  it('names the verdict, puts broken rows first, and keeps a function name as text in its cell', () => {
    const result: GateResult = {
      verdict: 'fail',
      baseline: { path: 'base', runs: ['base/r1', 'base/r2'], label: 'node app.js' },
      candidate: { path: 'change', runs: ['change/r1', 'change/r2'], label: 'node app.js' },
      perRequest: true,
      noise: '2 vs 2 runs: …',
      rules: ['cpu.self:+10%'],
      broken: 1,
      missing: 'fail',
      unmeasured: [],
      tooFewSamples: 0,
      accepted: [],
      checks: [
        { metric: 'cpu.self', rule: 'cpu.self:+10%', function: { name: 'ok', url: '/app/a.js', line: 3 }, unit: 'ms per 1k requests', baseline: { values: [1, 1], median: 1 }, candidate: { values: [1, 1], median: 1 }, change: 0, verdict: 'pass', why: 'within the limit', p: 1 },
        { metric: 'cpu.self', rule: 'cpu.self:+10%', function: { name: 'a|b`<img>`', url: '/app/lib/x.js', line: 12 }, unit: 'ms per 1k requests', baseline: { values: [10, 11], median: 10.5 }, candidate: { values: [21, 22], median: 21.5 }, change: 21.5 / 10.5 - 1, verdict: 'broken', why: 'beyond the limit: the ranges do not overlap', p: 0.33 },
      ],
    };
    const md = formatGateMarkdown(result);
    assert.match(md, /^### V8 Lens regression gate: ❌ \*\*FAIL\*\*: 1 of 2 checks broken/);
    const rows = md.split('\n').filter((l) => l.startsWith('| `cpu.self`'));
    assert.equal(rows.length, 2);
    assert.match(rows[0]!, /a\\\|b\\`\\<img\\>\\` x\.js:12 \| 10\.5 ms per 1k requests \(median of 2\) \| 21\.5 ms per 1k requests \(median of 2\) \| \+104\.8% \| \+10% \| ❌ \*\*broken\*\*/);
    assert.equal(rows[0]!.split(/(?<!\\)\|/).length, 9, 'the name\'s pipe does not add a column');
  });

  it('every number is finite and bounded in width: 1e308 is 1.00e+308, a change past a million percent is said so', () => {
    const check = (baseline: number, candidate: number, change: number) => ({ metric: 'gc.pauseMs' as const, rule: 'gc.pauseMs:+10%', unit: 'ms', baseline: { values: [baseline], median: baseline }, candidate: { values: [candidate], median: candidate }, change, verdict: 'broken' as const, why: 'beyond', p: null });
    const md = formatGateMarkdown({ ...blank(), checks: [check(1, 1e308, Number.MAX_VALUE), check(0.5, 2e9, 4e9 - 1)] });
    assert.ok(!/Infinity|NaN/.test(md), md);
    const rows = md.split('\n').filter((l) => l.startsWith('| `gc.pauseMs`'));
    assert.match(rows[0]!, /\| 1 ms \| 1\.00e\+308 ms \| \+> 1,000,000% \|/);
    assert.match(rows[1]!, /\| 0\.5 ms \| 2\.00e\+9 ms \| \+> 1,000,000% \|/);
    for (const cell of rows.flatMap((r) => r.split(' | ').slice(1, 4))) assert.ok(cell.length <= 24, `bounded: ${cell}`);
  });

  it('a zero baseline shows its growth in the unit, "from 0"', () => {
    const md = formatGateMarkdown({ ...blank(), checks: [{ metric: 'gc.pauseMs', rule: 'gc.pauseMs:+10%', unit: 'ms', baseline: { values: [0], median: 0 }, candidate: { values: [19], median: 19 }, change: 19, heldAsAbsolute: true, verdict: 'broken', why: 'the baseline is 0, so the relative limit is held as absolute growth', p: null }] });
    assert.match(md, /\| 0 ms \| 19 ms \| \+19 ms \(from 0\) \| \+10% \| ❌ \*\*broken\*\* \|/);
  });

  it('a name with a right-to-left override, or of 100 KB, reaches the Markdown escaped and cut', () => {
    const fn = (name: string) => ({ metric: 'cpu.self' as const, rule: 'cpu.self:+10%', function: { name, url: '/a.js', line: 1 }, unit: 'ms', baseline: { values: [1], median: 1 }, candidate: { values: [1], median: 1 }, change: 0, verdict: 'pass' as const, why: 'within the limit', p: null });
    const md = formatGateMarkdown({ ...blank(), checks: [fn('isAdmin\u202e nimda'), fn('y'.repeat(100_000))] });
    assert.ok(!md.includes('\u202e'), 'no raw override');
    assert.ok(md.includes('isAdmin\\\\u202e nimda'), 'shown as the text \\u202e (its backslash escaped for Markdown)');
    assert.ok(md.length < 5000, `${md.length} characters`);
  });

  it('says what was not measured and what the gate does with it, and how many functions were too small to hold', () => {
    const md = formatGateMarkdown({ ...blank(), verdict: 'fail', broken: 0, unmeasured: ['cpu.self: not measured in the candidate: its run has a CPU profile (a preset with cpu)'], tooFewSamples: 7 });
    assert.match(md, /^### V8 Lens regression gate: ❌ \*\*FAIL\*\*: 1 rule measured nothing on a side/);
    assert.match(md, /Not measured: cpu\.self: not measured in the candidate: its run has a CPU profile \(a preset with cpu\)\. So a gate that measured nothing cannot pass/);
    assert.match(md, /7 functions have too few samples on both sides to tell a change \(fewer than 20, or than 1% of the on-CPU samples where that is more\): shown, not held\./);
    const ignored = formatGateMarkdown({ ...blank(), missing: 'ignore', unmeasured: ['gc.msPer1k: not measured in the baseline'] });
    assert.match(ignored, /PASS/);
    assert.match(ignored, /not held \(--missing ignore\)/);
  });
});

function blank(): GateResult {
  return {
    verdict: 'pass',
    baseline: { path: 'base', runs: ['base'], label: 'node app.js' },
    candidate: { path: 'change', runs: ['change'], label: 'node app.js' },
    perRequest: false,
    noise: '1 vs 1 run',
    rules: ['gc.pauseMs:+10%'],
    broken: 0,
    missing: 'fail',
    unmeasured: [],
    tooFewSamples: 0,
    accepted: [],
    checks: [],
  };
}
