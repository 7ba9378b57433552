/**
 * What the preload puts into the app's start-up, in real Node. `node:v8` loads perf_hooks and every
 * stream module (41 modules, about 5 ms in a process started with V8 flags, whose built-ins compile
 * without Node's code cache): the preload leaves it until its first tick or the exit, unless a flag
 * must be set before the app runs (the GC trace, the code traces of a run with deopts); then it
 * loads it first, while no V8 flag is set and the cache still applies.
 */
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { envFileText } from '../../src/core/flags/envFile';
import type { AgentRecord } from '../../src/core/preload/agentRecord';
import { NODES, REPO, tempDir } from './cliHarness';

const PRELOAD = join(REPO, 'dist', 'agent', 'preload.js');
const LAB_PRELOAD = join(REPO, 'dist', 'agent', 'lab-preload.js');

/** A script that says, at its first line, whether node:v8 was loaded before it, then allocates a little and ends. */
function writeProbe(dir: string): string {
  const path = join(dir, 'probe.js');
  writeFileSync(path, "console.log('v8 loaded before the app: ' + process.moduleLoadList.includes('NativeModule v8'));\nlet keep = [];\nfor (let i = 0; i < 200000; i++) keep[i % 1000] = { i };\n");
  return path;
}

/** Runs a script the caller writes into a fresh folder under the preload, with an agent folder there, as a launch does. */
function spawnWithPreload(
  nodePath: string,
  { flags, env, preload = PRELOAD, script, fd3 = false }: { flags: string[]; env: Record<string, string>; preload?: string; script: (dir: string) => string; fd3?: boolean },
): { r: SpawnSyncReturns<string>; agentDir: string } {
  const dir = tempDir();
  const agentDir = join(dir, 'agent');
  mkdirSync(agentDir); // the launcher makes it (the lab's agent expects it there)
  const r = spawnSync(nodePath, [...flags, '--require', preload, script(dir)], {
    env: { ...process.env, V8_LENS_AGENT_DIR: agentDir, ...env },
    encoding: 'utf8',
    stdio: fd3 ? ['ignore', 'pipe', 'pipe', 'pipe'] : 'pipe',
    timeout: 30_000,
  });
  assert.equal(r.status, 0, r.stderr);
  return { r, agentDir };
}

function runProbe(nodePath: string, env: Record<string, string>, flags: string[] = [], preload = PRELOAD): { stdout: string; record: AgentRecord } {
  const { r, agentDir } = spawnWithPreload(nodePath, { flags: ['--trace-gc', ...flags], env, preload, script: writeProbe });
  const [file] = readdirSync(agentDir).filter((f) => /^\d+\.json$/.test(f));
  return { stdout: r.stdout, record: JSON.parse(readFileSync(join(agentDir, file!), 'utf8')) as AgentRecord };
}

/**
 * Which built-ins Node compiled with and without its embedded code cache before the app's first
 * line (Node's own counters, behind --expose-internals, a Node option that leaves V8's flags alone).
 */
function cacheUsage(nodePath: string, env: Record<string, string>, flags: string[]): { withCache: string[]; withoutCache: string[] } {
  const { r } = spawnWithPreload(nodePath, {
    flags: ['--expose-internals', ...flags],
    env,
    fd3: true,
    script: (dir) => {
      const probe = join(dir, 'cache-probe.js');
      writeFileSync(
        probe,
        "const { internalBinding } = require('internal/test/binding');\n" +
          "const u = internalBinding('builtins').getCacheUsage();\n" +
          "require('fs').writeSync(3, JSON.stringify({ withCache: [...u.compiledWithCache], withoutCache: [...u.compiledWithoutCache].filter((m) => m !== 'internal/test/binding') }));\n",
      );
      return probe;
    },
  });
  return JSON.parse(String(r.output[3])) as { withCache: string[]; withoutCache: string[] };
}

describe("the preload's part of the app's start-up", () => {
  for (const node of NODES) {
    it(`${node.label}: node:v8 is not loaded before the app runs; the heap is read at the exit all the same`, { timeout: 60_000 }, () => {
      const { stdout, record } = runProbe(node.path, {});
      assert.match(stdout, /^v8 loaded before the app: false$/m);
      assert.deepEqual(record.errors, []);
      assert.equal(record.final, true);
      assert.ok((record.heapSizeLimitBytes ?? 0) > 64 * 2 ** 20, `heap limit ${record.heapSizeLimitBytes}`);
      assert.ok(record.newSpaceMaxBytes > 0, 'the new space, read at the exit');
    });

    it(`${node.label}: the lab's agent (its measured rounds) does not load node:v8 before the app either, and still records the heap at the exit`, { timeout: 60_000 }, () => {
      const { stdout, record } = runProbe(node.path, {}, [], LAB_PRELOAD);
      assert.match(stdout, /^v8 loaded before the app: false$/m);
      assert.equal(record.final, true);
      assert.ok((record.heapSizeLimitBytes ?? 0) > 64 * 2 ** 20, `heap limit ${record.heapSizeLimitBytes}`);
      assert.ok(record.newSpaceMaxBytes > 0, 'the new space, read at the exit');
    });

    it(`${node.label}: with code traces (a run with deopts) it is, to set V8's trace flags before the app's code runs`, { timeout: 60_000 }, () => {
      const traces = tempDir();
      const { stdout, record } = runProbe(node.path, { V8_LENS_CODE_TRACE_DIR: traces }, ['--redirect-code-traces', `--redirect-code-traces-to=${join(traces, 'code-startup.asm')}`]);
      assert.match(stdout, /^v8 loaded before the app: true$/m);
      assert.deepEqual(record.errors, []);
      assert.equal(record.codeTrace?.own, true, JSON.stringify(record.codeTrace));
    });

    it(`${node.label}: the default preset's preload loads its built-ins from Node's code cache: it sets the GC and code traces itself, after loading them`, { timeout: 60_000 }, () => {
      const traces = tempDir();
      const heap = tempDir();
      // What planDirectLaunch gives the default preset: no V8 flag on the command line, the settings
      // in the environment and in Node's --env-file (a Node option).
      const settings = { V8_LENS_TRACE_GC: '1', V8_LENS_CODE_TRACE_DIR: traces, V8_LENS_ALLOC_DIR: heap };
      const envFile = join(tempDir(), 'agent.env');
      writeFileSync(envFile, envFileText(settings)!);
      const fromPreload = cacheUsage(node.path, settings, [`--env-file=${envFile}`]);
      for (const m of ['v8', 'inspector']) assert.ok(fromPreload.withCache.includes(m), `${m} compiled from the code cache (${JSON.stringify(fromPreload)})`);
      assert.deepEqual(fromPreload.withoutCache, [], 'nothing the preload loads is compiled from source');
      // The control: a V8 flag on the command line, as the GC trace was, and no built-in uses the cache.
      const fromCommandLine = cacheUsage(node.path, { V8_LENS_CODE_TRACE_DIR: traces, V8_LENS_ALLOC_DIR: heap }, ['--trace-gc']);
      assert.ok(fromCommandLine.withoutCache.includes('v8') && fromCommandLine.withoutCache.includes('inspector'), JSON.stringify(fromCommandLine));
    });

    it(`${node.label}: a code-trace folder that is not there is made (V8 aborts on a trace file it cannot open), and no trace line reaches the app's stdout`, { timeout: 60_000 }, () => {
      const traces = join(tempDir(), 'removed', 'v8');
      // No --redirect-code-traces on the command line either (the preload switches it on itself).
      const { stdout, record } = runProbe(node.path, { V8_LENS_CODE_TRACE_DIR: traces });
      assert.deepEqual(record.errors, []);
      assert.equal(record.codeTrace?.own, true, JSON.stringify(record.codeTrace));
      assert.ok(readdirSync(traces).includes(`code-${record.pid}-0.asm`), readdirSync(traces).join(', '));
      assert.doesNotMatch(stdout, /\[(marking|compiling|completed|bailout)/, 'a trace line in the app\'s output');
    });

    it(`${node.label}: a code-trace folder that cannot be made: the app runs as without V8 Lens, and the record says why`, { timeout: 60_000 }, () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'a-file'), '');
      const { stdout, record } = runProbe(node.path, { V8_LENS_CODE_TRACE_DIR: join(dir, 'a-file', 'v8') });
      assert.match(stdout, /^v8 loaded before the app: (true|false)$/m);
      assert.doesNotMatch(stdout, /\[(marking|compiling|completed|bailout)/, 'a trace line in the app\'s output');
      assert.equal(record.codeTrace, null);
      assert.match(record.errors.join('\n'), /^code trace: .*(ENOTDIR|EEXIST|not a directory)/im);
    });
  }
});
