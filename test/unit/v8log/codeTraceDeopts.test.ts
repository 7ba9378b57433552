/**
 * Deopts read from the verbose code trace (what a run with a CPU profile gives, since the profiler
 * silences code-deopt and JS code-creation in the V8 log). Recorded from deopts.js on Node 20 and 24.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { functionsFromProfile, readCodeTraceDeopts, tracedToV8Deopts } from '../../../src/core/v8log/codeTraceDeopts';
import { summarizeDeopts } from '../../../src/core/v8log/deoptSummary';

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
      const entries = summarizeDeopts({ v8Version: null, isolates: [], functions: [], deopts: tracedToV8Deopts(traced, profiled, 'code-trace.txt'), counters: { lines: 0, truncatedLines: 0, malformedLines: 0, ignoredEvents: {}, unresolvedDeopts: 0 } });
      const inlined = entries.find((e) => e.reason === 'wrong map' && e.inlinedAt.length === 1)!;
      assert.equal(inlined.function, 'getX');
      assert.equal(inlined.optimizedFunction, 'sumPoints');
      assert.equal(inlined.firstMs, null, 'the trace has no times');
      assert.equal(entries.find((e) => e.reason === 'not a Smi')!.function, 'add');
    });
  });
}
