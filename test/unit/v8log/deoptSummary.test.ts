import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadReport } from '../../../src/core/report/loadReport';
import { MAX_OPTIMIZED_FUNCTIONS } from '../../../src/shared/model/summary';
import { deoptsByFunction, summarizeDeoptAnalysis, summarizeDeopts } from '../../../src/core/v8log/deoptSummary';
import { analyzeV8LogText, readV8LogFile } from '../../../src/core/v8log/v8LogReader';
import { tempDir } from '../../../scripts/tempDirs';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'v8log');
const lines = (...l: string[]) => `${l.join('\n')}\n`;

describe('summarizeDeopts', () => {
  it('gives the summary.json entries for the Node 20 fixture', async () => {
    const entries = summarizeDeopts(await readV8LogFile(join(FIXTURES, 'node20-deopts.log')));
    assert.deepEqual(entries, [
      {
        url: '/ABS/deopts.js',
        line: 4,
        column: 12,
        function: 'add',
        functionStart: { url: '/ABS/deopts.js', line: 3, column: 13 },
        optimizedFunction: 'add',
        kind: 'deopt-eager',
        reason: 'not a Smi',
        count: 1,
        inlinedAt: [],
        firstMs: 124.166,
        lastMs: 124.166,
        tier: 'TurboFan',
      },
      {
        url: '/ABS/deopts.js',
        line: 8,
        column: 12,
        function: 'getX',
        functionStart: { url: '/ABS/deopts.js', line: 7, column: 14 },
        optimizedFunction: 'sumPoints',
        kind: 'deopt-eager',
        reason: 'wrong map',
        count: 1,
        inlinedAt: [{ url: '/ABS/deopts.js', line: 15, column: 45 }],
        firstMs: 205.643,
        lastMs: 205.643,
        tier: 'TurboFan',
      },
      {
        url: '/ABS/deopts.js',
        line: 38,
        column: 39,
        function: 'warmUpAdd',
        functionStart: { url: '/ABS/deopts.js', line: 34, column: 19 },
        optimizedFunction: 'warmUpAdd',
        kind: 'deopt-eager',
        reason: 'Insufficient type feedback for binary operation',
        count: 1,
        inlinedAt: [],
        firstMs: 50.537,
        lastMs: 50.537,
        tier: 'TurboFan',
      },
    ]);
  });

  it('groups by position, kind, reason and inlining chain; counts; sorts by count, then position', () => {
    const a = analyzeV8LogText(
      lines(
        'code-creation,JS,13,1000,0x1000,64,outer /app/a.js:10:1,0x9000,*',
        'code-creation,JS,10,1000,0x2000,8,inner /app/a.js:2:1,0x9100,~',
        'code-deopt,3000,64,0x1000,0,30,deopt-eager,</app/a.js:3:5> inlined at </app/a.js:12:3>,wrong map',
        'code-deopt,1000,64,0x1000,0,30,deopt-eager,</app/a.js:3:5> inlined at </app/a.js:12:3>,wrong map',
        'code-deopt,2000,64,0x1000,0,30,deopt-eager,</app/a.js:3:5> inlined at </app/a.js:12:3>,wrong map',
        'code-deopt,4000,64,0x1000,1,30,deopt-eager,</app/a.js:3:5> inlined at </app/a.js:14:3>,wrong map',
        'code-deopt,5000,64,0x1000,-1,90,deopt-eager,</app/a.js:11:7>,not a Smi',
        'code-deopt,6000,64,0x1000,-1,90,deopt-eager,</app/a.js:11:7>,not a Smi',
        'code-deopt,7000,64,0x1000,-1,90,dependency-change,</app/a.js:10:1>,code dependencies',
        'code-deopt,8000,64,0x7000,-1,0,deopt-eager,<unknown>,hole',
      ),
    );
    const s = summarizeDeopts(a);
    assert.deepEqual(
      s.map((e) => [e.url, e.line, e.column, e.kind, e.reason, e.inlinedAt.map((p) => p.line), e.count, e.firstMs, e.lastMs, e.function, e.optimizedFunction, e.tier]),
      [
        ['/app/a.js', 3, 5, 'deopt-eager', 'wrong map', [12], 3, 1, 3, 'inner', 'outer', 'TurboFan'],
        ['/app/a.js', 11, 7, 'deopt-eager', 'not a Smi', [], 2, 5, 6, 'outer', 'outer', 'TurboFan'],
        ['', 0, 0, 'deopt-eager', 'hole', [], 1, 8, 8, '(code not logged)', '(code not logged)', null],
        ['/app/a.js', 3, 5, 'deopt-eager', 'wrong map', [14], 1, 4, 4, 'inner', 'outer', 'TurboFan'],
        ['/app/a.js', 10, 1, 'dependency-change', 'code dependencies', [], 1, 7, 7, 'outer', 'outer', 'TurboFan'],
      ],
    );
  });
});

describe('the function of an inlined position', () => {
  // getX (7:14) is inlined into sumPoints (13:19); a nested closure makes the start heuristic fail.
  it('uses code-source-info ranges when logged, else the nearest function start before it', async () => {
    const text = readFileSync(join(FIXTURES, 'node22-deopts.log'), 'utf8');
    const withRanges = analyzeV8LogText(text);
    const withoutRanges = analyzeV8LogText(
      text
        .split('\n')
        .filter((l) => !l.startsWith('code-source-info,'))
        .join('\n'),
    );
    for (const a of [withRanges, withoutRanges]) {
      const inlined = a.deopts.find((d) => d.inlinedAt.length > 0);
      assert.deepEqual(inlined && [inlined.function?.name, inlined.optimizedFunction?.name], ['getX', 'sumPoints']);
    }
    assert.deepEqual(withRanges.functions.find((f) => f.name === 'getX')?.sourceRange, { start: 220, end: 314 });
    assert.equal(withoutRanges.functions.find((f) => f.name === 'getX')?.sourceRange, null);
  });

  it('picks the innermost enclosing range, where the start heuristic would pick a closure that already ended', () => {
    // function outer() {            offsets 0..100, starts at 1:15
    //   const cb = () => 1;         offsets 20..30, starts at 2:14
    //   return o.x;                 deopt at 3:12, offset 50, inlined into caller
    // }
    const log = (withRanges: boolean) =>
      lines(
        'code-creation,JS,13,1,0x1000,64,caller /app/b.js:20:1,0x9000,*',
        'code-creation,JS,10,1,0x2000,8,outer /app/b.js:1:15,0x9100,~',
        ...(withRanges ? ['code-source-info,0x2000,7,0,100,,,'] : []),
        'code-creation,JS,10,1,0x3000,8,cb /app/b.js:2:14,0x9200,~',
        ...(withRanges ? ['code-source-info,0x3000,7,20,30,,,'] : []),
        'code-deopt,5,64,0x1000,0,50,deopt-eager,</app/b.js:3:12> inlined at </app/b.js:21:3>,wrong map',
      );
    assert.equal(analyzeV8LogText(log(true)).deopts[0]?.function?.name, 'outer');
    // Documented limitation of the fallback:
    assert.equal(analyzeV8LogText(log(false)).deopts[0]?.function?.name, 'cb');
  });
});

describe('deoptsByFunction', () => {
  it('counts own and inlined deopts, reasons, and whether the function re-optimized', () => {
    const a = analyzeV8LogText(
      lines(
        'code-creation,JS,10,100,0x500,8,inner /app/a.js:2:1,0x9100,~',
        'code-creation,JS,13,1000,0x1000,64,outer /app/a.js:10:1,0x9000,*',
        'code-deopt,2000,64,0x1000,0,30,deopt-eager,</app/a.js:3:5> inlined at </app/a.js:12:3>,wrong map',
        "code-creation,JS,12,3000,0x2000,64,outer /app/a.js:10:1,0x9000,*'",
        'code-deopt,4000,64,0x2000,-1,90,deopt-eager,</app/a.js:11:7>,not a Smi',
        'code-creation,JS,11,5000,0x3000,64,outer /app/a.js:10:1,0x9000,+',
        'code-deopt,6000,64,0x3000,-1,90,deopt-eager,</app/a.js:11:7>,not a Smi',
        'code-creation,JS,13,1000,0x4000,64,once /app/a.js:30:1,0x9300,*',
        'code-deopt,7000,64,0x4000,-1,300,deopt-eager,</app/a.js:31:1>,hole',
      ),
    );
    assert.deepEqual(deoptsByFunction(a), [
      {
        function: 'outer',
        url: '/app/a.js',
        line: 10,
        column: 1,
        tiers: ['Maglev', 'TurboFan'],
        deoptCount: 3,
        reasons: [
          { kind: 'deopt-eager', reason: 'not a Smi', count: 2 },
          { kind: 'deopt-eager', reason: 'wrong map', count: 1 },
        ],
        inlinedDeoptCount: 0,
        reoptimized: false,
        reoptimizations: 2,
        lastDeoptMs: 6,
      },
      {
        function: 'inner',
        url: '/app/a.js',
        line: 2,
        column: 1,
        tiers: ['Ignition'],
        deoptCount: 0,
        reasons: [],
        inlinedDeoptCount: 1,
        reoptimized: null,
        reoptimizations: 0,
        lastDeoptMs: null,
      },
      {
        function: 'once',
        url: '/app/a.js',
        line: 30,
        column: 1,
        tiers: ['TurboFan'],
        deoptCount: 1,
        reasons: [{ kind: 'deopt-eager', reason: 'hole', count: 1 }],
        inlinedDeoptCount: 0,
        reoptimized: false,
        reoptimizations: 0,
        lastDeoptMs: 7,
      },
    ]);
  });

  it('on the Node 24 fixture: sumPoints re-optimized after its deopt, add did not', async () => {
    const rows = deoptsByFunction(await readV8LogFile(join(FIXTURES, 'node24-deopts.log')));
    const row = (name: string) => rows.find((r) => r.function === name);
    assert.deepEqual(row('sumPoints') && [row('sumPoints')!.deoptCount, row('sumPoints')!.reoptimized], [1, true]);
    assert.deepEqual(row('add') && [row('add')!.deoptCount, row('add')!.reoptimized, row('add')!.tiers], [1, false, ['Ignition', 'Sparkplug', 'Maglev', 'TurboFan']]);
    assert.deepEqual(row('getX') && [row('getX')!.deoptCount, row('getX')!.inlinedDeoptCount], [1, 1]);
  });
});

describe('summary.json: deoptFunctions and optimizedFunctions from the V8 log', () => {
  it('on the Node 24 fixture: deoptFunctions are deoptsByFunction without times; optimizedFunctions never deopted', async () => {
    const analysis = await readV8LogFile(join(FIXTURES, 'node24-deopts.log'));
    const parts = summarizeDeoptAnalysis(analysis);
    assert.deepEqual(parts.deoptFunctions, deoptsByFunction(analysis).map(({ lastDeoptMs: _, ...row }) => row));
    assert.deepEqual(
      parts.deoptFunctions.map((f) => [f.function, f.line, f.reoptimized]),
      [
        ['getX', 7, true],
        ['warmUpAdd', 34, true],
        ['add', 3, false],
        ['sumPoints', 13, true],
      ],
    );
    assert.deepEqual(parts.optimizedFunctions, [
      { function: 'sub', url: '/ABS/deopts.js', line: 21, column: 13, tiers: ['Maglev', 'TurboFan'], optimizations: 2 },
      { function: 'Point', url: '/ABS/deopts.js', line: 11, column: 26, tiers: ['Maglev'], optimizations: 1 },
      { function: 'warmUpSumPoints', url: '/ABS/deopts.js', line: 44, column: 25, tiers: ['Maglev'], optimizations: 1 },
    ]);
    assert.deepEqual(parts.warnings, []);
    // Every deopt site says where its function starts, for the CodeLens above it.
    for (const d of parts.deopts) assert.ok(d.functionStart && d.functionStart.line > 0 && d.functionStart.line <= d.line, JSON.stringify(d));
  });

  it('a function that only deopted where it was inlined is not "optimized, never deoptimized"', () => {
    const a = analyzeV8LogText(
      lines(
        'code-creation,JS,13,1000,0x1000,64,outer /app/a.js:10:1,0x9000,*',
        'code-creation,JS,13,1100,0x2000,64,inner /app/a.js:2:1,0x9100,*',
        'code-creation,JS,13,1200,0x3000,64,calm /app/a.js:20:1,0x9200,+',
        'code-creation,JS,13,1300,0x4000,64,calm /app/a.js:20:1,0x9200,*',
        'code-deopt,2000,64,0x1000,0,30,deopt-eager,</app/a.js:3:5> inlined at </app/a.js:12:3>,wrong map',
      ),
    );
    const parts = summarizeDeoptAnalysis(a);
    assert.deepEqual(parts.optimizedFunctions, [{ function: 'calm', url: '/app/a.js', line: 20, column: 1, tiers: ['Maglev', 'TurboFan'], optimizations: 2 }]);
    assert.deepEqual(parts.deoptFunctions.map((f) => [f.function, f.deoptCount, f.inlinedDeoptCount]), [['inner', 0, 1], ['outer', 1, 0]]);
    assert.deepEqual(parts.deopts[0]?.functionStart, { url: '/app/a.js', line: 2, column: 1 });
  });

  it(`keeps the ${MAX_OPTIMIZED_FUNCTIONS} most optimized functions and says how many there were`, () => {
    const n = MAX_OPTIMIZED_FUNCTIONS + 5;
    const log: string[] = [];
    for (let i = 0; i < n; i++) {
      const times = i === n - 1 ? 3 : 1; // the last one declared is the most optimized
      for (let t = 0; t < times; t++) log.push(`code-creation,JS,13,${i},0x${(0x10000 + i * 16 + t).toString(16)},64,f${i} /app/big.js:${i + 1}:1,0x${(0x900000 + i).toString(16)},*`);
    }
    const parts = summarizeDeoptAnalysis(analyzeV8LogText(lines(...log)));
    assert.equal(parts.optimizedFunctions.length, MAX_OPTIMIZED_FUNCTIONS);
    assert.deepEqual(parts.optimizedFunctions[0], { function: `f${n - 1}`, url: '/app/big.js', line: n, column: 1, tiers: ['TurboFan'], optimizations: 3 });
    assert.deepEqual(parts.optimizedFunctions.at(-1)?.line, MAX_OPTIMIZED_FUNCTIONS - 1, 'then by position');
    assert.deepEqual(parts.warnings, [`${n} functions were optimized and never deoptimized; optimizedFunctions lists the ${MAX_OPTIMIZED_FUNCTIONS} optimized most often`]);
  });
});

describe('summary.json written by an older version', () => {
  it('loads with deoptFunctions/optimizedFunctions [] and functionStart null', async () => {
    const dir = tempDir('v8lens-old-summary-');
    try {
      const old = {
        schemaVersion: 1,
        source: { kind: 'run', path: dir },
        cpu: null,
        gc: null,
        deopts: [{ url: '/app/a.js', line: 3, column: 5, function: 'f', optimizedFunction: 'f', kind: 'deopt-eager', reason: 'wrong map', count: 1, inlinedAt: [], firstMs: null, lastMs: null, tier: null }],
        warnings: [],
      };
      writeFileSync(join(dir, 'summary.json'), JSON.stringify(old));
      const summary = await loadReport(dir);
      assert.deepEqual([summary.deoptFunctions, summary.optimizedFunctions, summary.deopts[0]?.functionStart], [[], [], null]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
