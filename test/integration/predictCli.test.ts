/**
 * `v8-lens predict` and `sweep --from-run` at the command line, on a real run of a script without
 * load (a sliding window of short-lived arrays): the prediction per second, as a table and as JSON,
 * made again from the run's files when its summary.json predates it; and the refusals, each one line
 * with its exit code (a run without load cannot be confirmed per 1k requests, a script after
 * --from-run, a file or a missing folder).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { YoungGenPrediction } from '../../src/shared/model/prediction';
import { PROGRAMS, runCli, tempDir } from './cliHarness';

describe('v8-lens predict and sweep --from-run (a run without load)', () => {
  const run = join(tempDir(), 'run');
  before(async () => {
    const r = await runCli(['profile', '--preset', 'gc', '--out', run, '--', join(PROGRAMS, 'gc-churn.js')], { timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stderr);
  });

  it('prints the table per second with the recommendation and how to confirm it; --json is summary.json\'s prediction', async () => {
    const text = await runCli(['predict', run]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^A bigger young generation, predicted per second/m);
    assert.match(text.stdout, /^ {2}16 MB \(now\) +[\d.]+ /m);
    assert.match(text.stdout, /^ {2}32 MB +[\d.]+ /m);
    assert.match(text.stdout, /^Recommendation: /m);
    assert.match(text.stdout, /Confirm it in the lab under load/);
    const json = await runCli(['predict', run, '--json']);
    const prediction = JSON.parse(json.stdout) as YoungGenPrediction;
    const summary = JSON.parse(readFileSync(join(run, 'summary.json'), 'utf8'));
    assert.deepEqual(prediction, summary.prediction);
    assert.equal(prediction.per, 'seconds');
    // The scavenges the run measured, per second of its life: the process's own count.
    const scavenges = summary.gc.byType.Scavenge.count;
    assert.equal(prediction.inputs.isolates[0]!.scavenges, scavenges);
  });

  it('makes the prediction from the run\'s files when summary.json predates it', async () => {
    const file = join(run, 'summary.json');
    const summary = JSON.parse(readFileSync(file, 'utf8'));
    const expected = summary.prediction;
    delete summary.prediction;
    delete summary.predictionMissing;
    writeFileSync(file, JSON.stringify(summary));
    const json = await runCli(['predict', run, '--json']);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout).rows, expected.rows);
  });

  it('refuses, in one line each: a run without load to confirm, a script after --from-run, a file, a missing folder', async () => {
    const noLoad = await runCli(['sweep', '--from-run', run, '--out', join(tempDir(), 'sweep')]);
    assert.equal(noLoad.code, 1);
    assert.match(noLoad.stderr, /^v8-lens: .*ran without load, so its prediction is per second: the lab measures per 1,000 requests/m);
    const script = await runCli(['sweep', '--from-run', run, '--', join(PROGRAMS, 'gc-churn.js')]);
    assert.equal(script.code, 2);
    assert.match(script.stderr, /--from-run takes the target from the run: give no script after --/);
    const file = await runCli(['predict', join(run, 'summary.json')]);
    assert.equal(file.code, 1);
    assert.match(file.stderr, /is a file: a prediction is made from a run folder/);
    const missing = await runCli(['predict', join(run, 'nothing-here')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no such run folder/);
    for (const r of [noLoad, script, file, missing]) assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  });
});
