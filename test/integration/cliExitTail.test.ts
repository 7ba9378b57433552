/**
 * A program that ends by itself ends the CLI's run: once the target has exited and the summary is
 * written, nothing (a timer raced against the output closing, a watcher, a socket) may hold the
 * CLI's event loop. A watchdog loaded into the CLI process (test/fixtures/programs/cli-exit-watch.cjs)
 * names whatever still holds it; the bug this guards against kept every run alive 2 s longer.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CLI, PROGRAMS, collect, tempDir } from './cliHarness';
import { spawn } from 'node:child_process';

interface ExitFacts {
  targetExitAt: number | null;
  cliExitAt: number | null;
  stillAlive: { afterMs: number; resources: string[] } | null;
}

function profileWatched(args: string[]): Promise<{ code: number | null; stderr: string; facts: ExitFacts }> {
  const dir = tempDir();
  const record = join(dir, 'exit-watch.json');
  const child = spawn(process.execPath, ['--require', join(PROGRAMS, 'cli-exit-watch.cjs'), CLI, ...args], {
    env: { ...process.env, V8_LENS_TEST_EXIT_WATCH: record },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collect(child, 60_000).then((r) => ({ ...r, facts: JSON.parse(readFileSync(record, 'utf8')) as ExitFacts }));
}

describe('the CLI ends with the program it profiles', () => {
  it('a no-op script: no handle outlives the target, the CLI exits right after the summary', async () => {
    const dir = tempDir();
    const script = join(dir, 'noop.js');
    writeFileSync(script, '// does nothing and ends\n');
    const r = await profileWatched(['profile', '--out', join(dir, 'run'), '--', script]);
    assert.equal(r.code, 0, r.stderr);
    assert.notEqual(r.facts.targetExitAt, null, 'the watchdog saw the target exit');
    assert.equal(r.facts.stillAlive, null, `the CLI was still alive ${r.facts.stillAlive?.afterMs} ms after the target ended, held by: ${r.facts.stillAlive?.resources.join(', ')}`);
    assert.ok(r.facts.cliExitAt! > r.facts.targetExitAt!);
  });

  it('a script that writes output and a CPU profile: the same', async () => {
    const dir = tempDir();
    const r = await profileWatched(['profile', '--preset', 'cpu-gc', '--out', join(dir, 'run'), '--', join(PROGRAMS, 'chatty.js'), '300']);
    assert.equal(r.code, 0, r.stderr);
    assert.notEqual(r.facts.targetExitAt, null);
    assert.equal(r.facts.stillAlive, null, `held by: ${r.facts.stillAlive?.resources.join(', ')}`);
  });

  it('under load (--url auto), a target that ends before it prints a URL: the wait for the URL goes with it', async () => {
    const dir = tempDir();
    const script = join(dir, 'noop.js');
    writeFileSync(script, '// ends without serving anything\n');
    const r = await profileWatched(['profile', '--url', 'auto', '--out', join(dir, 'run'), '--', script]);
    assert.equal(r.code, 1, 'no load ran: the run says so with exit code 1');
    assert.notEqual(r.facts.targetExitAt, null);
    assert.equal(r.facts.stillAlive, null, `held by: ${r.facts.stillAlive?.resources.join(', ')}`);
  });
});
