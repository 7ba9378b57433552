/**
 * Survivors (issue 23): `v8-lens profile --survivors` on a program with three lifetimes (garbage that
 * dies at once, data kept ~150 ms, a slow cache). All allocations rank the garbage first; the
 * survivors, what the scavenger had to copy, rank the ~150 ms-lived allocator first. The survivors
 * pass's figures are held to V8's own account of the same pass (its --trace-gc-nvp lines, read with
 * this test's own patterns): the bytes its scavenges kept young and promoted, and its helper
 * threads' GC time.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { AgentRecord } from '../../src/core/preload/agentRecord';
import { NODES, PROGRAMS, readSummary, runCli, tempDir } from './cliHarness';

const THREE_LIFETIMES = join(PROGRAMS, 'three-lifetimes.js');
/** keepForAWhile's line in the fixture (1-based), read from it rather than written down twice. */
const KEEP_LINE = readFileSync(THREE_LIFETIMES, 'utf8').split('\n').findIndex((l) => l.startsWith('function keepForAWhile(')) + 1;

/** One GC line of an nvp trace: its time on the isolate's clock and its pairs, from either form (Node 26 prints JSON). */
function nvpLines(trace: string): Array<Record<string, number | string> & { atMs: number }> {
  const out: Array<Record<string, number | string> & { atMs: number }> = [];
  for (const line of trace.split('\n')) {
    const at = /^\[\d+:[0-9a-fx]+(?::\d+)?\] +(\d+) ms: /.exec(line);
    if (!at) continue;
    const json = / ms: GC: (\{.*\})$/.exec(line);
    if (json) {
      out.push({ ...(JSON.parse(json[1]!) as Record<string, number | string>), atMs: Number(at[1]) });
      continue;
    }
    if (!/ ms: pause=/.test(line)) continue;
    const pairs: Record<string, number | string> = {};
    for (const m of line.matchAll(/([a-z_.]+)=([^ ]+)/g)) pairs[m[1]!] = Number.isNaN(Number(m[2])) ? m[2]! : Number(m[2]);
    out.push({ ...pairs, atMs: Number(at[1]) });
  }
  return out;
}

describe('survivors: who the young GC copies', () => {
  for (const node of NODES) {
    it(`${node.label}: the ~150 ms-lived allocator ranks first among survivors, the garbage maker does not; V8's own account of the pass agrees`, { timeout: 120_000 }, async () => {
      const out = join(tempDir(), 'run');
      // Sampled every 32 KB in both runs, as the survivors pass always is: the script is short, and a
      // function's rate needs it found in both profiles (at the default 2 MB its few samples may not be).
      const r = await runCli(['profile', '--node', node.path, '--preset', 'cpu-gc-alloc', '--alloc-interval', '32768', '--survivors', '--out', out, '--', THREE_LIFETIMES], { env: { TICKS: '500' }, timeoutMs: 110_000 });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /survivors pass: running the target again/);
      const summary = readSummary(out);
      const survivors = summary.survivors;
      assert.ok(survivors, summary.warnings.join('\n'));
      const top = survivors.functions[0]!;
      assert.equal(top.name, 'keepForAWhile', JSON.stringify(survivors.functions.slice(0, 4)));
      assert.ok(KEEP_LINE > 0 && top.url.endsWith('three-lifetimes.js') && top.line === KEEP_LINE, `${top.url}:${top.line}, expected line ${KEEP_LINE}`);
      // The plain allocation profile ranks it below the garbage (makeGarbage, or on Node 20/26 the
      // caller it is inlined into): the survivors view is what tells them apart.
      assert.notEqual(summary.alloc?.functions[0]?.name, 'keepForAWhile', JSON.stringify(summary.alloc?.functions.slice(0, 3)));

      // Both runs ran the script to its end: the same work, so every function has a rate.
      assert.equal(survivors.comparedBy, 'fixed work');
      // A rate needs the function in both profiles: where V8 inlined it into its caller in the run
      // (its bytes are the caller's there), it has none, and says so rather than guess.
      const inRun = summary.alloc?.functions.some((f) => f.name === 'keepForAWhile' && f.line === top.line) ?? false;
      if (inRun) assert.ok(top.survivalRate !== null && top.survivalRate > 0.5, `keepForAWhile keeps ${top.survivalRate}`);
      else assert.equal(top.survivalRate, null);
      const garbage = survivors.functions.find((f) => f.name === 'makeGarbage');
      if (garbage) assert.ok(garbage.bytes < top.bytes && (garbage.survivalRate === null || garbage.survivalRate < 0.3), `makeGarbage keeps ${garbage.survivalRate}`);

      // V8's own account of the pass, from its own trace with this test's patterns.
      const trace = readFileSync(join(out, 'survivors', 'gc-trace.log'), 'utf8');
      const lines = nvpLines(trace);
      // The scavenges while the sampler ran: its span (the agent record), on the isolate's clock
      // (ms since the process's time origin). The preload's own start-up GCs come before it.
      const record = readdirSync(join(out, 'survivors', 'agent'))
        .filter((f) => /^\d+\.json$/.test(f))
        .map((f) => JSON.parse(readFileSync(join(out, 'survivors', 'agent', f), 'utf8')) as AgentRecord)[0]!;
      const span = record.allocations!;
      // Node 26's JSON names the GC V8 ran for the sampler's stop, which every GC figure leaves out
      // (Node 20-24 print no reason: there it cannot be told apart, and counts).
      const ours = (l: Record<string, number | string>) => node.major >= 26 && l.reason === 'sampling profiler';
      const sampled = lines.filter((l) => !ours(l) && record.processStartMs + l.atMs >= span.startMs && record.processStartMs + l.atMs <= span.endMs);
      const scavenges = sampled.filter((l) => l.gc === 's');
      assert.ok(scavenges.length > 5, `${scavenges.length} scavenges in the pass`);
      const sum = (list: Record<string, number | string>[], key: string) => list.reduce((n, l) => n + (typeof l[key] === 'number' ? (l[key] as number) : 0), 0);
      const copied = sum(scavenges, 'new_space_survived');
      const promoted = sum(scavenges, 'promoted');
      assert.equal(survivors.youngGc.count, scavenges.length);
      assert.equal(survivors.youngGc.copiedBytes, copied);
      assert.equal(survivors.youngGc.promotedBytes, promoted);
      const allocated = sum(sampled, 'allocated');
      assert.ok(survivors.survivalShare !== null && Math.abs(survivors.survivalShare - Math.min(1, survivors.totalBytes / allocated)) < 1e-3, `${survivors.survivalShare} vs ${survivors.totalBytes}/${allocated}`);
      // Each function's copying is its share of what V8 copied: they add up to at most all of it.
      const shares = survivors.functions.reduce((n, f) => n + (f.copiedBytesEstimate ?? 0), 0);
      assert.ok(shares <= copied + promoted + survivors.functions.length && shares > 0.5 * (copied + promoted), `${shares} of ${copied + promoted}`);

      // The pass is a run folder of its own: survivors sampled, GC as V8's phases, whose helper time is V8's.
      assert.ok(existsSync(join(out, 'survivors', 'summary.json')));
      const pass = readSummary(join(out, 'survivors'));
      assert.equal(pass.alloc?.mode, 'survivors');
      assert.equal(pass.alloc?.gcLink?.disagreement, null);
      const counted = lines.filter((l) => !ours(l));
      const helpers = counted.reduce((n, l) => n + Object.entries(l).reduce((m, [k, v]) => m + (k.startsWith('background.') && typeof v === 'number' ? v : 0), 0), 0);
      assert.ok(pass.gc?.helperThreads, 'the pass traced V8\'s phases');
      assert.ok(Math.abs(pass.gc.helperThreads.ms - helpers) < 0.01, `${pass.gc.helperThreads.ms} vs ${helpers}`);
      assert.equal(pass.gc.helperThreads.events, counted.length);

      // The text report says what the mode means and its limit, and ranks the same way.
      const text = await runCli(['report', out]);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /Survivors \(the survivors pass, survivors\/\)/);
      assert.match(text.stdout, /allocated after the last young GC of that run counts as surviving/);
      // The run itself had --trace-gc: its helper threads are not collected, and it says so.
      assert.match(text.stdout, /GC on helper threads: not collected/);
    });
  }
});
