/**
 * A child the app forks with an environment of its own (`fork(file, { env: { PATH, APP_MODE } })`)
 * drops the preload's V8_LENS_* settings. Node's `--env-file` on the command line, which fork passes
 * on, gives them back: the child is observed like any other (its GC trace, allocations, code trace),
 * and the rest of its environment is still only what the app gave it.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NODES, PROGRAMS, readSession, readSummary, runCli, tempDir } from './cliHarness';
import { v8BailoutRecords, v8GcAccount } from './v8Account';

describe('a child forked with an environment of its own is observed like any other', () => {
  for (const node of NODES) {
    it(node.label, { timeout: 60_000 }, async () => {
      const out = join(tempDir(), 'run');
      const r = await runCli(['profile', '--node', node.path, '--out', out, '--', join(PROGRAMS, 'fork-own-env.js')]);
      assert.equal(r.code, 0, r.stderr);
      // The app's own variables reach the child, and no other of the parent's.
      assert.match(r.stdout, /^own-env-child done: APP_MODE,PATH \(mode isolated\)$/m);
      assert.ok(readSession(out).launch.argv.includes(`--env-file=${join(out, 'agent.env')}`));

      const summary = readSummary(out);
      const child = summary.processes!.find((p) => p.role === 'child');
      assert.ok(child, JSON.stringify(summary.processes?.map((p) => [p.role, p.command])));
      // Its GC is V8's own lines for its pid, and there are some (it allocates for a few dozen scavenges).
      const v8 = v8GcAccount(join(out, 'gc-trace.log')).byPid.get(child.pid);
      assert.ok(v8 && v8.events > 0, `V8 traced no GC for the child ${child.pid}`);
      assert.equal(child.gc?.eventCount, v8.events);
      assert.ok(Math.abs(child.gc.totalPauseMs - v8.pauseMs) < 0.01, `${child.gc.totalPauseMs} ms, V8 printed ${v8.pauseMs} ms`);
      // The preload ran in it: its record, its allocation samples and its own code trace.
      assert.ok(existsSync(join(out, 'agent', `${child.pid}.json`)), 'the child has an agent record');
      assert.ok(child.alloc && child.alloc.totalBytes > 0, JSON.stringify(child.allocMissing));
      assert.ok(existsSync(join(out, 'v8', `code-${child.pid}-0.asm`)), 'the child wrote its own code trace');
      assert.equal(child.deoptCount, v8BailoutRecords(readFileSync(join(out, 'v8', `code-${child.pid}-0.asm`), 'latin1')));
    });
  }
});
