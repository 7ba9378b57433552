/**
 * The tier history's times are true: a function that is first called 800 ms into the run (by the
 * program's own clock) gets its first optimized code after that, on Node 20, 22 and 24; and its
 * optimizations are the ones V8's own code trace has for it (`--trace-opt` lines naming it).
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Summary } from '../../src/shared/model/summary';
import { NODES, PROGRAMS, runCli, tempDir } from './cliHarness';

describe('tier history', () => {
  for (const node of NODES) {
    it(`${node.label}: work() is optimized after it starts, at 800 ms, as V8's trace says`, { timeout: 90_000 }, async () => {
      const out = join(tempDir(), 'run');
      const r = await runCli(['profile', '--node', node.path, '--out', out, '--', join(PROGRAMS, 'tier-late.js')], { timeoutMs: 60_000 });
      assert.equal(r.code, 0, r.stderr);
      const starts = Number(/work starts at ([\d.]+) ms/.exec(r.stdout)?.[1]);
      const done = Number(/work done at ([\d.]+) ms/.exec(r.stdout)?.[1]);
      assert.ok(starts >= 800 && done > starts, r.stdout);
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
      const history = summary.tierHistory;
      assert.ok(history && history.timed, `a dated tier history: ${JSON.stringify(history)?.slice(0, 200)}`);
      const work = history.functions.find((f) => f.function === 'work');
      assert.ok(work, `work() is among the hot functions: ${history.functions.map((f) => f.function).join(', ')}`);
      assert.ok(work.firstOptimizedMs !== null, JSON.stringify(work));
      // The isolate's clock starts a few ms after the program's (8–40 ms measured); a reading every 50 ms.
      assert.ok(work.firstOptimizedMs >= starts - 80, `optimized at ${work.firstOptimizedMs} ms, but it was first called at ${starts} ms`);
      assert.ok(work.firstOptimizedMs <= done + 80, `optimized at ${work.firstOptimizedMs} ms, after it finished at ${done} ms`);
      // V8's own account: the optimizations its code trace finished for work().
      const traces = readdirSync(join(out, 'v8')).filter((f) => /^code-\d+-0\.asm$/.test(f));
      const text = traces.map((f) => readFileSync(join(out, 'v8', f), 'utf8')).join('');
      const v8Count = text.split('\n').filter((l) => /^\[(completed compiling|completed optimizing|optimizing) 0x[0-9a-f]+ <JSFunction work /.test(l)).length;
      const ours = work.events.filter((e) => e.kind === 'optimized').length;
      assert.ok(v8Count > 0 && ours > 0 && ours <= v8Count, `ours ${ours}, V8's trace lines ${v8Count}`);
    });
  }
});
