/**
 * pprof out and in (issue 15) through the real CLI, held against an outside reader: Go's own
 * `go tool pprof` (Debian's golang-go; .ci/run installs it) lists the same top functions with the
 * same self times as `v8-lens report --json` of the same run, within one sample, on Node 20/22/24;
 * the allocation export likewise in bytes; a run of several processes carries each one's samples
 * under its pid. The export opens again in `v8-lens report` with the same figures.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { Profile } from 'pprof-format';
import type { Summary } from '../../src/shared/model/summary';
import { pprofFunctionName } from '../../src/core/pprof/pprofNames';
import { NODES, PROGRAMS, readSession, readSummary, runCli, tempDir } from './cliHarness';
import { accountOf, preloadOf } from './v8LensOracle';

const TWO_ALLOCATORS = join(PROGRAMS, 'two-allocators.js');

function findGo(): string | null {
  for (const candidate of ['/usr/lib/go/bin/go', '/usr/bin/go', '/usr/local/go/bin/go']) if (existsSync(candidate)) return candidate;
  try {
    return execFileSync('sh', ['-c', 'command -v go'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}
const GO = findGo();
const skipWithoutGo = GO === null ? 'go tool pprof not found (apt-get install golang-go; .ci/run installs it)' : false;

/** `go tool pprof -top` flat values by function name, in the unit asked for. */
function goTop(file: string, unit: 'ms' | 'B', extra: string[] = []): Map<string, number> {
  const text = execFileSync(GO!, ['tool', 'pprof', '-top', '-nodecount=200', '-nodefraction=0', '-edgefraction=0', `-unit=${unit}`, ...extra, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: tempDir('go-home-'), GOFLAGS: '' } });
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^\s*([\d.]+)(ms|B)\s+[\d.]+%\s+[\d.]+%\s+[\d.]+(?:ms|B)\s+[\d.]+%\s+(.+)$/.exec(line);
    if (m) out.set(m[3]!.trim(), Number(m[1]));
  }
  assert.ok(out.size > 0, `go tool pprof -top printed no rows:\n${text}`);
  return out;
}

/** The report's functions summed by the name pprof gives them (pprof's -top groups by name), files named from the run's folder. */
function byPprofName(functions: readonly { name: string; url: string; line: number; column: number; value: number }[], cwd: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of functions) {
    const name = pprofFunctionName({ name: f.name, url: f.url, line: f.line, column: f.column }, cwd);
    out.set(name, (out.get(name) ?? 0) + f.value);
  }
  return out;
}

async function reportJson(target: string): Promise<Summary> {
  const r = await runCli(['report', target, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Summary;
}

describe('pprof export and its help text', () => {
  it('--help names exactly the sample types the exports hold (alloc_space, no alloc_objects)', { timeout: 90_000 }, async () => {
    const help = await runCli(['--help']);
    assert.equal(help.code, 0, help.stderr);
    const paragraph = /--pprof FILE([\s\S]*?)\n  --type/.exec(help.stdout)?.[1] ?? '';
    // type/unit as pprof writes them ("pid/process labels" is not one).
    const promised = new Set([...paragraph.matchAll(/\b([a-z_]+)\/(count|nanoseconds|microseconds|milliseconds|bytes)\b/g)].map((m) => `${m[1]}/${m[2]}`));
    assert.ok(promised.size > 0, `the --pprof help names its sample types: ${paragraph}`);

    const dir = tempDir();
    const run = join(dir, 'run');
    assert.equal((await runCli(['profile', '--preset', 'cpu-gc-alloc', '--out', run, '--', TWO_ALLOCATORS])).code, 0);
    const written = new Set<string>();
    for (const type of ['cpu', 'alloc']) {
      const file = join(dir, `${type}.pb.gz`);
      const e = await runCli(['export', run, '--pprof', file, '--type', type]);
      assert.equal(e.code, 0, e.stderr);
      const profile = Profile.decode(gunzipSync(readFileSync(file)));
      const str = (i: number | bigint) => profile.stringTable.strings[Number(i)]!;
      for (const t of profile.sampleType) written.add(`${str(t.type)}/${str(t.unit)}`);
    }
    assert.deepEqual([...promised].sort(), [...written].sort());
  });
});

describe('pprof export, read by go tool pprof', { skip: skipWithoutGo }, () => {
  for (const node of NODES) {
    it(`${node.label}: the top functions and their self times (CPU) and bytes (allocations) are the report's`, { timeout: 120_000 }, async () => {
      const dir = tempDir();
      const run = join(dir, 'run');
      const r = await runCli(['profile', '--node', node.path, '--preset', 'cpu-gc-alloc', '--out', run, '--', TWO_ALLOCATORS]);
      assert.equal(r.code, 0, r.stderr);
      const summary = readSummary(run);
      assert.ok(summary.cpu && summary.alloc, summary.warnings.join('\n'));

      const cpuFile = join(dir, 'cpu.pb.gz');
      const e = await runCli(['export', run, '--pprof', cpuFile]);
      assert.equal(e.code, 0, e.stderr);
      assert.match(e.stderr, /wrote .*cpu\.pb\.gz: CPU as pprof \(samples\/count, cpu\/nanoseconds\), [\d,]+ samples/);
      assert.match(e.stderr, /--type alloc/, 'the run has allocations too, and the note says how to export them');

      const go = goTop(cpuFile, 'ms');
      const cwd = readSession(run).target.cwd;
      const ours = byPprofName(summary.cpu.functions.map((f) => ({ ...f, value: f.selfMs })), cwd);
      const interval = summary.cpu.sampleIntervalMs;
      const top = [...ours].sort((a, b) => b[1] - a[1]).slice(0, 10);
      for (const [name, selfMs] of top) {
        if (selfMs < interval) continue;
        const theirs = go.get(name);
        assert.ok(theirs !== undefined, `go tool pprof lists ${name} (${selfMs.toFixed(2)} ms in the report): ${[...go.keys()].slice(0, 12).join(', ')}`);
        assert.ok(Math.abs(theirs - selfMs) <= interval, `${name}: go tool pprof ${theirs} ms, v8-lens report ${selfMs.toFixed(2)} ms (one sample is ${interval} ms)`);
      }
      assert.ok(go.has('bigAllocator') || go.has('(garbage collector)'), 'the program\'s own work is there');

      const allocFile = join(dir, 'alloc.pb.gz');
      const a = await runCli(['export', run, '--pprof', allocFile, '--type', 'alloc']);
      assert.equal(a.code, 0, a.stderr);
      const goBytes = goTop(allocFile, 'B', ['-sample_index=alloc_space']);
      const ourBytes = byPprofName(summary.alloc.functions.map((f) => ({ ...f, value: f.selfBytes })), cwd);
      for (const name of ['bigAllocator', 'smallAllocator']) {
        const theirs = goBytes.get(name);
        // Within one sample: pprof prints bytes rounded, V8 Lens sums V8's own estimates.
        assert.ok(theirs !== undefined && Math.abs(theirs - ourBytes.get(name)!) <= summary.alloc.samplingIntervalBytes, `${name}: go ${theirs} B, v8-lens ${ourBytes.get(name)} B`);
      }
      const big = goBytes.get('bigAllocator')!;
      const small = goBytes.get('smallAllocator')!;
      assert.ok(big / small > 5 && big / small < 20, `the 10:1 allocators come out ${(big / small).toFixed(1)}:1 in pprof`);

      // The export opens in V8 Lens again, with the same figures.
      const back = await reportJson(cpuFile);
      assert.equal(back.source.kind, 'pprof');
      const backFn = back.cpu!.functions.find((f) => f.name === 'bigAllocator');
      const origFn = summary.cpu.functions.find((f) => f.name === 'bigAllocator');
      assert.ok(origFn, 'bigAllocator is among the run\'s functions');
      assert.ok(backFn && Math.abs(backFn.selfMs - origFn.selfMs) < 0.01, `bigAllocator ${backFn?.selfMs} ms back from pprof, ${origFn.selfMs} ms in the run`);
      assert.equal(back.cpu!.sampleCount, summary.cpu.sampleCount, 'samples/count keeps V8\'s sample count');
      const backAlloc = await reportJson(allocFile);
      assert.ok(Math.abs(backAlloc.alloc!.totalBytes - summary.alloc.totalBytes) <= summary.alloc.samplingIntervalBytes, `${backAlloc.alloc!.totalBytes} B back, ${summary.alloc.totalBytes} B in the run`);
      assert.ok(!backAlloc.alloc!.liveOnly, 'alloc_space: garbage included');
    });
  }

  it('a run of several processes: each one\'s samples under its pid, their time its own profile\'s', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const run = join(dir, 'run');
    const r = await runCli(['profile', '--out', run, '--', join(PROGRAMS, 'fork-parent.js')]);
    assert.equal(r.code, 0, r.stderr);
    const summary = readSummary(run);
    const withCpu = (summary.processes ?? []).filter((p) => p.cpu && p.role !== 'npm');
    assert.ok(withCpu.length >= 2, `parent and child profiled: ${JSON.stringify(summary.processes?.map((p) => p.role))}`);
    const file = join(dir, 'cpu.pb.gz');
    const e = await runCli(['export', run, '--pprof', file]);
    assert.equal(e.code, 0, e.stderr);

    const profile = Profile.decode(gunzipSync(readFileSync(file)));
    const str = (i: number | bigint) => profile.stringTable.strings[Number(i)]!;
    const cpuIndex = profile.sampleType.findIndex((t) => str(t.type) === 'cpu');
    assert.equal(str(profile.defaultSampleType), 'cpu');
    const nsByPid = new Map<number, number>();
    for (const s of profile.sample) {
      const pid = s.label.find((l) => str(l.key) === 'pid');
      assert.ok(pid, 'every sample of a multi-process run carries its pid');
      nsByPid.set(Number(pid.num), (nsByPid.get(Number(pid.num)) ?? 0) + Number(s.value[cpuIndex]));
    }
    const preload = preloadOf(readSession(run));
    for (const p of withCpu) {
      // The time the process's own .cpuprofile samples cover, from its first sample to its end, but
      // V8 Lens's agent's (worked out from the same file): the export leaves the agent out.
      const v8 = accountOf(join(run, 'cpu', p.cpu!.profile), preload);
      const appMs = v8.coveredMs - v8.v8LensMs;
      const ms = (nsByPid.get(p.pid) ?? 0) / 1e6;
      assert.ok(Math.abs(ms - appMs) <= 1, `pid ${p.pid} (${p.role}): ${ms.toFixed(2)} ms in pprof, ${appMs.toFixed(2)} ms of the app sampled in its .cpuprofile (${v8.v8LensMs.toFixed(2)} ms of the agent left out)`);
    }
    const comments = profile.comment.map(str);
    assert.ok(comments.some((c) => /^node v\d+/.test(c)) && comments.some((c) => c.startsWith('command: ')), `the run's metadata as comments: ${comments.join(' | ')}`);
  });
});
