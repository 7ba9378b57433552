/**
 * The tier history's times are true: a function that is first called 800 ms into the run (by the
 * program's own clock) gets its first optimized code after that, on every Node in NODES; and its
 * optimizations are the ones V8's own code trace has for it (`--trace-opt` lines naming it).
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Summary } from '../../src/shared/model/summary';
import { NODES, PROGRAMS, runCli, tempDir } from './cliHarness';
import { assertReadWhole } from './v8Account';

/**
 * The program's clock (ms since its time origin, what it prints) onto the isolate's, where tier times
 * are: the agent's record says when the isolate was made, within `slack`.
 */
function isolateClock(run: string): { isolateAt: number; slack: number } {
  const file = readdirSync(join(run, 'agent')).find((f) => /^\d+\.json$/.test(f))!;
  const [from, to] = (JSON.parse(readFileSync(join(run, 'agent', file), 'utf8')) as { isolateCreatedMs: [number, number] }).isolateCreatedMs;
  return { isolateAt: (from + to) / 2, slack: (to - from) / 2 + 0.2 };
}

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
      // The program's clock onto the isolate's (the agent's record says where the isolate began); the
      // time is within its stated error (half the gap between the agent's readings, 25 ms on schedule).
      const { isolateAt, slack } = isolateClock(out);
      const first = work.events.find((e) => e.kind === 'optimized')!;
      const error = (first.atErrorMs ?? 25) + slack;
      assert.ok(work.firstOptimizedMs + error >= starts - isolateAt, `optimized at ${work.firstOptimizedMs} ± ${error} ms, but it was first called at ${(starts - isolateAt).toFixed(1)} ms`);
      assert.ok(work.firstOptimizedMs - error <= done - isolateAt, `optimized at ${work.firstOptimizedMs} ± ${error} ms, after it finished at ${(done - isolateAt).toFixed(1)} ms`);
      // V8's own account: the optimizations its code trace finished for work().
      const traces = readdirSync(join(out, 'v8')).filter((f) => /^code-\d+-0\.asm$/.test(f));
      const text = traces.map((f) => readFileSync(join(out, 'v8', f), 'utf8')).join('');
      const v8Count = text.split('\n').filter((l) => /^\[(completed compiling|completed optimizing|optimizing) 0x[0-9a-f]+ <JSFunction work /.test(l)).length;
      const ours = work.events.filter((e) => e.kind === 'optimized').length;
      assert.ok(v8Count > 0 && ours > 0 && ours <= v8Count, `ours ${ours}, V8's trace lines ${v8Count}`);
      // Every finished optimization in the run's traces (work()'s and all others) was read.
      const allOptimizations = text.split('\n').filter((l) => /^\[(completed compiling|completed optimizing|optimizing) /.test(l)).length;
      assertReadWhole(summary, 'optimizations', Math.max(v8Count, allOptimizations));
    });
  }
});

describe('tier times of a synchronous script', () => {
  for (const node of NODES) {
    it(`${node.label}: spin() is optimized while the event loop is busy: its time says how far off it can be, and the truth is inside`, { timeout: 90_000 }, async () => {
      const out = join(tempDir(), 'run');
      const r = await runCli(['profile', '--node', node.path, '--out', out, '--', join(PROGRAMS, 'tier-sync.js')], { timeoutMs: 60_000 });
      assert.equal(r.code, 0, r.stderr);
      const starts = Number(/sync starts at ([\d.]+) ms/.exec(r.stdout)?.[1]);
      const done = Number(/sync done at ([\d.]+) ms/.exec(r.stdout)?.[1]);
      assert.ok(done - starts >= 600, r.stdout);
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
      const spin = summary.tierHistory?.functions.find((f) => f.function === 'spin');
      assert.ok(spin, `spin() is among the hot functions: ${summary.tierHistory?.functions.map((f) => f.function).join(', ')}`);
      const first = spin.events.find((e) => e.kind === 'optimized');
      assert.ok(first && first.atMs !== null && first.atErrorMs !== undefined, JSON.stringify(spin.events));
      const { isolateAt, slack } = isolateClock(out);
      // V8 optimized spin() while the loop ran: the stated interval holds that stretch's part of it.
      assert.ok(first.atMs - first.atErrorMs <= done - isolateAt + slack && first.atMs + first.atErrorMs >= starts - isolateAt - slack, `at ${first.atMs} ± ${first.atErrorMs} ms, the loop ran ${(starts - isolateAt).toFixed(1)}–${(done - isolateAt).toFixed(1)} ms`);
      // No reading could be taken while it ran: the error is at least half of that stretch, far past the 25 ms of a free loop.
      assert.ok(first.atErrorMs >= (done - starts) / 2 - 1, `± ${first.atErrorMs} ms for a ${(done - starts).toFixed(0)} ms synchronous stretch`);
      assert.match(r.stdout, /spin +\S+ +(?:Maglev|TurboFan) at ≈ [\d.]+ s \(± [\d.]+ s\)/, 'the CLI marks the time approximate with its error');
      assert.match(r.stdout, /≈ marks times within up to ± [\d.]+ s: V8 Lens's agent dates the code trace between the app's work, and the event loop was busy/);
    });
  }
});
