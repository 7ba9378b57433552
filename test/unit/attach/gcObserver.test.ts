/**
 * The observer's install/uninstall code, run in a fresh context of this very process (where
 * perf_hooks' GC entries are real), and its payloads read back.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gcKindName, installObserverExpression, observerNames, parseObservedGc, uninstallObserverExpression, GLOBAL_PREFIX } from '../../../src/core/attach/gcObserverSource';

describe('GC observer source', () => {
  it('names kinds like --trace-gc', () => {
    assert.equal(gcKindName(1), 'Scavenge');
    assert.equal(gcKindName(2), 'Minor Mark-Sweep');
    assert.equal(gcKindName(4), 'Mark-Compact');
    assert.equal(gcKindName(8), 'Incremental marking');
    assert.equal(gcKindName(16), 'Weak callbacks');
    assert.equal(gcKindName(64), 'GC kind 64');
  });

  it('uses globals with one prefix and a sanitised suffix', () => {
    const names = observerNames('ab-12');
    assert.equal(names.binding, `${GLOBAL_PREFIX}ab_12`);
    assert.equal(names.state, `${GLOBAL_PREFIX}ab_12_state`);
  });

  it('installs, reports real GCs through the binding, and uninstalls without a trace', async () => {
    const names = observerNames('unit');
    const payloads: string[] = [];
    const g = globalThis as Record<string, unknown>;
    g[names.binding] = (p: string) => payloads.push(p);
    // The expressions are plain scripts; here `require` comes from the test module's scope.
    const run = (code: string) => new Function('require', `return ${code}`)(require) as { ok: boolean; since?: number; left?: string[] };
    const before = performance.now();
    const installed = run(installObserverExpression(names));
    assert.equal(installed.ok, true);
    assert.ok(typeof installed.since === 'number' && installed.since >= before && installed.since <= performance.now(), 'it says from when it watches, on this performance clock');
    assert.equal(Object.keys(g).includes(names.state), false, 'the state global is not enumerable');
    for (let i = 0; i < 20; i++) {
      let junk: unknown[] = [];
      for (let j = 0; j < 50_000; j++) junk.push({ j });
      junk = [];
      await new Promise((r) => setImmediate(r));
    }
    await new Promise((r) => setTimeout(r, 20));
    const left = run(uninstallObserverExpression(names));
    assert.deepEqual(left.left, []);
    assert.equal(names.binding in g, false);
    assert.equal(names.state in g, false);
    assert.ok(payloads.length > 0, 'the allocations above cause at least one scavenge');
    const first = parseObservedGc(payloads[0]!);
    assert.ok(first && first.t > 0 && first.duration >= 0 && first.heapUsed > 0 && first.heapTotal >= first.heapUsed);
    // The entry's startTime: on the same clock as `since`, and no later than its end.
    assert.ok(first.s !== null && first.s >= installed.since! && Math.abs(first.s + first.duration - first.t) < 1e-6, `start ${first.s}, since ${installed.since}`);
    assert.ok([1, 2, 4, 8, 16].includes(first.kind));
    // Uninstalling twice is harmless.
    assert.equal(run(uninstallObserverExpression(names)).ok, true);
  });

  it('ignores payloads that are not ours', () => {
    assert.equal(parseObservedGc('not json'), null);
    assert.equal(parseObservedGc('{"t":"x","kind":1,"duration":1}'), null);
    assert.equal(parseObservedGc('null'), null);
    assert.deepEqual(parseObservedGc('{"t":10,"kind":4,"duration":1.5}'), { s: null, t: 10, kind: 4, flags: 0, duration: 1.5, heapUsed: 0, heapTotal: 0 }, 'an older observer without the start');
    assert.deepEqual(parseObservedGc('{"s":8.5,"t":10,"kind":4,"duration":1.5}')?.s, 8.5);
  });
});
