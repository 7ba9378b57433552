/**
 * V8 Lens never counts itself (issue 20): a default-preset run of a script that allocates, on every
 * Node of NODES, shows no preload.js frame in summary.json, the text report, the HTML report, the
 * gate or the pprof export. V8's own account is the raw .cpuprofile: the preload's frames are in it
 * (the agent really ran on the app's thread), and their time is exactly what `cpu.leftOut` states.
 * The same run holds the self-time identity (the functions' self times add up to the sampled time)
 * and the pprof names of the two modules' top levels (both "(anonymous) 1:1", in files both called
 * index.js) apart, in go tool pprof -top too.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { Profile } from 'pprof-format';
import { pprofFunctionName } from '../../src/core/pprof/pprofNames';
import { NODES, PROGRAMS, readSession, readSummary, runCli, tempDir } from './cliHarness';
import { accountOf, preloadOf } from './v8LensOracle';

const MAIN = join(PROGRAMS, 'modules', 'main.js');

function findGo(): string | null {
  for (const candidate of ['/usr/lib/go/bin/go', '/usr/bin/go', '/usr/local/go/bin/go']) if (existsSync(candidate)) return candidate;
  return null;
}
const GO = findGo();

/** `go tool pprof -top` flat ms by function name. */
function goTopMs(file: string): Map<string, number> {
  const text = execFileSync(GO!, ['tool', 'pprof', '-top', '-nodecount=500', '-nodefraction=0', '-edgefraction=0', '-unit=ms', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: tempDir('go-home-'), GOFLAGS: '' } });
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^\s*([\d.]+)ms\s+[\d.]+%\s+[\d.]+%\s+[\d.]+ms\s+[\d.]+%\s+(.+)$/.exec(line);
    if (m) out.set(m[2]!.trim(), Number(m[1]));
  }
  assert.ok(out.size > 0, `go tool pprof -top printed no rows:\n${text}`);
  return out;
}

describe('V8 Lens leaves itself out', () => {
  for (const node of NODES) {
    it(`${node.label}: no preload.js frame in the summary, the text, the HTML, the gate or the pprof; its time stated once, as V8's profile has it`, { timeout: 180_000 }, async () => {
      const dir = tempDir();
      const run = join(dir, 'run');
      const r = await runCli(['profile', '--node', node.path, '--out', run, '--', MAIN]);
      assert.equal(r.code, 0, r.stderr);
      const preload = preloadOf(readSession(run));
      const preloadUrl = pathToFileURL(preload).href;
      const mentions = (text: string) => text.includes('preload.js') || text.includes(preload);

      // V8's own account: the preload's frames are in the profile V8 wrote.
      const profiles = readdirSync(join(run, 'cpu'));
      assert.equal(profiles.length, 1, profiles.join(', '));
      const rawText = readFileSync(join(run, 'cpu', profiles[0]!), 'utf8');
      assert.ok(rawText.includes(preloadUrl), 'the raw .cpuprofile has the agent\'s frames: something to leave out');
      const v8 = accountOf(join(run, 'cpu', profiles[0]!), preload);
      assert.ok(v8.v8LensSamples > 0, 'some samples were taken in the agent');

      const summary = readSummary(run);
      const cpu = summary.cpu!;
      assert.ok(!mentions(JSON.stringify(summary)), `summary.json names the preload: ${JSON.stringify(summary).match(/.{80}preload\.js.{40}/)?.[0]}`);
      assert.ok(summary.alloc && summary.alloc.functions.length > 0, 'allocations were sampled');
      assert.ok(summary.tierHistory && summary.tierHistory.functions.length > 0, 'tiers were collected');

      // What is left out is what V8's profile has in the agent, said once.
      const leftOut = cpu.leftOut!;
      assert.ok(leftOut, 'cpu.leftOut is written');
      assert.equal(leftOut.v8LensSamples, v8.v8LensSamples);
      assert.ok(Math.abs(leftOut.v8LensMs - v8.v8LensMs) <= 0.01, `left out ${leftOut.v8LensMs} ms, V8's profile has ${v8.v8LensMs.toFixed(3)} ms in the agent`);
      assert.ok(Math.abs(leftOut.beforeFirstSampleMs - v8.beforeFirstMs) <= 0.001, `before the first sample: ${leftOut.beforeFirstSampleMs} ms, timeDeltas[0] = ${v8.beforeFirstMs} ms`);
      assert.equal(cpu.sampleCount, v8.samples - v8.v8LensSamples, 'the app\'s samples');
      // The identity: every function's self time (pseudo-frames included) adds up to the sampled time,
      // and that, what is left out and the stretch before the first sample make the profile's wall time.
      const selfSum = cpu.functions.reduce((sum, f) => sum + f.selfMs, 0);
      const rounding = 0.0005 * (cpu.functions.length + 1);
      assert.ok(Math.abs(selfSum - cpu.durationMs) <= rounding, `Σ self ${selfSum.toFixed(3)} ms, sampled ${cpu.durationMs} ms`);
      assert.ok(Math.abs(cpu.durationMs - (v8.coveredMs - v8.v8LensMs)) <= 0.01, `sampled ${cpu.durationMs} ms, V8's profile covers ${v8.coveredMs} ms of which ${v8.v8LensMs} ms the agent's`);
      assert.ok(Math.abs(cpu.durationMs + leftOut.v8LensMs + leftOut.beforeFirstSampleMs - v8.wallMs) <= 0.01, `${cpu.durationMs} + ${leftOut.v8LensMs} + ${leftOut.beforeFirstSampleMs} ms against the profile's ${v8.wallMs} ms`);

      // The text report says it once and lists no frame of the agent.
      assert.ok(!mentions(r.stdout), `the text report names the preload:\n${r.stdout}`);
      assert.match(r.stdout, /left out of every figure: V8 Lens's agent [\d.]+ ms \(\d+ samples on the app's threads\)/);

      // The HTML report: no frame of the preload (frames carry file:// URLs; session.json's command line is metadata).
      const html = join(dir, 'report.html');
      const h = await runCli(['report', run, '--html', html]);
      assert.equal(h.code, 0, h.stderr);
      const page = readFileSync(html, 'utf8');
      assert.ok(!page.includes(preloadUrl) && !page.includes(`"url":${JSON.stringify(preload)}`), 'the HTML report has a frame of the preload');
      assert.ok(page.includes('(V8 Lens)'), 'the time profile keeps the agent as one (V8 Lens) frame');

      // The gate, on the run against itself: per-function figures without the agent's.
      const gate = await runCli(['compare', run, run, '--fail-on', 'cpu.self:+10%,cpu.busy:+10%', '--json']);
      assert.ok(gate.code === 0 || gate.code === 1, gate.stderr);
      assert.ok(!mentions(gate.stdout), `the gate names the preload: ${gate.stdout.match(/.{80}preload\.js.{40}/)?.[0]}`);
      assert.match(gate.stdout, /allocate/, 'the gate held the app\'s own functions');

      // The pprof: no location in the preload, its time in no sample, and said in a comment.
      const pb = join(dir, 'cpu.pb.gz');
      const e = await runCli(['export', run, '--pprof', pb]);
      assert.equal(e.code, 0, e.stderr);
      const profile = Profile.decode(gunzipSync(readFileSync(pb)));
      const str = (i: number | bigint) => profile.stringTable.strings[Number(i)]!;
      for (const fn of profile.function) assert.ok(!mentions(str(fn.filename)) && !mentions(str(fn.name)), `a pprof function in the preload: ${str(fn.name)} ${str(fn.filename)}`);
      assert.ok(profile.comment.map(str).some((c) => c.startsWith("V8 Lens's agent: ")), 'the comment says what was left out');
      const cpuIndex = profile.sampleType.findIndex((t) => str(t.type) === 'cpu');
      const pprofMs = profile.sample.reduce((sum, s) => sum + Number(s.value[cpuIndex]), 0) / 1e6;
      assert.ok(Math.abs(pprofMs - cpu.durationMs) <= 0.01, `the pprof holds ${pprofMs.toFixed(3)} ms, the report ${cpu.durationMs} ms`);

      // The two modules' top levels keep their own names and times (go tool pprof groups by name).
      const cwd = readSession(run).target.cwd;
      const tops = cpu.functions.filter((f) => f.name === '(anonymous)' && f.line === 1 && /modules\/(one|two)\/index\.js$/.test(f.url));
      assert.equal(tops.length, 2, `both modules' top levels were sampled: ${JSON.stringify(tops)}`);
      const names = tops.map((f) => pprofFunctionName(f, cwd));
      assert.notEqual(names[0], names[1]);
      const inPprof = new Set(profile.function.map((f) => str(f.name)));
      for (const name of names) assert.ok(inPprof.has(name), `${name} is in the pprof: ${[...inPprof].filter((n) => n.startsWith('(anonymous')).join(', ')}`);
      if (GO) {
        const go = goTopMs(pb);
        for (const f of tops) {
          const theirs = go.get(pprofFunctionName(f, cwd));
          assert.ok(theirs !== undefined && Math.abs(theirs - f.selfMs) <= cpu.sampleIntervalMs, `${pprofFunctionName(f, cwd)}: go tool pprof ${theirs} ms, the report ${f.selfMs} ms`);
        }
        assert.ok(![...go.keys()].some(mentions), 'go tool pprof lists a preload function');
      }

      // Allocations: the agent allocated too (its record's JSON), and none of it is among the app's allocators.
      const heaps = readdirSync(join(run, 'heap'));
      assert.equal(heaps.length, 1);
      const allocText = await runCli(['export', run, '--pprof', join(dir, 'alloc.pb.gz'), '--type', 'alloc']);
      assert.equal(allocText.code, 0, allocText.stderr);
      const alloc = Profile.decode(gunzipSync(readFileSync(join(dir, 'alloc.pb.gz'))));
      const astr = (i: number | bigint) => alloc.stringTable.strings[Number(i)]!;
      for (const fn of alloc.function) assert.ok(!mentions(astr(fn.filename)), `an allocation pprof function in the preload: ${astr(fn.name)}`);
    });
  }
});

describe("V8 Lens's own GCs are kept apart", () => {
  for (const node of NODES) {
    it(`${node.label}: the sampler's "sampling profiler" Mark-Compact is in V8's trace, in no figure of the app, and stated once`, { timeout: 120_000 }, async () => {
      const run = join(tempDir(), 'run');
      const r = await runCli(['profile', '--node', node.path, '--out', run, '--', join(PROGRAMS, 'alloc-heavy.js')]);
      assert.equal(r.code, 0, r.stderr);
      // V8's own account, read apart from V8 Lens's parser: every timed GC line, and those V8 ran for the sampler.
      const lines = readFileSync(join(run, 'gc-trace.log'), 'utf8').split('\n').filter((l) => /^\[\d+:0x[0-9a-f]+(?::\d+)?\]\s+\d+ ms: /.test(l));
      const sampler = lines.filter((l) => / ms: .* sampling profiler; /.test(l));
      assert.equal(sampler.length, 1, `one stop of the sampler, one GC V8 ran for it:\n${sampler.join('\n')}`);
      const pause = Number(/, ([\d.]+) \/ [\d.]+ ms /.exec(sampler[0]!)![1]);
      const gc = readSummary(run).gc!;
      assert.equal(gc.eventCount, lines.length - 1, 'every GC but the sampler\'s');
      assert.deepEqual(gc.causedByV8Lens?.events, 1);
      assert.ok(Math.abs(gc.causedByV8Lens!.pauseMs - pause) < 0.01, `${gc.causedByV8Lens!.pauseMs} vs ${pause}`);
      assert.equal(gc.byReason['sampling profiler'] ?? 0, 0, 'not among the app\'s reasons');
      assert.match(r.stdout, /Caused by V8 Lens: 1 (Incremental )?Mark-Compact, [\d.]+ ms, by the allocation sampler's stop/);
    });
  }
});
