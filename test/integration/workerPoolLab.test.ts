/**
 * The lab on a service with a thread pool (test/fixtures/apps/worker-pool, loaded on /report, which
 * allocates heavily on the main thread while the two piscina workers wait): each run's "GC % of wall
 * time" must agree with its own GC ms per 1k requests × req/s. Pooled over the idle workers' wall
 * time, 1,665 ms per 1k at 156 req/s (about 26%) read 8.6%. On every Node of NODES.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { SweepResult } from '../../src/shared/model/sweep';
import { freePort, NODES, REPO, runCli, tempDir } from './cliHarness';

const APP = join(REPO, 'test', 'fixtures', 'apps', 'worker-pool', 'app.js');

for (const node of NODES) {
  describe(`the lab on a pool of waiting workers (worker-pool /report, ${node.label})`, () => {
    it("each run's GC share equals its own GC ms per 1k requests × req/s, within 10%", async () => {
      const port = await freePort();
      const out = join(tempDir(), 'sweep');
      const r = await runCli(
        ['sweep', '--node', node.path, '--sizes', '1,16', '--rounds', '1', '--no-profile-rounds', '--warmup', '1', '--duration', '3', '--connections', '8', '--url', `http://127.0.0.1:${port}/report`, '--out', out, '--', APP],
        { env: { PORT: String(port) }, timeoutMs: 120_000 },
      );
      assert.equal(r.code, 0, r.stderr);
      const result = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as SweepResult;
      const runs = result.results.flatMap((s) => s.runs);
      assert.equal(runs.length, 2);
      for (const run of runs) {
        assert.equal(run.status, 'ok', run.reason ?? '');
        const fromPer1k = (run.gcMsPer1k! / 1000) * run.load!.rps / 1000;
        console.log(`# ${node.label}, ${run.value} MB: GC ${(run.gcWallShare! * 100).toFixed(2)}% of wall time; ${run.gcMsPer1k} ms per 1k × ${run.load!.rps.toFixed(0)} req/s = ${(fromPer1k * 100).toFixed(2)}%`);
        assert.ok(run.gcWallShare! > 0.005, `a /report run collects garbage: ${run.gcWallShare}`);
        assert.ok(Math.abs(run.gcWallShare! - fromPer1k) <= 0.1 * fromPer1k, `${run.gcWallShare} vs ${fromPer1k}`);
      }
    });
  });
}
