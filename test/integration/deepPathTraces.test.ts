/**
 * A project deep in the file system (a CI checkout, a monorepo): resolving its long paths at start-up
 * made Node 24's Maglev mark Node's path helpers hot before any preload ran, and with `--trace-opt`
 * on the command line each process then traced into the one shared start-up file instead of its own
 * (seen on CI: a forked child's and three cluster workers' deopts all "from start-up"). The preload
 * now switches tracing on itself: every process gets its own trace, and the deopts their process.
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { AgentRecord } from '../../src/core/preload/agentRecord';
import { NODES, PROGRAMS, readSession, readSummary, runCli, startCli, tempDir, waitForOutput, waitUntilGone } from './cliHarness';
import { assertReadWhole } from './v8Account';

describe('a project with a long path: every process still writes its own code trace', () => {
  for (const node of NODES) {
    it(node.label, { timeout: 60_000 }, async () => {
      const project = join(tempDir(), 'checkouts', 'some-team', 'a-service-with-a-long-name'.repeat(3), 'packages', 'api', 'src');
      mkdirSync(project, { recursive: true });
      for (const f of ['fork-parent.js', 'fork-child.js']) copyFileSync(join(PROGRAMS, f), join(project, f));
      const out = join(project, '..', '.v8-lens', 'run');
      const r = await runCli(['profile', '--node', node.path, '--stable-deopts', '--out', out, '--', 'fork-parent.js'], { cwd: project });
      assert.equal(r.code, 0, r.stderr);
      const records = readdirSync(join(out, 'agent')).map((f) => JSON.parse(readFileSync(join(out, 'agent', f), 'utf8')) as AgentRecord);
      assert.equal(records.length, 2);
      for (const rec of records) assert.deepEqual(rec.codeTrace, { file: `code-${rec.pid}-0.asm`, own: true }, `pid ${rec.pid}`);
      const summary = readSummary(out);
      const roleOf = (id: string) => summary.processes!.find((p) => p.id === id)?.role;
      const add = summary.deopts.find((d) => d.function === 'add' && d.reason === 'not a Smi');
      const lengthOf = summary.deopts.find((d) => d.function === 'lengthOf' && d.reason === 'wrong map');
      assert.deepEqual(add?.processes?.map(roleOf), ['main'], JSON.stringify(summary.deopts));
      assert.deepEqual(lengthOf?.processes?.map(roleOf), ['child'], JSON.stringify(summary.deopts));
      // Both processes' traces together hold at least those two bailouts, and all of it was read.
      assertReadWhole(summary, 'deopts', 2);
    });
  }
});

describe('a long path and V8 Lens killed mid-run: the staged code traces are recovered by the next report', () => {
  it('SIGKILL of the CLI, then v8-lens report: the deopt is found and the temporary folder is gone', { timeout: 60_000 }, async () => {
    const project = join(tempDir(), 'checkouts', 'some-team', 'a-service-with-a-long-name'.repeat(3), 'src');
    mkdirSync(project, { recursive: true });
    copyFileSync(join(PROGRAMS, 'deopt-then-wait.js'), join(project, 'deopt-then-wait.js'));
    const out = join(project, '..', '.v8-lens', 'run');
    const cli = startCli(['profile', '--stable-deopts', '--out', out, '--', 'deopt-then-wait.js'], { cwd: project });
    await waitForOutput(cli, /^deopted/m);
    const session = readSession(out);
    const staged = session.launch.env.V8_LENS_CODE_TRACE_DIR!;
    assert.notEqual(staged, join(out, 'v8'), 'the run folder is too deep for V8: its traces are staged');
    cli.kill('SIGKILL');
    // The preload sees its owner gone and stops the target, which writes its CPU profile.
    assert.deepEqual(await waitUntilGone([session.pid!], 15_000), [], 'the target stopped after V8 Lens was killed');
    assert.equal(readSession(out).status, 'running', 'nobody wrote the end of the run');
    assert.ok(readdirSync(staged).some((f) => /^code-\d+-0\.asm$/.test(f)), 'the traces are still in the staging folder');

    const r = await runCli(['report', out, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout) as ReturnType<typeof readSummary>;
    assert.ok(summary.warnings.some((w) => w.includes(`file(s) recovered from ${staged}`)), summary.warnings.join('\n'));
    const deopt = summary.deopts.find((d) => d.function === 'lengthOf' && d.reason === 'wrong map');
    assert.ok(deopt, `the deopt from the staged trace: ${JSON.stringify(summary.deopts)}`);
    assert.equal(deopt.line, 6);
    assert.equal(existsSync(staged), false, 'the staging folder is removed once its traces are in the run folder');
    assert.ok(readdirSync(join(out, 'v8')).some((f) => /^code-\d+-0\.asm$/.test(f)));
  });
});
