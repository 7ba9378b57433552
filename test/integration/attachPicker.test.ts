/**
 * The attach picker's list on real processes (issue 21: it offered other editors' tsserver and
 * jsonServerMain, and V8 Lens's own load runner): Node processes started here as an editor starts
 * its helpers, V8 Lens's load runner forked as V8 Lens forks it, and a user's server, all read back
 * from /proc. Only the user's server is offered; each other one is left out with its reason.
 */
import assert from 'node:assert/strict';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { LOCAL_PROCESS_LISTING_SUPPORTED, listLocalNodeProcesses } from '../../src/core/attach/localNodeProcesses';
import { loadRunnerPath } from '../../src/core/launcher/bundledScripts';
import { tempDir } from './cliHarness';

const WAIT = "setInterval(() => {}, 1000); process.on('SIGTERM', () => process.exit(0));";

describe('attach picker: only the user\'s programs', { skip: LOCAL_PROCESS_LISTING_SUPPORTED ? false : 'reads /proc (Linux only)' }, () => {
  const started: ChildProcess[] = [];
  after(() => {
    for (const child of started) child.kill('SIGKILL');
  });

  /** A Node process that waits, running `script` (created with WAIT) with `args`. */
  function startScript(script: string, args: string[] = []): ChildProcess {
    mkdirSync(dirname(script), { recursive: true });
    writeFileSync(script, WAIT);
    const child = spawn(process.execPath, [script, ...args], { stdio: 'ignore' });
    started.push(child);
    return child;
  }

  it('offers the user\'s server; leaves out tsserver, jsonServerMain, an extension host and V8 Lens\'s load runner', { timeout: 30_000 }, async () => {
    const home = tempDir('v8-lens-picker-');
    const user = startScript(join(home, 'project', 'server.js'), ['--port', '3000']);
    const helpers = new Map<number, string>([
      [startScript(join(home, 'project', 'node_modules', 'typescript', 'lib', 'tsserver.js'), ['--serverMode', 'partialSemantic']).pid!, 'a language server'],
      [startScript(join(home, '.vscode-server', 'bin', 'abc123', 'extensions', 'json-language-features', 'server', 'dist', 'node', 'jsonServerMain.js'), ['--node-ipc']).pid!, 'a language server'],
      [startScript(join(home, 'code-server', 'lib', 'vscode', 'out', 'bootstrap-fork.js'), ['--type=extensionHost']).pid!, "the editor's own process"],
    ]);
    // V8 Lens's load generator as V8 Lens forks it: it waits for its job over IPC.
    const runner = fork(loadRunnerPath(), [], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    started.push(runner);
    helpers.set(runner.pid!, "V8 Lens's own load generator");
    await new Promise((r) => setTimeout(r, 300));

    const hidden = new Map<number, string>();
    const offered = await listLocalNodeProcesses({ onHidden: (pid, why) => hidden.set(pid, why) });
    const offeredPids = new Set(offered.map((p) => p.pid));
    assert.ok(offeredPids.has(user.pid!), `the user's server is offered: ${offered.map((p) => p.commandLine).join(' | ')}`);
    assert.match(offered.find((p) => p.pid === user.pid)!.commandLine, /project\/server\.js --port 3000$/);
    for (const [pid, why] of helpers) {
      assert.equal(offeredPids.has(pid), false, `${pid} (${why}) is not offered`);
      assert.equal(hidden.get(pid), why);
    }
  });
});
