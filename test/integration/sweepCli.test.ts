/**
 * `v8-lens sweep` for real: real Node targets, the real forked autocannon, the built dist/cli.js.
 * Each sweep is kept short (CI has 2 cores and little time); the tests run one after another, so
 * their targets and load generators never compete with each other.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { SweepResult, SweepRun } from '../../src/shared/model/sweep';
import { collect, freePort, REPO, runCli, startCli, tempDir, waitForOutput } from './cliHarness';

const ALLOC_SERVICE = join(REPO, 'examples', 'alloc-service', 'server.js');

function readSweep(dir: string): SweepResult {
  return JSON.parse(readFileSync(join(dir, 'sweep.json'), 'utf8')) as SweepResult;
}

function allRuns(result: SweepResult): SweepRun[] {
  return result.results.flatMap((r) => r.runs).sort((a, b) => a.index - b.index);
}

/** Our own messages start with "v8-lens:"; a stack trace would show "    at ". */
function assertNoStack(stderr: string): void {
  assert.doesNotMatch(stderr, /^\s+at .+:\d+:\d+\)?$/m, 'a stack trace reached the user');
}

/**
 * Processes still alive that belong to this test: their environment carries the test's marker
 * (the CLI passes its environment to the target and to the load runner) and their command line
 * names one of `needles`.
 */
function survivors(marker: string, needles: string[]): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (!needles.some((n) => cmdline.includes(n))) continue;
      if (!readFileSync(`/proc/${entry}/environ`, 'utf8').includes(marker)) continue;
      found.push(`${entry}: ${cmdline.trim()}`);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

async function waitForNoSurvivors(marker: string, needles: string[], timeoutMs = 5000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = survivors(marker, needles);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('v8-lens sweep', () => {
  it('sweeps the example service: figures per size, fewer scavenges per 1k requests at 16 MB than at 2 MB', async () => {
    const port = await freePort();
    const out = join(tempDir(), 'sweep');
    const url = `http://127.0.0.1:${port}/`;
    const r = await runCli(
      ['sweep', '--sizes', '2,16', '--rounds', '2', '--warmup', '1', '--duration', '2', '--connections', '10', '--url', url, '--out', out, '--', ALLOC_SERVICE],
      { env: { PORT: String(port) }, timeoutMs: 90_000 },
    );
    assert.equal(r.code, 0, r.stderr);
    assertNoStack(r.stderr);
    // Two measured rounds per size, then one profiling run per size (its profilers would change the figures).
    assert.equal(r.stderr.split('\n').filter((l) => /^v8-lens: run \d\/6 · (2|16) MB · round [12] · ok · /.test(l)).length, 4, r.stderr);
    assert.equal(r.stderr.split('\n').filter((l) => /^v8-lens: run [56]\/6 · (2|16) MB · profiling run \(not in the figures\) · ok · /.test(l)).length, 2, r.stderr);
    assert.match(r.stdout, /scavenges \/1k req/);
    assert.match(r.stderr, new RegExp(`sweep folder: ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(finished\\)`));

    const result = readSweep(out);
    assert.equal(result.status, 'finished');
    assert.ok(result.endedAt);
    assert.equal(result.environment.platform, process.platform);
    assert.match(result.environment.nodeVersion, /^v\d+\./);
    assert.deepEqual(result.results.map((s) => s.semiSpaceMB), [2, 16]);
    assert.equal(result.config.flag, 'max-semi-space-size');
    assert.deepEqual(result.config.values, [2, 16]);
    assert.deepEqual(result.config.sizesMB, [2, 16]);
    for (const setting of result.results) {
      assert.equal(setting.validRuns, 2, JSON.stringify(setting.runs.map((run) => run.reason)));
      // The semi-space sweep keeps the fields of issue 5; `flag` and `value` come with them.
      assert.equal(setting.flag, 'max-semi-space-size');
      assert.equal(setting.semiSpaceMB, setting.value);
      assert.ok(setting.effectiveSemiSpaceMB !== null && Math.abs(setting.effectiveSemiSpaceMB - setting.value) <= setting.value / 2, `effective ${setting.effectiveSemiSpaceMB} for ${setting.value}`);
      for (const run of setting.runs) {
        assert.equal(run.status, 'ok');
        assert.ok(run.load && run.load.requests > 100 && run.load.rps > 0 && run.load.non2xx === 0, JSON.stringify(run.load));
        assert.ok(run.gc && run.gc.scavenges > 0 && run.gc.totalPauseMs > 0, JSON.stringify(run.gc));
        assert.ok(run.scavengesPer1k !== null && run.gcMsPer1k !== null);
        assert.ok(run.peakRssMB !== null && run.peakRssMB > 10);
        if (process.platform === 'linux') assert.ok(run.cpuMs !== null && run.cpuMs > 0 && run.gcCpuShare !== null);
        assert.ok(existsSync(join(out, run.dir, 'gc-trace.log')) && existsSync(join(out, run.dir, 'output.log')));
        assert.match(readFileSync(join(out, run.dir, 'output.log'), 'utf8'), /alloc-service listening on http:\/\/127\.0\.0\.1:/);
      }
    }
    // Rounds interleaved and rotated: 2 16 | 16 2, then the profiling runs in the values' order.
    assert.deepEqual(allRuns(result).map((run) => [run.semiSpaceMB, run.purpose]), [[2, 'measure'], [16, 'measure'], [16, 'measure'], [2, 'measure'], [2, 'profile'], [16, 'profile']]);
    const measured = allRuns(result).filter((run) => run.purpose === 'measure');
    const profiling = allRuns(result).filter((run) => run.purpose === 'profile');
    for (const run of measured) assert.ok(run.pretenuring, 'every measured run records V8\'s pretenuring decisions');
    const [small, big] = result.results;
    assert.ok(big!.median.scavengesPer1k! < small!.median.scavengesPer1k!, `scavenges/1k: 2 MB ${small!.median.scavengesPer1k}, 16 MB ${big!.median.scavengesPer1k}`);
    assert.equal(typeof result.recommendation.reason, 'string');
    assert.ok('semiSpaceMB' in result.recommendation);
    assert.equal(result.recommendation.semiSpaceMB, result.recommendation.value);
    assert.equal(result.recommendation.metric, 'gcMsPer1k');

    // What the code allocates per request, sampled in each profiling run's window (the measured runs
    // have no sampler): the same at 2 and 16 MB (the semi-space cannot change it), with the
    // service's own allocator on top, named as the code-side alternative.
    for (const run of measured) assert.equal(run.allocBytesPerRequest, null, 'a measured run samples nothing');
    for (const run of profiling) {
      assert.ok(typeof run.allocBytesPerRequest === 'number' && run.allocBytesPerRequest > 20_000 && run.allocBytesPerRequest < 500_000, `bytes per request ${run.allocBytesPerRequest}`);
      const top = run.topAllocators?.[0];
      assert.ok(top && /^(handle|buildOrder|\(anonymous\))$/.test(top.name) && top.share > 0.4, JSON.stringify(run.topAllocators));
    }
    const perRequest = result.results.map((s) => s.median.allocBytesPerRequest!);
    assert.ok(Math.max(...perRequest) / Math.min(...perRequest) - 1 <= 0.15, `bytes per request by size: ${perRequest.join(', ')}`);
    assert.ok(!result.warnings.some((w) => w.startsWith('Bytes allocated per request differ')), result.warnings.join('\n'));
    const topName = profiling[0]!.topAllocators![0]!.name;
    assert.match(result.recommendation.reason, new RegExp(`Or cut allocation: ${topName.replace(/[()]/g, '\\$&')} makes \\d+% of the [\\d.]+ KB allocated per request\\.`));
    assert.match(r.stdout, /alloc \/req/);
    for (const run of profiling) assert.ok(readdirSync(join(out, run.dir, 'heap')).some((f) => f.endsWith('.heapprofile')), 'each profiling run keeps its heap profile');

    // Each run is a run folder: its session and summary (and, for the profiling runs, its CPU
    // profile); the report and compare open it, and its figures are the sweep's own for that run.
    for (const run of allRuns(result)) {
      const dir = join(out, run.dir);
      const profiled = run.purpose === 'profile';
      assert.equal(existsSync(join(dir, 'cpu')) ? readdirSync(join(dir, 'cpu')).filter((f) => f.endsWith('.cpuprofile')).length : 0, profiled ? 1 : 0, `CPU profiles in ${run.dir}`);
      const session = JSON.parse(readFileSync(join(dir, 'session.json'), 'utf8')) as { status: string; target: { name: string }; flags: { semiSpaceMB: number } };
      assert.equal(session.status, 'finished');
      assert.equal(session.flags.semiSpaceMB, run.value);
      assert.match(session.target.name, new RegExp(`^server\\.js · max-semi-space-size=${run.value} MB · ${profiled ? 'profiling run' : `round ${run.round}`}$`));
      const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { cpu: { sampleCount: number } | null; load: { figures: { requests: number } } | null };
      if (profiled) assert.ok(summary.cpu && summary.cpu.sampleCount > 100, `${run.dir} has its CPU figures`);
      else assert.equal(summary.cpu, null, `${run.dir} ran without a profiler`);
      assert.equal(summary.load?.figures.requests, run.load!.requests);
    }
    const [a, b] = [profiling[0]!, profiling[1]!];
    const compared = await runCli(['compare', join(out, a.dir), join(out, b.dir), '--json']);
    assert.equal(compared.code, 0, compared.stderr);
    const model = JSON.parse(compared.stdout) as { flameMissing: string | null; metrics: { key: string; base: number | null; other: number | null }[] };
    assert.equal(model.flameMissing, null, 'the two settings\' CPU profiles compare as a differential flame graph');
    const asked = model.metrics.find((m) => m.key === 'semiSpaceRequested');
    assert.deepEqual([asked?.base, asked?.other], [a.value, b.value], JSON.stringify(model.metrics.map((m) => m.key)));
  });

  it('Ctrl-C cancels half-way: exit 130, the finished runs kept, the target and the load generator gone', async () => {
    const port = await freePort();
    const dir = tempDir();
    const out = join(dir, 'sweep');
    const marker = `V8_LENS_SWEEP_TEST_${randomUUID().replace(/-/g, '')}`;
    const url = `http://127.0.0.1:${port}/`;
    const cli = startCli(
      ['sweep', '--sizes', '2,16', '--rounds', '2', '--warmup', '1', '--duration', '2', '--connections', '10', '--url', url, '--out', out, '--', ALLOC_SERVICE],
      { env: { PORT: String(port), [marker]: '1' } },
    );
    const done = collect(cli, 60_000);
    await waitForOutput(cli, /run 1\/6 · 2 MB · round 1 · ok/);
    // The second run is under load now: cancel it in the middle.
    await new Promise((r) => setTimeout(r, 1200));
    cli.kill('SIGINT');
    const r = await done;
    assert.equal(r.code, 130, r.stderr);
    assertNoStack(r.stderr);
    assert.match(r.stderr, /cancelling/);
    assert.match(r.stderr, /\(cancelled\)/);
    assert.match(r.stdout, /scavenges \/1k req/, 'the partial table is printed');

    const result = readSweep(out);
    assert.equal(result.status, 'cancelled');
    assert.ok(result.endedAt);
    const runs = allRuns(result);
    assert.ok(runs.filter((run) => run.status === 'ok').length >= 1, JSON.stringify(runs.map((run) => run.status)));
    assert.ok(runs.length < 4, 'the sweep did not go on after the cancel');
    assert.deepEqual(await waitForNoSurvivors(marker, [ALLOC_SERVICE, 'load-runner.js']), []);
  });

  it('a target that never gets ready: the run is invalid with the reason; continue goes on, stop ends the sweep', async () => {
    const port = await freePort();
    const dir = tempDir();
    const script = join(dir, 'never-listens.js');
    writeFileSync(script, "console.log('booting forever');\nsetInterval(() => {}, 1000);\n");
    const url = `http://127.0.0.1:${port}/`;
    const common = ['sweep', '--sizes', '2,4', '--rounds', '1', '--no-profile-rounds', '--warmup', '0', '--duration', '1', '--ready-timeout', '2', '--url', url];

    const goOn = join(dir, 'continue');
    const r1 = await runCli([...common, '--on-failure', 'continue', '--out', goOn, '--', script], { timeoutMs: 60_000 });
    assert.equal(r1.code, 1, r1.stderr);
    assertNoStack(r1.stderr);
    const continued = readSweep(goOn);
    assert.equal(continued.status, 'finished');
    const runs1 = allRuns(continued);
    assert.equal(runs1.length, 2);
    for (const run of runs1) {
      assert.equal(run.status, 'invalid');
      assert.equal(run.reason, `never answered ${url} within 2 s`);
      assert.equal(run.load, null);
    }
    assert.match(r1.stderr, /run 1\/2 · 2 MB · round 1 · invalid: never answered/);
    assert.equal(continued.recommendation.semiSpaceMB, null);

    const stop = join(dir, 'stop');
    const r2 = await runCli([...common, '--on-failure', 'stop', '--out', stop, '--', script], { timeoutMs: 60_000 });
    assert.equal(r2.code, 1, r2.stderr);
    const stopped = readSweep(stop);
    assert.equal(stopped.status, 'stopped-on-failure');
    assert.equal(allRuns(stopped).length, 1);
    assert.match(r2.stderr, /\(stopped-on-failure\)/);
  });

  it('a target that crashes while it is loaded: the run is invalid with its exit code, and the sweep goes on', async () => {
    const port = await freePort();
    const dir = tempDir();
    const script = join(dir, 'crashes.js');
    // Serves, then dies half a second into the load with exit code 3.
    writeFileSync(script, `require('http').createServer((req, res) => res.end('ok')).listen(${port}, '127.0.0.1', () => setTimeout(() => process.exit(3), 1500));\n`);
    const out = join(dir, 'crash');
    const r = await runCli(['sweep', '--sizes', '2,4', '--rounds', '1', '--no-profile-rounds', '--warmup', '1', '--duration', '3', '--url', `http://127.0.0.1:${port}/`, '--out', out, '--', script], { timeoutMs: 60_000 });
    assert.equal(r.code, 1, r.stderr);
    assertNoStack(r.stderr);
    const sweep = readSweep(out);
    assert.equal(sweep.status, 'finished', 'the sweep went on after the first crash');
    const runs = allRuns(sweep);
    assert.equal(runs.length, 2);
    for (const run of runs) {
      assert.equal(run.status, 'invalid');
      assert.match(run.reason ?? '', /exited with code 3/);
    }
    assert.equal(sweep.recommendation.semiSpaceMB, null);
  });

  it('a target that answers 500 at one size: those runs are invalid ("non-2xx") and that size is never recommended', async () => {
    const port = await freePort();
    const dir = tempDir();
    const script = join(dir, 'fails-at-16.js');
    writeFileSync(
      script,
      "const http = require('node:http');\n" +
        "const broken = process.execArgv.includes('--max-semi-space-size=16');\n" +
        'const keep = [];\n' +
        'http.createServer((req, res) => {\n' +
        '  const junk = []; for (let i = 0; i < 200; i++) junk.push({ i, s: String(i) });\n' +
        '  keep.push(junk); if (keep.length > 50) keep.shift();\n' +
        "  res.writeHead(broken ? 500 : 200); res.end('x');\n" +
        "}).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('up'));\n",
    );
    const out = join(dir, 'sweep');
    const url = `http://127.0.0.1:${port}/`;
    const r = await runCli(
      ['sweep', '--sizes', '2,16', '--rounds', '3', '--no-profile-rounds', '--warmup', '0', '--duration', '1', '--connections', '4', '--url', url, '--out', out, '--', script],
      { env: { PORT: String(port) }, timeoutMs: 90_000 },
    );
    assert.equal(r.code, 0, r.stderr); // finished, with valid runs at 2 MB
    const result = readSweep(out);
    const at16 = result.results.find((s) => s.semiSpaceMB === 16)!;
    const at2 = result.results.find((s) => s.semiSpaceMB === 2)!;
    assert.equal(at16.validRuns, 0);
    for (const run of at16.runs) {
      assert.equal(run.status, 'invalid');
      assert.match(run.reason!, /^[\d,]+ of [\d,]+ requests failed: [\d,]+ non-2xx$/);
      assert.ok(run.load && run.load.non2xx > 0, 'the load figures are kept for the record');
    }
    assert.equal(at2.validRuns, 3);
    assert.notEqual(result.recommendation.semiSpaceMB, 16);
    assert.match(r.stderr, /16 MB · round \d · invalid: [\d,]+ of [\d,]+ requests failed: [\d,]+ non-2xx/);
  });

  it('a URL that is not on this machine: one line, exit code 2, nothing started', async () => {
    const dir = tempDir();
    const out = join(dir, 'sweep');
    const started = Date.now();
    const r = await runCli(['sweep', '--sizes', '16', '--url', 'http://example.com/', '--out', out, '--', ALLOC_SERVICE]);
    assert.equal(r.code, 2);
    const ours = r.stderr.split('\n').filter((l) => l.startsWith('v8-lens:'));
    assert.equal(ours.length, 1, r.stderr);
    assert.match(ours[0]!, /the load URL 'http:\/\/example\.com\/' is not on this machine: load tests only target loopback/);
    assertNoStack(r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(existsSync(out), false, 'no sweep folder');
    assert.ok(Date.now() - started < 5000, 'refused before probing Node or starting anything');

    const r2 = await runCli(['sweep', '--url', 'http://127.0.0.1:3000/', '--ready-url', 'http://10.1.2.3:3000/health', '--out', out, '--', ALLOC_SERVICE]);
    assert.equal(r2.code, 2);
    assert.match(r2.stderr, /^v8-lens: the readiness URL 'http:\/\/10\.1\.2\.3:3000\/health' is not on this machine/m);
    assert.equal(existsSync(out), false);
  });
});
