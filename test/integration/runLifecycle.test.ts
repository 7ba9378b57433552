/**
 * Long-running targets are the normal case: a server runs until it is stopped. A graceful stop
 * (timeout or Ctrl-C) keeps the CPU profile; a second Ctrl-C kills at once; in every case no
 * process of the target's outlives the run. The app's own output passes through untouched.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROGRAMS, collect, readSession, readSummary, runCli, startCli, tempDir, waitForOutput, waitUntilEnded, waitUntilGone } from './cliHarness';

describe('stopping a server', () => {
  it('--timeout stops it gracefully: the profile is kept and its child process is gone', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['profile', '--timeout', '2', '--out', out, '--', join(PROGRAMS, 'http-server.js')], { env: { SPAWN_CHILD: '1' } });
    assert.equal(r.code, 0, r.stderr);
    const childPid = Number(/child pid (\d+)/.exec(r.stdout)?.[1]);
    const session = readSession(out);
    assert.equal(session.status, 'stopped');
    assert.equal(session.exit?.requested, 'stop');
    assert.equal(session.exit?.hardKilled, false);
    assert.deepEqual(await waitUntilGone([session.pid!, childPid]), []);
    const summary = readSummary(out);
    assert.ok(summary.cpu && summary.cpu.sampleCount > 100, 'the CPU profile survived the stop');
    assert.ok(summary.gc!.byType.Scavenge!.count > 0);
    assert.ok(summary.cpu.durationMs > 1500 && summary.cpu.durationMs < 10_000, `profile covers ${summary.cpu.durationMs} ms`);
  });

  it('Ctrl-C once stops and keeps the profile', async () => {
    const out = join(tempDir(), 'run');
    const cli = startCli(['profile', '--out', out, '--', join(PROGRAMS, 'http-server.js')], { env: { SPAWN_CHILD: '1' } });
    const done = collect(cli, 30_000);
    const [, childPid] = await waitForOutput(cli, /child pid (\d+)/);
    await new Promise((r) => setTimeout(r, 500));
    cli.kill('SIGINT');
    const r = await done;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /stopping the target/);
    const session = readSession(out);
    assert.equal(session.status, 'stopped');
    assert.equal(readdirSync(join(out, 'cpu')).filter((f) => f.endsWith('.cpuprofile')).length, 1);
    assert.deepEqual(await waitUntilGone([session.pid!, Number(childPid)]), []);
  });

  it('Ctrl-C twice cancels at once and leaves no process behind', async () => {
    const dir = tempDir();
    // A target whose own SIGINT handler never finishes: only the second Ctrl-C can end it.
    const script = join(dir, 'slow-to-stop.js');
    writeFileSync(
      script,
      "const { spawn } = require('node:child_process');\n" +
        "const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });\n" +
        "process.on('SIGINT', () => console.log('shutting down slowly'));\n" +
        "setInterval(() => {}, 1000);\n" +
        "console.log(`child pid ${child.pid}`);\n",
    );
    const out = join(dir, 'run');
    const cli = startCli(['profile', '--out', out, '--', script], { env: { V8_LENS_EXIT_GRACE_MS: '60000' } });
    const done = collect(cli, 30_000);
    const [, childPid] = await waitForOutput(cli, /child pid (\d+)/);
    const targetPid = readSession(out).pid!;
    cli.kill('SIGINT');
    // Signals sent back to back can merge into one: wait until the first was handled.
    await waitForOutput(cli, /shutting down slowly/);
    cli.kill('SIGINT');
    const r = await done;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readSession(out).status, 'cancelled');
    assert.deepEqual(await waitUntilGone([targetPid, Number(childPid)]), []);
    assert.ok(readSummary(out).gc, 'the GC trace collected before the kill is kept');
  });

  it('V8 Lens killed outright (SIGKILL): the target stops itself, keeps its profile, and takes its child along', async () => {
    const out = join(tempDir(), 'run');
    const cli = startCli(['profile', '--out', out, '--', join(PROGRAMS, 'http-server.js')], { env: { SPAWN_CHILD: '1' } });
    const done = collect(cli, 30_000);
    const [, childPid] = await waitForOutput(cli, /child pid (\d+)/);
    const targetPid = readSession(out).pid!;
    cli.kill('SIGKILL');
    await done;
    // Reparented to whatever reaps orphans here, which may leave zombies: a zombie has ended.
    assert.deepEqual(await waitUntilEnded([targetPid, Number(childPid)], 10_000), [], 'no process outlives a killed V8 Lens');
    assert.equal(readdirSync(join(out, 'cpu')).filter((f) => f.endsWith('.cpuprofile')).length, 1, 'the target exited normally, so Node wrote its profile');
    const record = JSON.parse(readFileSync(join(out, 'agent', `${targetPid}.json`), 'utf8')) as { final: boolean; stopSignal: string | null };
    assert.deepEqual([record.final, record.stopSignal], [true, 'SIGTERM']);
  });

  it('a target that ignores SIGINT is killed after the grace time', async () => {
    const dir = tempDir();
    const script = join(dir, 'stubborn.js');
    writeFileSync(script, "process.on('SIGINT', () => console.log('not stopping')); process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); console.log('up');\n");
    const out = join(dir, 'run');
    const r = await runCli(['profile', '--timeout', '1', '--stop-grace', '1', '--out', out, '--', script], {
      env: { V8_LENS_EXIT_GRACE_MS: '60000' },
    });
    assert.equal(r.code, 0, r.stderr);
    const session = readSession(out);
    assert.equal(session.exit?.hardKilled, true);
    assert.deepEqual(await waitUntilGone([session.pid!]), []);
    assert.ok(readSummary(out).warnings.some((w) => /did not stop within the grace time/.test(w)));
  });
});

describe('output', () => {
  it("passes the app's stdout through untouched and keeps V8's GC lines out of it", async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['profile', '--preset', 'gc', '--out', out, '--', join(PROGRAMS, 'noisy-stdout.js')]);
    assert.equal(r.code, 0, r.stderr);
    const appPart = r.stdout.slice(0, r.stdout.indexOf('\nGC'));
    assert.equal(appPart, '[INFO] starting\n[1, 2, 3]\nprogress: ####\n[12:0xabc] not a gc line\ndone\r\n');
    assert.ok(readSummary(out).gc!.eventCount > 0);
  });
});

describe('targets started through NODE_OPTIONS (npm scripts)', () => {
  it('profiles the app, not npm, with the GC trace and CPU profile taken by the preload', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'app'));
    writeFileSync(
      join(dir, 'app', 'package.json'),
      JSON.stringify({ name: 'npm-target', version: '1.0.0', private: true, scripts: { burn: `node ${JSON.stringify(join(PROGRAMS, 'cpu-burn.js'))} 600` } }),
    );
    const out = join(dir, 'run');
    const r = await runCli(['profile', '--out', out, '--semi-space', '32', '--', 'npm', 'run', 'burn'], { cwd: join(dir, 'app') });
    assert.equal(r.code, 0, r.stderr);
    const session = readSession(out);
    assert.equal(session.launch.mode, 'node-options');
    assert.match(session.launch.env.NODE_OPTIONS!, /--max-semi-space-size=32 --require=/);
    const summary = readSummary(out);
    assert.equal(summary.cpu!.functions[0]!.name, 'burnCycles');
    assert.ok(summary.warnings.some((w) => /deopts need a direct launch/.test(w)));
    assert.equal(summary.gc!.semiSpaceRequestedMB, 32);
  });
});

describe('the environment the target inherits', () => {
  it('an inherited NODE_OPTIONS is said at the start and recorded in session.json', { timeout: 60_000 }, async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['profile', '--preset', 'gc', '--out', out, '--', join(PROGRAMS, 'cpu-burn.js')], { env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=123' } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /the target inherits NODE_OPTIONS=--max-old-space-size=123 \(recorded in session\.json\)/);
    assert.equal(readSession(out).flags.inheritedNodeOptions, '--max-old-space-size=123');
    const without = join(tempDir(), 'run');
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    assert.equal((await runCli(['profile', '--preset', 'gc', '--out', without, '--', join(PROGRAMS, 'cpu-burn.js')], { env })).code, 0);
    assert.equal(readSession(without).flags.inheritedNodeOptions, null);
  });
});

describe('--help after each command', () => {
  for (const command of ['profile', 'report', 'compare', 'export', 'sweep', 'attach']) {
    it(`v8-lens ${command} --help: its usage and options, the exit codes, exit 0`, async () => {
      const r = await runCli([command, '--help']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^Usage:\\n  v8-lens ${command} `));
      assert.match(r.stdout, new RegExp(`\\n${command} options`));
      assert.match(r.stdout, /Exit codes \(every command\):\n  0 .*\n  1 .*\n  2 .*\n  70 .*\n  130 /);
    });
  }
});
