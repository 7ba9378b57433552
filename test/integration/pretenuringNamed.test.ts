/**
 * Pretenuring, named (issue 23): at a 1 MB semi-space V8 tenures the hot site of the pretenure
 * service's `build` (its objects all alive at the scavenges that weigh it). The report names the
 * site's address as V8 printed it, its likely function (an estimate: V8 names sites by address only;
 * on Node 20 and 26 `build` is inlined into the request handler, whose bytes it then is) and what it
 * cost: the Mark-Compacts after it, held to V8's own --trace-gc lines. V8's decision depends on where
 * the first scavenges fall, so each Node gets up to three runs to tenure, and says which (Node 22
 * under the full agent kept it young in every run tried: explicit below). Then the lab runs
 * --no-allocation-site-pretenuring against V8's default.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { SweepResult } from '../../src/shared/model/sweep';
import { NODES, PROGRAMS, freePort, readSession, readSummary, runCli, tempDir } from './cliHarness';

const SERVICE = join(PROGRAMS, 'pretenure-service.js');
const ATTEMPTS = 3;

/** The sites V8 tenured, from its own --trace-pretenuring-statistics lines. */
function tenuredInTrace(trace: string): Set<string> {
  return new Set([...trace.matchAll(/pretenuring: AllocationSite\((0x[0-9a-f]+)\): \(created, found, ratio\) \([^)]*\) (?:undecided|maybe tenure|don't tenure) => tenure$/gm)].map((m) => m[1]!));
}

/** V8's --trace-gc lines of one pid: time, type, pause, reason. */
function gcLines(trace: string, pid: number): { atMs: number; type: string; pauseMs: number; reason: string }[] {
  const out: { atMs: number; type: string; pauseMs: number; reason: string }[] = [];
  const line = /^\[(\d+):[0-9a-fx]+(?::\d+)?\] +(\d+) ms: ([A-Z][A-Za-z -]*?)(?: \([^()]*\))* [\d.]+ \([\d.]+\) -> [\d.]+ \([\d.]+\) MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms .*\) ([^;]*);/gm;
  for (const m of trace.matchAll(line)) if (Number(m[1]) === pid) out.push({ atMs: Number(m[2]), type: m[3]!, pauseMs: Number(m[4]), reason: m[5]! });
  return out;
}

describe('pretenuring, named', () => {
  for (const node of NODES) {
    it(`${node.label}: the tenured site of build() at 1 MB, its function and its Mark-Compact cost, held to V8's own trace`, { timeout: 150_000 }, async (t) => {
      let out = '';
      let tenured = new Set<string>();
      for (let attempt = 1; attempt <= ATTEMPTS && tenured.size === 0; attempt++) {
        const port = await freePort();
        out = join(tempDir(), 'run');
        const r = await runCli(['profile', '--node', node.path, '--semi-space', '1', '--url', `http://127.0.0.1:${port}/`, '--warmup', '1', '--duration', '3', '--out', out, '--', SERVICE], { env: { PORT: String(port) }, timeoutMs: 45_000 });
        assert.equal(r.code, 0, r.stderr);
        tenured = tenuredInTrace(readFileSync(join(out, 'gc-trace.log'), 'utf8'));
        if (tenured.size === 0) t.diagnostic(`attempt ${attempt}: V8 tenured no site this time`);
      }
      const summary = readSummary(out);
      const p = summary.gc?.pretenuring;
      assert.ok(p, 'the run recorded V8\'s pretenuring decisions');
      if (node.major === 22 && tenured.size === 0) {
        // Node 22 under V8 Lens's full agent: V8 weighed build's site and kept it young in every run
        // tried (plain `node` tenures it; design-notes.md: the agent moves where the first scavenges
        // fall). Then the report must say so, as V8 printed it, and there is no site to name.
        assert.equal(p.sitesTenured, 0);
        assert.ok(p.sitesWeighed > 0, 'V8 weighed the sites');
        t.diagnostic('Node 22: V8 tenured no site under the full agent in any attempt; the report says "tenured none", as V8 printed');
        return;
      }
      assert.ok(tenured.size > 0, `V8 tenured no site in ${ATTEMPTS} runs at a 1 MB semi-space`);
      assert.deepEqual(new Set(p.tenured.map((s) => s.site)), tenured, 'the sites V8 printed as tenured, by their addresses');
      const site = p.tenured[0]!;

      // Its function: an estimate, in the service's own script, build itself or the handler it is inlined into.
      const owner = site.owner;
      assert.ok(owner, 'the site has a likely function');
      assert.ok(owner.url.endsWith('pretenure-service.js'), owner.url);
      assert.ok(owner.name === 'build' || owner.inlinedCandidates?.includes('build'), JSON.stringify(owner));

      // What it cost: the Mark-Compacts of its process after V8 tenured it, as V8 printed them (the
      // one V8 ran for V8 Lens's sampler left out, as every GC figure leaves it).
      const cost = site.cost;
      assert.ok(cost, 'the site has its cost');
      const lines = gcLines(readFileSync(join(out, 'gc-trace.log'), 'utf8'), site.pid).filter((l) => l.reason !== 'sampling profiler');
      const full = lines.filter((l) => l.atMs > cost.atMs && /Mark-Compact/.test(l.type));
      assert.equal(cost.after.markCompacts, full.length);
      assert.ok(Math.abs(cost.after.markCompactMs - full.reduce((n, l) => n + l.pauseMs, 0)) < 0.01);
      assert.equal(cost.before.markCompacts, lines.filter((l) => l.atMs <= cost.atMs && /Mark-Compact/.test(l.type)).length);
      assert.ok(cost.after.oldGrowthMB > 0, 'its objects filled the old generation');

      // The report says it: the site, its function, its cost.
      const text = await runCli(['report', out]);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, new RegExp(`site ${site.site} \\(pid ${site.pid}\\): .*build.*estimated: .*tenured at .*after, in [\\d.]+ s: (?:no Mark-Compact|${cost.after.markCompacts} Mark-Compact)`));
    });
  }

  it('the lab runs --no-allocation-site-pretenuring against V8\'s default (at 1 MB); with it off V8 tenures nothing', { timeout: 180_000 }, async () => {
    const port = await freePort();
    const out = join(tempDir(), 'sweep');
    const r = await runCli(
      ['sweep', '--url', `http://127.0.0.1:${port}/`, '--flag', 'allocation-site-pretenuring', '--values', '1,0', '--v8-flag=--max-semi-space-size=1', '--rounds', '1', '--warmup', '1', '--duration', '2', '--out', out, '--json', '--', SERVICE],
      { env: { PORT: String(port) }, timeoutMs: 170_000 },
    );
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout) as SweepResult;
    assert.equal(result.config.flag, 'allocation-site-pretenuring');
    assert.deepEqual(result.results.map((s) => s.value), [1, 0]);
    for (const setting of result.results) {
      for (const run of setting.runs) {
        assert.equal(run.status, 'ok', `${setting.value}: ${run.reason}`);
        const argv = readSession(join(out, run.dir)).launch.argv;
        // On: V8's flag as is; off: its --no- form (V8 refuses --allocation-site-pretenuring=0).
        assert.ok(argv.includes(setting.value === 1 ? '--allocation-site-pretenuring' : '--no-allocation-site-pretenuring'), argv.join(' '));
        assert.ok(!argv.some((a) => a.startsWith('--allocation-site-pretenuring=')), argv.join(' '));
        assert.ok(argv.includes('--max-semi-space-size=1'));
        const trace = readFileSync(join(out, run.dir, 'gc-trace.log'), 'utf8');
        if (setting.value === 0) {
          assert.equal(tenuredInTrace(trace).size, 0, 'with pretenuring off V8 tenures no site');
          assert.equal(run.pretenuring?.sitesTenured, 0);
        } else {
          assert.equal(run.pretenuring?.sitesTenured, tenuredInTrace(trace).size, 'V8 Lens counts the sites V8 printed');
        }
        if (run.purpose === 'profile') {
          // The profiling run traces V8's GC phases: its helper threads' GC time per 1k requests,
          // at most what every GC line of its trace says (the window holds fewer lines).
          const helpers = [...trace.matchAll(/background\.[a-z_.]+=([\d.]+)|"background\.[a-z_.]+":([\d.e+-]+)/g)].reduce((n, m) => n + Number(m[1] ?? m[2]), 0);
          assert.ok(typeof run.helperGcMsPer1k === 'number' && run.helperGcMsPer1k > 0, JSON.stringify(run.helperGcMsPer1k));
          assert.ok(run.helperGcMsPer1k <= (helpers * 1000) / run.load!.requests + 0.01, `${run.helperGcMsPer1k} vs ${helpers} ms over ${run.load!.requests} requests`);
        }
      }
    }
    // The recommendation names the settings by their command-line words.
    assert.match(result.recommendation.reason, /--(?:no-)?allocation-site-pretenuring/);
  });
});
