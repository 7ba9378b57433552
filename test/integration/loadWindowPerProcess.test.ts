/**
 * The warm-up and measured window on every process's CPU strip (issue 21: runs of several processes
 * had no warm-up/measured labels): a 3-worker cluster under load through the real CLI, its report
 * model built, and each process's window read on its own isolate's clock: as long as the load
 * generator's window, after its warm-up, and holding the GC events V8 Lens counted in the window by
 * when their trace lines arrived.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildReportModel } from '../../src/core/report/reportModel';
import { REPO, runCli, tempDir } from './cliHarness';

const CLUSTER = join(REPO, 'test', 'fixtures', 'apps', 'cluster-3', 'server.js');

describe('the load window on every process of a run', () => {
  it('a cluster under load: each process view has its warm-up and window on its own clock, where its GC of the window falls', { timeout: 120_000 }, async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['profile', '--preset', 'cpu-gc', '--url', 'auto', '--warmup', '1', '--duration', '2', '--connections', '4', '--out', out, '--', CLUSTER], { timeoutMs: 100_000 });
    assert.equal(r.code, 0, r.stderr);
    const model = await buildReportModel(out);
    const load = model.summary.load!;
    assert.ok(load.figures && load.windowEpochMs, 'the load ran and its window was recorded');
    const views = (model.processes ?? []).filter((v) => v.timeProfile);
    assert.ok(views.length >= 4, `the primary and 3 workers have a CPU strip: ${views.map((v) => v.label).join(', ')}`);
    const measuredMs = load.windowEpochMs.end - load.windowEpochMs.start;
    for (const v of views) {
      const w = v.loadWindow;
      assert.ok(w, `${v.label} has the load's window`);
      assert.ok(Math.abs(w.toMs - w.fromMs - measuredMs) < 1e-6, `${v.label}: the window is the measured one`);
      assert.ok(Math.abs(w.fromMs - w.warmupFromMs - load.warmupSeconds * 1000) < 1e-6, `${v.label}: a ${load.warmupSeconds} s warm-up before it`);
      // On the process's own GC clock: its GC events inside the window are the ones V8 Lens counted
      // in it by when their trace lines arrived (the window's marks), give or take one at each edge.
      const isolate = v.process.gc?.isolate;
      // The primary only forks and waits: it may collect nothing in the window (and is not listed then).
      const counted = load.gcInWindow?.processes?.find((p) => p.pid === v.process.pid && p.isolate === isolate?.isolate)?.events ?? 0;
      if (v.process.role === 'worker') assert.ok(counted >= 5, `${v.label} serves requests and collects garbage in the window: ${counted}`);
      const placed = v.gcEvents.filter((e) => e.timeMs >= w.fromMs && e.timeMs < w.toMs).length;
      assert.ok(Math.abs(placed - counted) <= 2, `${v.label}: ${placed} GC events inside the window on its clock, ${counted} counted by the window's marks`);
    }
    // The run's own (the tiers' req/s): the primary's, with the load's answers per second.
    const primary = views.find((v) => v.process.role === 'primary')!;
    assert.deepEqual(model.loadWindow, primary.loadWindow);
    assert.ok((model.loadWindow?.rps ?? []).length >= 2, 'req/s ticks on the same clock');
  });
});
