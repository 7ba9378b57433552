/**
 * Deopts read from the verbose code trace (what a run with a CPU profile gives, since the profiler
 * silences code-deopt and JS code-creation in the V8 log). Recorded from deopts.js on Node 20 and 24.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  CodeTraceDeoptReader,
  analyzeCodeTrace,
  functionsFromProfile,
  readCodeTrace,
  readCodeTraceDeopts,
  tracedToV8Deopts,
} from '../../../src/core/v8log/codeTraceDeopts';
import { summarizeDeoptAnalysis, summarizeDeopts } from '../../../src/core/v8log/deoptSummary';
import { emptyCounters } from '../../../src/core/v8log/mergeAnalyses';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'v8log');

for (const version of ['20', '24']) {
  describe(`code trace from Node ${version}`, () => {
    it('gives kind, reason, position, inlining chain and the innermost function of each bailout', async () => {
      const traced = await readCodeTraceDeopts(join(FIXTURES, `code-trace-node${version}.txt`));
      const smi = traced.find((t) => t.reason === 'not a Smi')!;
      assert.deepEqual([smi.kind, smi.optimizedName, smi.innermostName, smi.tier], ['deopt-eager', 'add', 'add', 'turbofan']);
      assert.deepEqual([smi.position?.url, smi.position?.line, smi.position?.column, smi.inlinedAt.length], ['/ABS/deopts.js', 4, 12, 0]);
      const inlined = traced.find((t) => t.reason === 'wrong map' && t.inlinedAt.length === 1)!;
      assert.equal(inlined.optimizedName, 'sumPoints');
      assert.equal(inlined.innermostName, 'getX');
      assert.deepEqual([inlined.position?.line, inlined.position?.column, inlined.inlinedAt[0]?.line, inlined.inlinedAt[0]?.column], [8, 12, 15, 45]);
    });

    it('names functions from a profile that missed the inlined one, without guessing the wrong neighbour', async () => {
      const traced = await readCodeTraceDeopts(join(FIXTURES, `code-trace-node${version}.txt`));
      // As in a real profile: getX was never sampled, add (declared earlier in the file) was.
      const profiled = functionsFromProfile([
        { name: 'add', url: 'file:///ABS/deopts.js', line: 3, column: 13 },
        { name: 'sumPoints', url: 'file:///ABS/deopts.js', line: 13, column: 19 },
      ]);
      const entries = summarizeDeopts({ v8Version: null, isolates: [], functions: [], deopts: tracedToV8Deopts(traced, profiled, 'code-trace.txt'), counters: { lines: 0, truncatedLines: 0, malformedLines: 0, ignoredEvents: {}, unresolvedDeopts: 0, deoptEvents: 0 } });
      const inlined = entries.find((e) => e.reason === 'wrong map' && e.inlinedAt.length === 1)!;
      assert.equal(inlined.function, 'getX');
      assert.equal(inlined.optimizedFunction, 'sumPoints');
      assert.equal(inlined.firstMs, null, 'the trace has no times');
      assert.equal(entries.find((e) => e.reason === 'not a Smi')!.function, 'add');
    });
  });
}

// ---------------------------------------------------------------------------------- --trace-opt
// Recorded from programs/shapes.js (a copy of examples/deopts/shapes.js) with the flags of a run with
// a CPU profile, `--trace-opt` included; `.functions.json` is that run's profile (see
// tools/recordCodeTrace.ts). shapes.js: area starts at 4:14, add at 8:13, totalArea at 12:19, the
// arrow `ops[1]` at 30:19; top-level code deopts at 30 and 32.

const SHAPES = '/ABS/shapes.js';
const AREA_START = { url: SHAPES, line: 4, column: 14 };

async function traceSummary(name: string, extraFunctions: Array<{ name: string; url: string; line: number; column: number }> = []) {
  const trace = await readCodeTrace(join(FIXTURES, `${name}.txt`));
  const profiled = JSON.parse(readFileSync(join(FIXTURES, `${name}.functions.json`), 'utf8')) as Array<{ name: string; url: string; line: number; column: number }>;
  const traced = analyzeCodeTrace(trace, functionsFromProfile([...profiled, ...extraFunctions]), '/run/v8/code-traces.asm');
  const summary = summarizeDeoptAnalysis({ v8Version: null, isolates: [], functions: traced.functions, deopts: traced.deopts, counters: emptyCounters() });
  const fn = (name: string) => summary.deoptFunctions.find((f) => f.function === name);
  return { trace, traced, summary, fn };
}

const completedLines = (name: string) =>
  readFileSync(join(FIXTURES, `${name}.txt`), 'utf8')
    .split('\n')
    .filter((l) => /^\[(completed compiling|optimizing) .* - took /.test(l)).length;

describe('optimizations in the code trace (--trace-opt)', () => {
  it('reads each finished optimization once, in order with the bailouts, with its tier and OSR', async () => {
    for (const name of ['code-trace-opt-node18', 'code-trace-opt-node20', 'code-trace-opt-node20-concurrent', 'code-trace-opt-node22', 'code-trace-opt-node24', 'code-trace-opt-node24-concurrent', 'code-trace-opt-node26']) {
      const { deopts, optimizations } = await readCodeTrace(join(FIXTURES, `${name}.txt`));
      // `[completed optimizing …]` (a concurrent job installed) follows its compile line: not counted again.
      assert.equal(optimizations.length, completedLines(name), name);
      const seqs = [...deopts.map((d) => d.seq), ...optimizations.map((o) => o.seq)].sort((a, b) => a - b);
      assert.deepEqual(seqs, seqs.map((_, i) => i), `${name}: one sequence for bailouts and optimizations`);
      assert.ok(deopts.every((d) => /^0x[0-9a-f]+$/.test(d.sfi)), name);
    }
    const node24 = await readCodeTrace(join(FIXTURES, 'code-trace-opt-node24.txt'));
    const area = node24.optimizations.filter((o) => o.name === 'area');
    assert.deepEqual(area.map((o) => o.tier), ['maglev', 'turbofan', 'maglev']);
    const areaDeopt = node24.deopts.find((d) => d.optimizedName === 'area')!;
    assert.equal(areaDeopt.sfi, area[0]!.sfi);
    assert.deepEqual(area.map((o) => o.seq < areaDeopt.seq), [true, true, false]);
    assert.ok(node24.optimizations.some((o) => o.name === '' && o.osr && o.tier === 'maglev'), 'top-level code is OSR-compiled');
    const node18 = await readCodeTrace(join(FIXTURES, 'code-trace-opt-node18.txt'));
    assert.deepEqual(node18.optimizations.filter((o) => o.name === 'totalArea').map((o) => o.tier), ['turbofan', 'turbofan', 'turbofan']);
  });

  it("counts every bailout and finished optimization by its opening, beside those read (the run's self-check)", async () => {
    for (const name of ['code-trace-opt-node18', 'code-trace-opt-node20', 'code-trace-opt-node22', 'code-trace-opt-node24', 'code-trace-opt-node26', 'code-trace-node20', 'code-trace-node24']) {
      const text = readFileSync(join(FIXTURES, `${name}.txt`), 'utf8');
      const { raw, deopts } = await readCodeTrace(join(FIXTURES, `${name}.txt`));
      // grep -c '^\[bailout (' and grep -cE '^\[(completed compiling|optimizing|completed optimizing) '
      assert.equal(raw.bailouts, text.split('[bailout (').length - 1, name);
      assert.equal(raw.optimizationLines, text.split('\n').filter((l) => /^\[(completed compiling|optimizing|completed optimizing) /.test(l)).length, name);
      assert.deepEqual([raw.bailoutsRead, raw.optimizationLinesRead], [raw.bailouts, raw.optimizationLines], `${name}: everything read`);
      assert.equal(deopts.length, raw.bailouts, name);
    }
  });

  it('a bailout or optimization line in a shape it cannot read shows as seen but not read', () => {
    const reader = new CodeTraceDeoptReader();
    const fn = '0x3a2cdac1e289 <JSFunction totalArea (sfi = 0x37494dee3331)>';
    reader.addLine(`[bailout (kind: deopt-eager, reason: wrong map): begin. deoptimizing ${fn}, 0x2 <Code TURBOFAN>, opt id 0`);
    reader.addLine('[bailout end. took 0.01 ms]');
    reader.addLine('[bailout (kind: deopt-eager, reason: wrong map): start deoptimizing totalArea@0x37494dee3331 in TURBOFAN]');
    reader.addLine('[bailout end. took 0.01 ms]');
    reader.addLine(`[completed compiling ${fn} (target TURBOFAN) - took 0.1, 0.2, 0.3 ms]`);
    reader.addLine('[completed compiling totalArea@0x37494dee3331 for TURBOFAN in 0.3 ms]');
    assert.deepEqual(reader.raw, { bailouts: 2, bailoutsRead: 1, optimizationLines: 2, optimizationLinesRead: 1 });
    assert.equal(reader.finish().length, 1);
  });

  it('counts no marking, queued, aborted or cached compile; un-glues records V8 wrote after a marking-dependent-code head', () => {
    const reader = new CodeTraceDeoptReader();
    const fn = '0x3a2cdac1e289 <JSFunction totalArea (sfi = 0x37494dee3331)>';
    for (const line of [
      `[marking ${fn} for optimization to TURBOFAN, ConcurrencyMode::kConcurrent, reason: small function]`,
      `[compiling method ${fn} (target TURBOFAN), mode: ConcurrencyMode::kConcurrent]`,
      `[aborted optimizing ${fn} (target TURBOFAN) because: Bailed out due to dependency change - took 0.005, 22.077, 0.030 ms]`,
      `[found optimized code for ${fn} (target TURBOFAN) at OSR bytecode offset 38]`,
      `[optimizing ${fn} (target TURBOFAN) because --always-opt]`,
      `[evicting optimized code marked for deoptimization (unlinking code marked for deopt) for 0x09759f6369b9 <SharedFunctionInfo totalArea>]`,
    ]) {
      reader.addLine(line);
    }
    assert.equal(reader.optimizations.length, 0);
    // V8 writes the head of `[marking dependent code …` to the file and its tail to stdout.
    reader.addLine(`[marking dependent code 0x1a14215b3501 <Code TURBOFAN> (0x058d7e2a14b9 <SharedFunctionInfo [Symbol.iterator]>[completed compiling ${fn} (target TURBOFAN) - took 0.004, 2.586, 0.003 ms]`);
    reader.addLine(`[completed optimizing ${fn} (target TURBOFAN)]`);
    // Heads can pile up, and a computed key's name has a `<…>` of its own (seen on Node 24 under load).
    reader.addLine(`[marking dependent code 0x000005366841 (0x091ecb2b57f9 <SharedFunctionInfo>[marking dependent code 0x3 <Code MAGLEV> (0x4 <SharedFunctionInfo IncomingMessage.<computed>>[marking dependent code 0x1 <Code MAGLEV> (0x2 <SharedFunctionInfo diag>[bailout (kind: deopt-lazy, reason: (unknown)): begin. deoptimizing ${fn}, 0x37494dee4ef1 <Code TURBOFAN>, opt id 0, bytecode offset 0, deopt exit 3]`);
    reader.addLine('            ;;; deoptimize at </app/a.js:14:50>');
    reader.addLine('[bailout end. took 0.01 ms]');
    reader.addLine(`[completed optimizing ${fn} (target TURBOFAN) OSR]`);
    assert.deepEqual(
      reader.optimizations.map((o) => [o.name, o.sfi, o.tier, o.osr, o.seq]),
      [
        ['totalArea', '0x37494dee3331', 'turbofan', false, 0],
        // An install line without its compile line still is an optimization.
        ['totalArea', '0x37494dee3331', 'turbofan', true, 2],
      ],
    );
    assert.deepEqual(reader.finish().map((d) => [d.kind, d.reason, d.optimizedName, d.sfi, d.seq, d.position?.line]), [['deopt-lazy', '(unknown)', 'totalArea', '0x37494dee3331', 1, 14]]);
  });
});

describe('deopts and optimizations per function, from the code trace', () => {
  for (const name of ['code-trace-opt-node18', 'code-trace-opt-node20-concurrent', 'code-trace-opt-node22', 'code-trace-opt-node24', 'code-trace-opt-node24-concurrent', 'code-trace-opt-node26']) {
    it(`${name}: area's deopts are placed at "function area(" (4:14), and its CodeLens data is there`, async () => {
      const { summary, fn } = await traceSummary(name);
      const areaSites = summary.deopts.filter((d) => d.function === 'area');
      assert.ok(areaSites.length > 0);
      for (const d of areaSites) {
        assert.deepEqual([d.reason, d.line, d.column, d.functionStart], ['wrong map', 5, 16, AREA_START]);
        assert.equal(d.firstMs, null, 'the trace has no times');
      }
      const area = fn('area')!;
      assert.deepEqual([area.url, area.line, area.column], [SHAPES, 4, 14]);
      assert.deepEqual(area.reasons, [{ kind: 'deopt-eager', reason: 'wrong map', count: 1 }]);
      assert.equal(area.inlinedDeoptCount, 1, 'inlined into totalArea, it deopted there too');
      assert.deepEqual(
        summary.deoptFunctions.map((f) => f.function).sort(),
        ['(anonymous)', 'add', 'area', 'totalArea'],
        'top-level deopts go to top-level code, not to the function before them',
      );
    });
  }

  it('reoptimized: true when optimized code was made after the last deopt, false when it stayed deoptimized', async () => {
    const rows = async (name: string) => {
      const { fn } = await traceSummary(name);
      return Object.fromEntries(['area', 'add', 'totalArea', '(anonymous)'].map((f) => [f, fn(f) && [fn(f)!.reoptimized, fn(f)!.reoptimizations]]));
    };
    assert.deepEqual(await rows('code-trace-opt-node18'), { area: [false, 0], add: [false, 0], totalArea: [true, 2], '(anonymous)': [false, 1] });
    assert.deepEqual(await rows('code-trace-opt-node22'), { area: [true, 1], add: [false, 0], totalArea: [true, 1], '(anonymous)': [null, 0] });
    assert.deepEqual(await rows('code-trace-opt-node24'), { area: [true, 1], add: [false, 0], totalArea: [true, 2], '(anonymous)': [false, 1] });
    assert.deepEqual(await rows('code-trace-opt-node26'), { area: [true, 1], add: [false, 0], totalArea: [true, 2], '(anonymous)': [false, 1] });
    // Maglev code of add deopted, then TurboFan made code for it.
    assert.deepEqual(await rows('code-trace-opt-node24-concurrent'), { area: [true, 2], add: [true, 1], totalArea: [true, 3], '(anonymous)': [null, 0] });
    const { fn } = await traceSummary('code-trace-opt-node24');
    assert.deepEqual(fn('area')!.tiers, ['Maglev', 'TurboFan']);
  });

  it('optimizedFunctions: optimized, never deopted, placed through the profile; deopted functions are left out', async () => {
    const concurrent = await traceSummary('code-trace-opt-node20-concurrent');
    assert.deepEqual(concurrent.summary.optimizedFunctions, [{ function: 'ops', url: SHAPES, line: 30, column: 19, tiers: ['TurboFan'], optimizations: 1 }]);
    const node24 = await traceSummary('code-trace-opt-node24-concurrent');
    assert.deepEqual(node24.summary.optimizedFunctions, [{ function: 'ops', url: SHAPES, line: 30, column: 19, tiers: ['Maglev', 'TurboFan'], optimizations: 2 }]);
    for (const name of ['code-trace-opt-node18', 'code-trace-opt-node20', 'code-trace-opt-node22', 'code-trace-opt-node24']) {
      // ops was optimized in all of them, but their profiles never sampled it: not guessed.
      const { trace, summary } = await traceSummary(name);
      assert.ok(trace.optimizations.some((o) => o.name === 'ops'), name);
      assert.deepEqual(summary.optimizedFunctions, [], name);
    }
  });

  it('leaves a name the profile has twice unplaced, and top-level code when two anonymous functions precede the deopt', async () => {
    const elsewhere = { name: 'ops', url: 'file:///ABS/other.js', line: 3, column: 1 };
    assert.deepEqual((await traceSummary('code-trace-opt-node20-concurrent', [elsewhere])).summary.optimizedFunctions, []);
    // The Node 22 profile has top-level code (1:1) and the arrow at 18:44: which one deopted at 30:14 is unknown.
    const { summary, fn } = await traceSummary('code-trace-opt-node22');
    const topLevel = summary.deopts.filter((d) => d.line === 30 || d.line === 32);
    assert.deepEqual(topLevel.map((d) => [d.function, d.optimizedFunction, d.functionStart]), [
      ['(anonymous)', '(anonymous)', null],
      ['(anonymous)', '(anonymous)', null],
    ]);
    assert.deepEqual([fn('(anonymous)')!.line, fn('(anonymous)')!.reoptimized], [0, null]);
  });

  it('without area in the profile (Node 20, never sampled: always inlined), its deopt keeps no position', async () => {
    const { summary, fn } = await traceSummary('code-trace-opt-node20');
    const site = summary.deopts.find((d) => d.function === 'area')!;
    assert.deepEqual([site.optimizedFunction, site.functionStart, site.inlinedAt.map((p) => p.line)], ['totalArea', null, [14]]);
    assert.deepEqual([fn('area')!.line, fn('area')!.deoptCount, fn('area')!.inlinedDeoptCount, fn('area')!.reoptimized], [0, 0, 1, null]);
    assert.deepEqual([fn('totalArea')!.reoptimized, fn('add')!.reoptimized], [true, false]);
  });

  it('places a bailout without a position by its function\'s other bailouts; never by a same-named function elsewhere', () => {
    const fn = (sfi: string, name: string) => `0x1 <JSFunction ${name} (sfi = ${sfi})>`;
    const trace = (name: string, at: string) => {
      const reader = new CodeTraceDeoptReader();
      for (const line of [
        `[completed compiling ${fn('0xaa', name)} (target TURBOFAN) - took 0.1, 0.2, 0.3 ms]`,
        `[bailout (kind: deopt-eager, reason: wrong map): begin. deoptimizing ${fn('0xaa', name)}, 0x2 <Code TURBOFAN>, opt id 0, bytecode offset 0]`,
        `            ;;; deoptimize at <${at}>`,
        `  reading input frame ${name} => bytecode_offset=0, args=2, height=1, retval=0(#0); inputs:`,
        '[bailout end. took 0.01 ms]',
        `[bailout (kind: deopt-lazy, reason: (unknown)): begin. deoptimizing ${fn('0xaa', name)}, 0x3 <Code TURBOFAN>, opt id 1, bytecode offset 0]`,
        '            ;;; deoptimize at <unknown>',
        '[bailout end. took 0.01 ms]',
        `[completed compiling ${fn('0xaa', name)} (target TURBOFAN) - took 0.1, 0.2, 0.3 ms]`,
        `[completed compiling ${fn('0xbb', 'calm')} (target MAGLEV) - took 0.1, 0.2, 0.3 ms]`,
      ]) {
        reader.addLine(line);
      }
      return { deopts: reader.finish(), optimizations: reader.optimizations, raw: reader.raw };
    };
    const profiled = functionsFromProfile([
      { name: 'foo', url: 'file:///app/a.js', line: 4, column: 13 },
      { name: 'calm', url: 'file:///app/c.js', line: 1, column: 1 },
    ]);
    const parts = (t: ReturnType<typeof trace>) => {
      const traced = analyzeCodeTrace(t, profiled, 'code-traces.asm');
      return summarizeDeoptAnalysis({ v8Version: null, isolates: [], functions: traced.functions, deopts: traced.deopts, counters: emptyCounters() });
    };
    const placed = parts(trace('foo', '/app/a.js:5:3'));
    assert.deepEqual(placed.deopts.map((d) => [d.reason, d.function, d.optimizedFunction, d.functionStart?.line]), [
      ['(unknown)', 'foo', 'foo', 4],
      ['wrong map', 'foo', 'foo', 4],
    ]);
    assert.deepEqual(placed.deoptFunctions.map((f) => [f.function, f.line, f.deoptCount, f.reoptimized, f.reoptimizations]), [['foo', 4, 2, true, 1]]);
    assert.deepEqual(placed.optimizedFunctions.map((f) => [f.function, f.url, f.line, f.tiers]), [['calm', '/app/c.js', 1, ['Maglev']]]);
    // The profile's foo is in a.js; this foo deopted in b.js: it keeps no position, and a.js's foo gets nothing.
    const elsewhere = parts(trace('foo', '/app/b.js:5:3'));
    assert.deepEqual(elsewhere.deoptFunctions.map((f) => [f.function, f.url, f.line, f.deoptCount, f.reoptimized]), [['foo', '/app/b.js', 0, 2, true]]);
    assert.deepEqual(elsewhere.deopts.map((d) => d.functionStart), [null, null]);
    assert.deepEqual(elsewhere.optimizedFunctions.map((f) => f.function), ['calm']);
  });

  it('a trace without --trace-opt lines (older runs) gives reoptimized null, not false', async () => {
    const trace = await readCodeTrace(join(FIXTURES, 'code-trace-node20.txt'));
    assert.equal(trace.optimizations.length, 0);
    const profiled = functionsFromProfile([{ name: 'add', url: 'file:///ABS/deopts.js', line: 3, column: 13 }]);
    const traced = analyzeCodeTrace(trace, profiled, 'code-traces.asm');
    const rows = summarizeDeoptAnalysis({ v8Version: null, isolates: [], functions: traced.functions, deopts: traced.deopts, counters: emptyCounters() }).deoptFunctions;
    const add = rows.find((r) => r.function === 'add')!;
    assert.deepEqual([add.line, add.deoptCount, add.reoptimized, add.tiers], [3, 1, null, ['TurboFan']]);
  });
});
