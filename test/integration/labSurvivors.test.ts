/**
 * The lab's survivors run (issue 23): `v8-lens sweep --survivors` adds, after the profiling runs, one
 * run per size whose allocation sampler keeps only what outlives a young GC. On the example
 * alloc-service at 2 and 8 MB: the survivors are a part of what the same size's profiling run
 * allocated per request, a smaller part at the bigger size (its objects die before a scavenge comes),
 * and no survivors run is in the comparison's figures. Kept short: CI has 2 cores.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { SweepResult } from '../../src/shared/model/sweep';
import { REPO, freePort, readSession, readSummary, runCli, tempDir } from './cliHarness';

const ALLOC_SERVICE = join(REPO, 'examples', 'alloc-service', 'server.js');

describe('the lab\'s survivors run', () => {
  it('2 and 8 MB: survivors per request beside the profiling run\'s allocations, fewer at 8 MB; never in the statistics', { timeout: 240_000 }, async () => {
    const port = await freePort();
    const out = join(tempDir(), 'sweep');
    const r = await runCli(['sweep', '--url', `http://127.0.0.1:${port}/`, '--sizes', '2,8', '--rounds', '1', '--warmup', '1', '--duration', '2', '--survivors', '--out', out, '--json', '--', ALLOC_SERVICE], {
      env: { PORT: String(port) },
      timeoutMs: 230_000,
    });
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout) as SweepResult;
    assert.equal(result.config.survivors, true);
    const shares: number[] = [];
    for (const setting of result.results) {
      assert.deepEqual(setting.runs.map((run) => run.purpose ?? 'measure').sort(), ['measure', 'profile', 'survivors']);
      assert.equal(setting.validRuns, 1, 'only the measured run counts');
      const profile = setting.runs.find((run) => run.purpose === 'profile')!;
      const survivors = setting.runs.find((run) => run.purpose === 'survivors')!;
      assert.equal(survivors.status, 'ok', survivors.reason ?? '');
      // Its bytes are survivors: not in the code's allocated-per-request figure, which stays the profiling run's.
      assert.equal(survivors.allocBytesPerRequest, null);
      assert.equal(setting.median.allocBytesPerRequest, profile.allocBytesPerRequest);
      assert.ok(typeof survivors.survivorBytesPerRequest === 'number' && survivors.survivorBytesPerRequest > 0);
      assert.ok(survivors.survivorBytesPerRequest < profile.allocBytesPerRequest!, `${survivors.survivorBytesPerRequest} survived of ${profile.allocBytesPerRequest} per request at ${setting.value} MB`);
      shares.push(survivors.survivorBytesPerRequest / profile.allocBytesPerRequest!);
      // The run folder says what its sampler kept, and its own summary is a survivors summary.
      assert.equal(readSession(join(out, survivors.dir)).flags.allocMode, 'survivors');
      assert.equal(readSummary(join(out, survivors.dir)).alloc?.mode, 'survivors');
    }
    assert.ok(shares[1]! < shares[0]!, `survival at 2 MB ${shares[0]}, at 8 MB ${shares[1]}`);
  });
});
