/**
 * The CLI's code cache (src/cliLauncher.ts): written by the first run of a command, used as it is
 * by the next (not rewritten), rewritten when V8 rejects it (a damaged file), never written with
 * NODE_DISABLE_COMPILE_CACHE=1, and never in the way: every run's output is the same.
 */
import assert from 'node:assert/strict';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROGRAMS, readSummary, runCli, tempDir } from './cliHarness';

describe('the CLI code cache', () => {
  const script = join(PROGRAMS, 'deopts.js');
  const files = (dir: string): string[] => {
    try {
      return readdirSync(dir).filter((f) => f.endsWith('.bin'));
    } catch {
      return [];
    }
  };

  it('is written by the first run of a command, used unchanged by the next, rewritten when damaged, and changes no output', { timeout: 120_000 }, async () => {
    const tmp = tempDir();
    const env = { TMPDIR: tmp, NODE_DISABLE_COMPILE_CACHE: '' };
    const cacheDir = () => join(tmp, readdirSync(tmp).find((d) => d.startsWith('v8-lens-compile-cache-'))!);
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
    assert.deepEqual(written.map((f) => f.replace(/-v.*/, '')), ['profile'], `one cache per command: ${written.join(', ')}`);
    assert.deepEqual(first.deopts, ['not a Smi at 4', 'wrong map at 8'], JSON.stringify(first));
    const profileCache = join(cacheDir(), written.find((f) => f.startsWith('profile-'))!);
    const { mtimeMs, size } = statSync(profileCache);
    assert.ok(size > 100_000, `the cache holds the functions the run compiled (${size} bytes)`);

    assert.deepEqual(await summarize(2), first);
    assert.equal(statSync(profileCache).mtimeMs, mtimeMs, 'a cache V8 accepted is not rewritten');

    writeFileSync(profileCache, Buffer.alloc(4096, 7));
    assert.deepEqual(await summarize(3), first);
    assert.ok(statSync(profileCache).size > 100_000, 'a cache V8 rejected is written again');
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 writes none', async () => {
    const tmp = tempDir();
    const r = await runCli(['profile', '--preset', 'cpu-gc', '--out', join(tmp, 'run'), '--', script], { env: { TMPDIR: tmp, NODE_DISABLE_COMPILE_CACHE: '1' } });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(tmp).filter((d) => d.startsWith('v8-lens-compile-cache-')), []);
  });
});
