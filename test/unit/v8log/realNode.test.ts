import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { summarizeDeopts } from '../../../src/core/v8log/deoptSummary';
import { findV8LogFiles, readV8LogFiles } from '../../../src/core/v8log/v8LogReader';
import { DEOPTS_PROGRAM, describeSite, loadExpectedSites, siteFound } from './expectedSites';

const dir = mkdtempSync(join(tmpdir(), 'v8lens-deopts-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('real Node: deopts.js produces every expected deopt site (--no-concurrent-recompilation)', { timeout: 20_000 }, async () => {
  const flags = [
    '--no-concurrent-recompilation',
    '--log-deopt',
    '--log-code',
    `--logfile=${join(dir, 'v8.log')}`,
    '--redirect-code-traces',
    `--redirect-code-traces-to=${join(dir, 'code.asm')}`,
  ];
  const run = spawnSync(process.execPath, [...flags, DEOPTS_PROGRAM], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  // The redirect flags keep V8's bailout traces out of the program's stdout.
  assert.equal(run.stdout, 'done a9b 1498500\n');
  assert.match(readFileSync(join(dir, 'code.asm'), 'utf8'), /bailout/);

  const files = await findV8LogFiles(dir);
  assert.equal(files.length, 1, 'one isolate, one per-isolate log file');
  const analysis = await readV8LogFiles(files);
  assert.equal(analysis.counters.malformedLines, 0);
  assert.equal(analysis.counters.truncatedLines, 0);
  const major = Number(process.versions.node.split('.')[0]);
  const missing = loadExpectedSites().filter((site) => !siteFound(site, analysis.deopts, DEOPTS_PROGRAM, major));
  assert.deepEqual(missing.map(describeSite), [], `seen: ${JSON.stringify(summarizeDeopts(analysis), null, 1)}`);
});
