/**
 * The CLI's code cache (src/cliLauncher.ts, core/util/codeCache.ts): written by the first run of a
 * command into the user's own cache folder, used as it is by the next (not rewritten), rewritten
 * when V8 rejects it (a damaged file), never read from a folder or file someone else could have
 * written, never written with NODE_DISABLE_COMPILE_CACHE=1, and never in the way: every run's
 * output is the same.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROGRAMS, REPO, readSummary, runCli, tempDir } from './cliHarness';

describe('the code caches of the CLI and of the extension', () => {
  const script = join(PROGRAMS, 'deopts.js');
  const files = (dir: string): string[] => {
    try {
      return readdirSync(dir).filter((f) => f.endsWith('.bin'));
    } catch {
      return [];
    }
  };

  it('is written by the first run of a command, used unchanged by the next, rewritten when damaged, and changes no output', { timeout: 120_000 }, async () => {
    const home = tempDir();
    const env = { XDG_CACHE_HOME: home, NODE_DISABLE_COMPILE_CACHE: '' };
    const cacheDir = () => join(home, 'v8-lens', 'code-cache');
    const summarize = async (n: number) => {
      const out = join(tempDir(), `run-${n}`);
      // The default preset: the analysis of deopts too, which compiles the most.
      const r = await runCli(['profile', '--out', out, '--', script], { env });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /done a9b/);
      // What the run found is the same whatever was compiled from where: the report's sections and
      // the program's two deopts (deopts.expected.json), at their lines.
      const sections = r.stdout.split('\n').filter((l) => /^[A-Z][A-Za-z-]*( [a-z-]+)*: /.test(l)).map((l) => l.slice(0, l.indexOf(':')));
      const expected = ['not a Smi at 4', 'wrong map at 8'];
      const deopts = [...new Set(readSummary(out).deopts.map((d) => `${d.reason} at ${d.line}`))].filter((d) => expected.includes(d)).sort();
      return { sections, deopts };
    };
    const first = await summarize(1);
    const written = files(cacheDir());
    assert.deepEqual(written.map((f) => f.replace(/-v\d.*/, '')), ['cli-main-profile'], `one cache per command: ${written.join(', ')}`);
    assert.equal(statSync(cacheDir()).mode & 0o777, 0o700, 'the folder is the user\'s alone');
    assert.deepEqual(first.deopts, ['not a Smi at 4', 'wrong map at 8'], JSON.stringify(first));
    const profileCache = join(cacheDir(), written.find((f) => f.startsWith('cli-main-profile-'))!);
    assert.equal(statSync(profileCache).mode & 0o777, 0o600);
    const { mtimeMs, size } = statSync(profileCache);
    assert.ok(size > 100_000, `the cache holds the functions the run compiled (${size} bytes)`);

    assert.deepEqual(await summarize(2), first);
    assert.equal(statSync(profileCache).mtimeMs, mtimeMs, 'a cache V8 accepted is not rewritten');

    writeFileSync(profileCache, Buffer.alloc(4096, 7));
    assert.deepEqual(await summarize(3), first);
    assert.ok(statSync(profileCache).size > 100_000, 'a cache V8 rejected is written again');

    // A folder others can write to is not trusted: its cache is neither read nor replaced.
    chmodSync(cacheDir(), 0o777);
    writeFileSync(profileCache, Buffer.alloc(4096, 7));
    assert.deepEqual(await summarize(4), first);
    assert.equal(statSync(profileCache).size, 4096, 'nothing is read from or written to a folder others can write');
    chmodSync(cacheDir(), 0o700);
    assert.deepEqual(await summarize(5), first);
    // A good cache that others could have written, in the user's own folder: not read (a cache
    // that was read and accepted is never rewritten), so it is written again, for the user alone.
    chmodSync(profileCache, 0o666);
    const before = statSync(profileCache).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(await summarize(6), first);
    assert.ok(statSync(profileCache).mtimeMs > before && (statSync(profileCache).mode & 0o777) === 0o600, 'a file others can write is not read, and is replaced');
  });

  it("the extension's entry loads the extension from its own cache the same way, and exports activate and deactivate", () => {
    const home = tempDir();
    // The extension bundle evaluated as the extension host would, with `vscode` stubbed.
    const probe = `
      const Module = require('module');
      const stub = new Proxy(function () {}, { get: (t, k) => (k === 'then' ? undefined : stub), construct: () => stub, apply: () => stub });
      const load = Module._load;
      Module._load = function (req, ...rest) { return req === 'vscode' ? stub : load.call(this, req, ...rest); };
      const ext = require(process.argv[1]);
      console.log(typeof ext.activate, typeof ext.deactivate);`;
    const entry = join(REPO, 'dist', 'extension.js');
    const run = () => spawnSync(process.execPath, ['-e', probe, entry], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: home, NODE_DISABLE_COMPILE_CACHE: '' } });
    const first = run();
    assert.equal(first.status, 0, first.stderr);
    assert.equal(first.stdout.trim(), 'function function');
    const [cache] = files(join(home, 'v8-lens', 'code-cache'));
    assert.match(cache ?? '', /^extension-main-activate-v\d/);
    const { mtimeMs } = statSync(join(home, 'v8-lens', 'code-cache', cache!));
    assert.equal(run().stdout.trim(), 'function function');
    assert.equal(statSync(join(home, 'v8-lens', 'code-cache', cache!)).mtimeMs, mtimeMs, 'used, not rewritten');
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 writes none', async () => {
    const home = tempDir();
    const r = await runCli(['profile', '--preset', 'cpu-gc', '--out', join(tempDir(), 'run'), '--', script], { env: { XDG_CACHE_HOME: home, NODE_DISABLE_COMPILE_CACHE: '1' } });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(files(join(home, 'v8-lens', 'code-cache')), []);
  });
});
