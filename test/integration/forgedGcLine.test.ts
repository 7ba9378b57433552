/**
 * A target cannot forge its own GC events (issue 22, item 6): a line shaped like V8's --trace-gc
 * output, printed by the app under its own pid, with a time and a pause no V8 could print in the run.
 * V8's own account: the real GC lines of the same run, read apart from V8 Lens's parser.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NODES, PROGRAMS, readSummary, runCli, tempDir } from './cliHarness';

describe('a forged GC line', () => {
  for (const node of NODES) {
    it(`${node.label}: is counted nowhere, drawn nowhere, and said`, { timeout: 60_000 }, async () => {
      const run = join(tempDir(), 'run');
      const r = await runCli(['profile', '--node', node.path, '--preset', 'gc', '--out', run, '--', join(PROGRAMS, 'forge-gc-line.js')]);
      assert.equal(r.code, 0, r.stderr);
      const trace = readFileSync(join(run, 'gc-trace.log'), 'utf8').split('\n');
      const forged = trace.filter((l) => l.includes(' 999999999 ms: '));
      assert.equal(forged.length, 1, 'the demux took it for a V8 line (its pid is the run\'s)');
      const real = trace.filter((l) => /^\[\d+:0x[0-9a-f]+(?::\d+)?\]\s+\d+ ms: /.test(l) && !l.includes(' 999999999 ms: '));
      assert.ok(real.length > 0, 'the program made V8 collect');
      const gc = readSummary(run).gc!;
      assert.equal(gc.eventCount, real.length);
      assert.ok(gc.totalPauseMs < 10_000, `pause ${gc.totalPauseMs} ms`);
      assert.equal(gc.otherIsolates.length, 0, 'no phantom isolate from the forged prefix');
      const summary = readSummary(run);
      assert.ok(summary.warnings.some((w) => /^1 GC-shaped line under the run's pids could not have come from V8 \(a time of 999,999,999 ms in a process that lived [\d,]+ ms, pid \d+\)/.test(w)), summary.warnings.join('\n'));
      const html = join(run, 'report.html');
      const exported = await runCli(['report', run, '--html', html]);
      assert.equal(exported.code, 0, exported.stderr);
      assert.ok(!readFileSync(html, 'utf8').includes('88888888'), 'the forged pause is not on the timeline');
    });
  }
});
