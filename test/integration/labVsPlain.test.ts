/**
 * The lab measures the program, not V8 Lens. The same allocation-heavy service under the same load,
 * once as plain `node --trace-gc --max-semi-space-size=N` and once as a lab round at N: scavenges
 * per 1,000 requests agree within 10%, and V8 made the same pretenuring decision in both.
 *
 * The service (test/fixtures/programs/pretenure-service.js) is one whose hot allocation site V8
 * tenures at 1 MB depending on where its first scavenges fall: the agent's old start-up allocation
 * (~280 KB) flipped it (335 scavenges per 1k in the lab vs 109 plain). The plain runs here are
 * driven by the lab's own load runner with the same settings, and their scavenges counted by
 * arrival inside the measured window, as the lab counts them.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { startLoad } from '../../src/core/load/loadGenerator';
import type { SweepResult } from '../../src/shared/model/sweep';
import { NODES, PROGRAMS, REPO, freePort, runCli, tempDir } from './cliHarness';

const SERVICE = join(PROGRAMS, 'pretenure-service.js');
const LOAD_RUNNER = join(REPO, 'dist', 'load-runner.js');
/** A fixed rate: both sides serve the same requests in the same time, whatever else the machine does. */
/** The lab agent's start-up allocation (measured at 21–33 KB on Node 20–26); the full agent's ~280 KB flipped pretenuring. */
const AGENT_BUDGET_KB = 48;
const LOAD = { connections: 10, warmupSeconds: 1, duration: 3, rate: 600 };

interface Measured {
  requests: number;
  scavenges: number;
  per1k: number;
  tenured: boolean;
}

/** Plain Node, the lab's load runner, V8's own lines counted by arrival in the measured window. */
async function plainRun(node: string, semiSpaceMB: number, v8Flags: readonly string[]): Promise<Measured> {
  const port = await freePort();
  const child = spawn(node, ['--trace-gc', '--trace-pretenuring-statistics', `--max-semi-space-size=${semiSpaceMB}`, `--min-semi-space-size=${semiSpaceMB}`, ...v8Flags, SERVICE], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let measuring = false;
  let scavenges = 0;
  let tenured = false;
  let partial = '';
  let ready: () => void = () => {};
  const listening = new Promise<void>((resolve) => (ready = resolve));
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('listening on ')) ready();
      if (/ pretenuring: AllocationSite\(.*=> tenure$/.test(line)) tenured = true;
      if (measuring && /^\[\d+:0x[0-9a-f]+\]\s+\d+ ms: Scavenge/.test(line)) scavenges++;
    }
  });
  await listening;
  const figures = await new Promise<{ requests: number }>((resolve, reject) => {
    const gen = startLoad(
      LOAD_RUNNER,
      { url: `http://127.0.0.1:${port}/`, method: 'GET', headers: {}, body: null, connections: LOAD.connections, warmupSeconds: LOAD.warmupSeconds, duration: LOAD.duration, rate: LOAD.rate, timeout: 10 },
      {
        onPhase: (phase) => (measuring = phase === 'measuring'),
        onTick: () => {},
        onResult: () => (measuring = false),
      },
    );
    gen.done.then((outcome) => (outcome.ok ? resolve(outcome.figures) : reject(new Error(outcome.reason))), reject);
  });
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('close', resolve));
  return { requests: figures.requests, scavenges, per1k: (scavenges / figures.requests) * 1000, tenured };
}

async function labRun(node: string, semiSpaceMB: number, v8Flags: readonly string[]): Promise<Measured> {
  const port = await freePort();
  const out = join(tempDir(), 'sweep');
  const r = await runCli(
    ['sweep', '--node', node, ...v8Flags.map((f) => `--v8-flag=${f}`), '--sizes', String(semiSpaceMB), '--rounds', '1', '--no-profile-rounds', '--warmup', String(LOAD.warmupSeconds), '--duration', String(LOAD.duration), '--connections', String(LOAD.connections), '--rate', String(LOAD.rate), '--pin-min', '--ready-line', 'listening on', '--url', `http://127.0.0.1:${port}/`, '--out', out, '--', SERVICE],
    { env: { PORT: String(port) }, timeoutMs: 60_000 },
  );
  assert.equal(r.code, 0, r.stderr);
  const result = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as SweepResult;
  const runs = result.results.flatMap((s) => s.runs);
  assert.equal(runs.length, 1, 'no profiling run with --no-profile-rounds');
  const run = runs[0]!;
  assert.equal(run.status, 'ok', run.reason ?? '');
  assert.equal(run.purpose, 'measure');
  assert.ok(run.pretenuring, 'the lab recorded V8\'s pretenuring decisions');
  return { requests: run.load!.requests, scavenges: run.gc!.scavenges, per1k: run.scavengesPer1k!, tenured: run.pretenuring!.sitesTenured > 0 };
}

/** How much the agent adds to the new space before the app's first line: what moves its first scavenges. */
function newSpaceAtStart(node: string, preload: string | null): number {
  const probe = join(tempDir(), 'probe.js');
  writeFileSync(probe, "const s = require('v8').getHeapSpaceStatistics().find((x) => x.space_name === 'new_space');\nprocess.stdout.write(String(s.space_used_size));\n");
  const args = ['--max-semi-space-size=1', ...(preload ? ['--require', preload] : []), probe];
  // From the app's own folder, as a user runs it: Node reads the package.json above the working
  // directory when it resolves a --require (V8 Lens's own manifest, from the repository's root).
  const out = execFileSync(node, args, { cwd: dirname(probe), env: { ...process.env, V8_LENS_AGENT_DIR: tempDir() }, encoding: 'utf8' });
  return Number(out);
}

describe('the lab measures the program, not V8 Lens', () => {
  for (const node of NODES) {
    it(`${node.label}: the lab's agent adds at most ${AGENT_BUDGET_KB} KB to the new space before the app starts`, () => {
      const plain = newSpaceAtStart(node.path, null);
      const lab = newSpaceAtStart(node.path, join(REPO, 'dist', 'agent', 'lab-preload.js'));
      const full = newSpaceAtStart(node.path, join(REPO, 'dist', 'agent', 'preload.js'));
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      const note = `plain ${kb(plain)}, lab agent +${kb(lab - plain)}, full agent (GC only) +${kb(full - plain)}`;
      assert.ok(plain > 0, note);
      assert.ok(lab - plain <= AGENT_BUDGET_KB * 1024, note);
    });

    // At 1 MB the program sits on V8's pretenuring tipping point: plain runs alone land anywhere
    // from 101 to 317 per 1k (Node 24, one CI run: 101 and 281 in two plain runs, both tenured), so
    // no pairing of single runs says anything there. At 1 MB the site's pretenuring is switched off
    // on both sides (scavenges then follow the bytes each request allocates, which is what the lab
    // must count as a plain run does); at 16 MB V8 decides as it likes, on both sides. What moved the
    // tipping point, the agent's start-up allocation, is held by the test above.
    for (const [semiSpaceMB, v8Flags] of [[1, ['--no-allocation-site-pretenuring']], [16, []]] as const) {
      const how = v8Flags.length > 0 ? ` (${v8Flags.join(' ')} on both sides)` : ', in the same pretenuring regime';
      it(`${node.label}, ${semiSpaceMB} MB: the lab's scavenges per 1k requests are within 10% of a plain run's${how}`, { timeout: 240_000 }, async (t) => {
        // The program can land in either pretenuring regime from one plain run to the next: the lab
        // must land where a plain run lands. Two of each, interleaved; the old agent put every lab run
        // at 335 per 1k where every plain run was at 109 (Node 22), which no pairing can match.
        const plains: Measured[] = [];
        const labs: Measured[] = [];
        for (let i = 0; i < 2; i++) {
          plains.push(await plainRun(node.path, semiSpaceMB, v8Flags));
          labs.push(await labRun(node.path, semiSpaceMB, v8Flags));
        }
        if (v8Flags.length > 0) assert.ok([...plains, ...labs].every((m) => !m.tenured), 'nothing tenured with pretenuring off');
        const text = (m: Measured) => `${m.per1k.toFixed(1)}/1k (${m.scavenges} in ${m.requests}, tenured: ${m.tenured})`;
        const note = `plain ${plains.map(text).join(' and ')}; lab ${labs.map(text).join(' and ')}`;
        t.diagnostic(note);
        assert.ok(plains.every((p) => p.scavenges >= 20), `enough scavenges to compare: ${note}`);
        const agree = (p: Measured, l: Measured) => l.tenured === p.tenured && Math.abs(l.per1k - p.per1k) <= 0.1 * p.per1k;
        assert.ok(labs.some((l) => plains.some((p) => agree(p, l))), `a lab run within 10% of a plain run, in the same pretenuring regime: ${note}`);
      });
    }
  }
});
