/**
 * The report's CPU timeline shares the GC timeline's axis: on every Node in NODES, once V8 Lens has
 * lined the CPU profile up, the profile's own "(garbage collector)" samples fall inside the pauses
 * V8's --trace-gc printed for the same run. Wrong by the 8–40 ms between the process's time origin
 * and the isolate's creation (the naive alignment), most of them would miss.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildReportModel } from '../../src/core/report/reportModel';
import { TIME_PROFILE_CATEGORIES } from '../../src/shared/model/timeProfile';
import { NODES, PROGRAMS, runCli, tempDir } from './cliHarness';
import { assertGcIsV8s } from './v8Account';

describe('CPU timeline on the GC clock', () => {
  for (const node of NODES) {
    it(`${node.label}: GC samples land in the traced pauses`, { timeout: 90_000 }, async () => {
      const out = join(tempDir(), 'run');
      const r = await runCli(['profile', '--node', node.path, '--preset', 'cpu-gc', '--out', out, '--', join(PROGRAMS, 'gc-churn.js')], { timeoutMs: 60_000 });
      assert.equal(r.code, 0, r.stderr);
      const model = await buildReportModel(out);
      // The pauses it lines up on are V8's own, every one (Node 26's "Scavenge (during sweeping)" too).
      assertGcIsV8s(join(out, 'gc-trace.log'), model.summary);
      const tp = model.timeProfile!;
      assert.ok(tp.clockMs !== null, tp.clockNote);
      assert.match(tp.clockNote, /^lined up on \d+ GC pauses/);
      const gc = TIME_PROFILE_CATEGORIES.indexOf('gc');
      let t = 0;
      let inside = 0;
      let all = 0;
      const events = model.gcEvents;
      for (let s = 0; s < tp.spanNode.length; s++) {
        t += tp.spanDeltaUs[s]!;
        const end = s + 1 < tp.spanNode.length ? t + tp.spanDeltaUs[s + 1]! : tp.durationUs;
        if (tp.fnCategory[tp.nodeFn[tp.spanNode[s]!]!] !== gc) continue;
        const from = tp.clockMs! + t / 1000;
        const to = tp.clockMs! + end / 1000;
        all += to - from;
        // The trace prints whole ms: a pause is [time − pause − 1, time + 1].
        for (const e of events) inside += Math.max(0, Math.min(to, e.timeMs + 1) - Math.max(from, e.timeMs - e.pauseMs - 1));
      }
      assert.ok(events.length >= 10 && all > 20, `the run collected garbage: ${events.length} events, ${all.toFixed(1)} ms of GC samples`);
      if (process.env.V8_LENS_TEST_VERBOSE) console.log(node.label, (inside / all).toFixed(3), tp.clockNote);
      assert.ok(inside / all >= 0.7, `${((100 * inside) / all).toFixed(0)}% of ${all.toFixed(1)} ms of GC samples fall inside V8's traced pauses (${tp.clockNote})`);
    });
  }
});
