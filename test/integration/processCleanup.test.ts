/**
 * No process of the target's outlives a run, however the run ends, and one that escapes V8 Lens's
 * reach (a detached grandchild, in a process group of its own) is named in the run's warnings.
 * With V8 Lens killed outright, the preload stops the target's group: SIGTERM first, so the app's
 * shutdown runs and its CPU profile is written, then SIGKILL after the grace time.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROGRAMS, collect, processAlive, readSession, readSummary, runCli, startCli, tempDir, waitForOutput, waitUntilEnded } from './cliHarness';

describe('V8 Lens killed outright (SIGKILL)', () => {
  it('a child that ignores SIGTERM is killed with the rest of the group within 15 s', async () => {
    const out = join(tempDir(), 'run');
    const cli = startCli(['profile', '--out', out, '--', join(PROGRAMS, 'term-ignoring-child.js')]);
    const done = collect(cli, 30_000);
    const [, childPid] = await waitForOutput(cli, /child pid (\d+)/);
    const targetPid = readSession(out).pid!;
    cli.kill('SIGKILL');
    await done;
    const killedAt = Date.now();
    // Reparented to whatever reaps orphans here, which may leave zombies: a zombie has ended.
    assert.deepEqual(await waitUntilEnded([targetPid, Number(childPid)], 15_000), [], 'no process of the group outlives a killed V8 Lens');
    assert.ok(Date.now() - killedAt < 15_000);
    const record = JSON.parse(readFileSync(join(out, 'agent', `${targetPid}.json`), 'utf8')) as { final: boolean; stopSignal: string | null };
    assert.deepEqual([record.final, record.stopSignal], [true, 'SIGTERM'], 'the target itself stopped gracefully');
  });

  it('a target that prints all the time stops gracefully (SIGTERM, profile written) instead of dying of EPIPE', async () => {
    const out = join(tempDir(), 'run');
    const cli = startCli(['profile', '--out', out, '--', join(PROGRAMS, 'chatty.js')]);
    const done = collect(cli, 30_000);
    await waitForOutput(cli, /chatty pid (\d+)/);
    const targetPid = readSession(out).pid!;
    await new Promise((r) => setTimeout(r, 500));
    cli.kill('SIGKILL');
    await done;
    assert.deepEqual(await waitUntilEnded([targetPid], 10_000), []);
    const record = JSON.parse(readFileSync(join(out, 'agent', `${targetPid}.json`), 'utf8')) as { final: boolean; stopSignal: string | null; exitCode: number | null };
    assert.deepEqual([record.final, record.stopSignal, record.exitCode], [true, 'SIGTERM', 143], `the target stopped through the preload's handler: ${JSON.stringify(record)}`);
    assert.equal(readdirSync(join(out, 'cpu')).filter((f) => f.endsWith('.cpuprofile')).length, 1, 'Node wrote the CPU profile at the graceful exit');
  });
});

describe('a process that leaves the group', () => {
  it('a detached grandchild still running after a normal stop is named with its pid in the warnings', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['profile', '--timeout', '2', '--out', out, '--', join(PROGRAMS, 'detached-grandchild.js')], { env: { GRANDCHILD_MS: '30000' } });
    const grandchild = Number(/grandchild pid (\d+)/.exec(r.stdout)?.[1]);
    try {
      assert.equal(r.code, 0, r.stderr);
      assert.ok(grandchild > 0, r.stdout);
      assert.equal(readSession(out).status, 'stopped');
      assert.ok(processAlive(grandchild), 'the detached grandchild is out of the group signals reach');
      const warnings = readSummary(out).warnings;
      const named = warnings.filter((w) => new RegExp(`\\b${grandchild}\\b`).test(w));
      assert.equal(named.length, 1, `one warning names pid ${grandchild}: ${JSON.stringify(warnings)}`);
      assert.match(named[0]!, /detached|left the .*process group/);
      assert.match(r.stderr + r.stdout, new RegExp(`\\b${grandchild}\\b.*(detached|process group)|(detached|process group).*\\b${grandchild}\\b`), 'the CLI shows the warning');
    } finally {
      if (grandchild > 0) {
        try {
          process.kill(grandchild, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  });
});
