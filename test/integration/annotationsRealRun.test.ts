/**
 * The editor's annotations from real runs: `v8-lens profile` on the TypeScript fixture compiled
 * with source maps, then the annotation model must put the deopt and the hot line on the .ts lines;
 * and with allocations sampled, the allocation lens on the function that allocates.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { allocLensTitle } from '../../src/core/annotations/annotationText';
import { DEFAULT_THRESHOLDS } from '../../src/core/annotations/annotationTypes';
import { buildAnnotations } from '../../src/core/annotations/buildAnnotations';
import { pathKey } from '../../src/core/annotations/sourcePaths';
import { loadReport } from '../../src/core/report/loadReport';
import { SourceMapResolver } from '../../src/core/sourcemap/sourceMapResolver';
import { NODES, PROGRAMS, REPO, runCli, tempDir } from './cliHarness';
import { assertReadWhole } from './v8Account';

const APP = join(REPO, 'test', 'fixtures', 'sourcemap', 'ts-app');
const TS = join(APP, 'src', 'app.ts');
const JS = join(APP, 'dist', 'app.js');
const TWO_ALLOCATORS = join(PROGRAMS, 'two-allocators.js');
const ANONYMOUS_ALLOCATOR = join(PROGRAMS, 'anonymous-allocator.js');
const lineOf = (file: string, marker: string) => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(marker)) + 1;

for (const node of NODES) {
  describe(`annotations of a real run through source maps (${node.label})`, () => {
    it('the "wrong map" deopt and the hottest line land on app.ts; the generated position is kept beside them', async () => {
      const out = join(tempDir(), 'run');
      const r = await runCli(['profile', '--out', out, '--node', node.path, '--stable-deopts', '--', JS], { timeoutMs: 90_000 });
      assert.equal(r.code, 0, r.stderr);
      const summary = await loadReport(out);
      // The run's code trace holds the program's wrong-map deopt at least, and V8 Lens read all of it.
      assertReadWhole(summary, 'deopts', 1);
      const run = await buildAnnotations(summary, { source: out, capturedAt: null, roots: [REPO], resolver: new SourceMapResolver(), thresholds: DEFAULT_THRESHOLDS });

      const ts = run.files.get(pathKey(TS));
      assert.ok(ts, `app.ts is annotated (files: ${[...run.files.keys()].join(', ')})`);
      const wrongMap = ts.deoptSites.find((s) => s.reason === 'wrong map');
      assert.ok(wrongMap, `a wrong-map site on app.ts: ${JSON.stringify(ts.deoptSites.map((s) => [s.line, s.reason]))}`);
      assert.equal(wrongMap.line, lineOf(TS, 'DEOPT-WRONG-MAP:'));
      assert.equal(wrongMap.generated?.path, JS);
      assert.equal(wrongMap.generated?.line, lineOf(JS, 'return s.w * s.h'));
      const areaLens = ts.deoptFunctions.find((f) => f.name === 'area');
      assert.ok(areaLens, 'a lens for area()');
      assert.equal(areaLens.line, lineOf(TS, 'function area('), 'the lens sits on the .ts function line');

      // V8 puts the loop's ticks on the HOT-LOOP line (Node 20, 22) or on its `for` header (Node 24's
      // tiering): either way the hottest .ts line is the .ts twin of the hottest .js line, found by
      // its text, and it is in spin()'s inner loop.
      const hottest = [...ts.heatLines].sort((a, b) => b.selfMs - a.selfMs)[0]!;
      const hottestJs = summary.cpu!.lines.find((l) => l.url.endsWith('app.js'))!;
      const jsText = readFileSync(JS, 'utf8').split('\n')[hottestJs.line - 1]!.trim();
      const tsLines = readFileSync(TS, 'utf8').split('\n');
      assert.equal(tsLines[hottest.line - 1]!.trim(), jsText, `app.ts:${hottest.line} is the line V8 sampled most (app.js:${hottestJs.line})`);
      assert.ok(hottest.line >= lineOf(TS, 'for (let i = 0; i < 100_000') && hottest.line <= lineOf(TS, '// HOT-LOOP'), 'in the hot loop');
      assert.ok(hottest.labeled, 'and it gets its after-line text');
      assert.equal(run.files.get(pathKey(JS))?.deoptSites.length ?? 0, 0, 'nothing mapped stays on the generated file');
    });
  });
}

for (const node of NODES) {
  describe(`allocation lenses of a real run (${node.label})`, () => {
    it('bigAllocator gets its lens at its first line, with the rate; exactly the functions at or above the threshold get one', { timeout: 90_000 }, async () => {
      const out = join(tempDir(), 'run');
      const r = await runCli(['profile', '--node', node.path, '--preset', 'cpu-gc-alloc', '--out', out, '--', TWO_ALLOCATORS], { timeoutMs: 90_000 });
      assert.equal(r.code, 0, r.stderr);
      const summary = await loadReport(out);
      assert.ok(summary.alloc, summary.warnings.join('\n'));
      const run = await buildAnnotations(summary, { source: out, capturedAt: null, roots: [REPO], resolver: null, thresholds: DEFAULT_THRESHOLDS });
      const file = run.files.get(pathKey(TWO_ALLOCATORS));
      assert.ok(file, `two-allocators.js is annotated (files: ${[...run.files.keys()].join(', ')})`);
      const expected = summary.alloc.functions
        .filter((f) => f.url.endsWith('two-allocators.js') && f.line > 0 && f.share * 100 >= DEFAULT_THRESHOLDS.allocMinPercent)
        .map((f) => [f.line, f.selfBytes]);
      assert.deepEqual(file.allocFunctions.map((f) => [f.line, f.selfBytes]), expected);
      const big = file.allocFunctions.find((f) => f.line === lineOf(TWO_ALLOCATORS, 'function bigAllocator('));
      assert.ok(big, `a lens on bigAllocator: ${JSON.stringify(file.allocFunctions)}`);
      assert.ok(big.bytesPerSecond !== null && big.bytesPerSecond > 0);
      assert.equal(big.bytesPerRequest, null, 'no load: no per-request figure');
      assert.match(allocLensTitle(big), /^\$\(trash\) allocates [\d.,]+ (B|KB|MB|GB)\/s · [\d.]+% of young garbage$/);
    });
  });
}

for (const node of NODES) {
  describe(`an anonymous top allocator gets its lens (${node.label})`, () => {
    it('placed at its own start among the anonymous functions of its script (Node 20 leaves them without a position), with a lens there', { timeout: 90_000 }, async () => {
      const out = join(tempDir(), 'run');
      const r = await runCli(['profile', '--node', node.path, '--preset', 'cpu-gc-alloc', '--out', out, '--', ANONYMOUS_ALLOCATOR], { timeoutMs: 90_000 });
      assert.equal(r.code, 0, r.stderr);
      const summary = await loadReport(out);
      assert.ok(summary.alloc, summary.warnings.join('\n'));
      const line = lineOf(ANONYMOUS_ALLOCATOR, '// ANON-ALLOCATOR');
      const column = readFileSync(ANONYMOUS_ALLOCATOR, 'utf8').split('\n')[line - 1]!.indexOf('() => {') + 1;
      const top = summary.alloc.functions[0]!;
      assert.deepEqual([top.name, top.url.endsWith('anonymous-allocator.js'), top.line, top.column], ['(anonymous)', true, line, column], JSON.stringify(summary.alloc.functions.slice(0, 3)));
      assert.ok(top.share > 0.5, `it makes most of the bytes: ${top.share}`);
      const run = await buildAnnotations(summary, { source: out, capturedAt: null, roots: [REPO], resolver: null, thresholds: DEFAULT_THRESHOLDS });
      const lenses = run.files.get(pathKey(ANONYMOUS_ALLOCATOR))?.allocFunctions ?? [];
      assert.deepEqual(lenses.map((f) => [f.name, f.line, f.column, f.selfBytes]), [['(anonymous)', line, column, top.selfBytes]]);
    });
  });
}
