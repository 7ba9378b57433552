/**
 * Where V8 Lens finds its own scripts outside a whole run: a .cpuprofile in a run's cpu/ folder
 * (the run's session.json names the preload), and a summary.json written before V8 Lens left its
 * agent out, whose lists still hold the agent's functions.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { v8LensScripts } from '../../../src/core/cpu/v8LensFrames';
import { v8LensScriptsBeside, withoutV8LensFunctions } from '../../../src/core/report/v8LensLeftOut';
import { emptySummary, type Summary } from '../../../src/shared/model/summary';
import { tempDir } from '../../../scripts/tempDirs';

const SESSION = join(__dirname, '..', '..', 'fixtures', 'heap', 'alloc-session.json');
const PRELOAD = '/v8-lens/dist/preload.js';

describe('V8 Lens\'s scripts beside a profile', () => {
  it('a profile in a run\'s cpu/ folder: the preload that run launched with; anywhere else: none', async () => {
    const run = tempDir('v8-lens-leftout-');
    mkdirSync(join(run, 'cpu'));
    copyFileSync(SESSION, join(run, 'session.json'));
    const inRun = await v8LensScriptsBeside(join(run, 'cpu', 'CPU.1.cpuprofile'));
    assert.ok(inRun?.(`file://${PRELOAD}`) && !inRun('file:///app/app.js'));
    assert.equal(await v8LensScriptsBeside(join(run, 'elsewhere.cpuprofile')), null);
    writeFileSync(join(run, 'session.json'), '{"not":"a session"}');
    assert.equal(await v8LensScriptsBeside(join(run, 'cpu', 'CPU.1.cpuprofile')), null, 'a session that cannot be read names nothing');
  });
});

describe('a summary written before the agent was left out', () => {
  const fn = (name: string, url: string, selfMs: number) => ({ name, url, line: 1, column: 1, selfMs, totalMs: selfMs });
  const old: Summary = emptySummary(
    { kind: 'run', path: '/runs/1' },
    {
      cpu: {
        profile: 'CPU.1.cpuprofile',
        durationMs: 100,
        sampleCount: 100,
        sampleIntervalMs: 1,
        functions: [fn('work', 'file:///app/app.js', 60), fn('start', `file://${PRELOAD}`, 30)],
        lines: [{ url: `file://${PRELOAD}`, line: 233, selfMs: 30 }, { url: 'file:///app/app.js', line: 2, selfMs: 60 }],
        pseudo: { gcMs: 0, idleMs: 0, programMs: 10 },
        profiles: [],
      },
      tierHistory: { timed: true, functions: [], optimizationsPerSecond: null },
    },
  );

  it('loses the agent\'s functions and lines, and says its duration still holds their time', () => {
    const cleaned = withoutV8LensFunctions(old, v8LensScripts([PRELOAD]));
    assert.deepEqual(cleaned.cpu!.functions.map((f) => f.name), ['work']);
    assert.deepEqual(cleaned.cpu!.lines.map((l) => l.url), ['file:///app/app.js']);
    assert.equal(cleaned.cpu!.durationMs, 100);
    assert.match(cleaned.warnings.at(-1)!, /written before V8 Lens left its own agent out: its 1 function\(s\) are taken out of the lists, but the profile's duration still holds their time/);
    assert.equal(old.cpu!.functions.length, 2, 'the summary read is left as it was');
  });

  it('is returned as it is when it says what it left out, or when the preload is unknown', () => {
    const current = { ...old, cpu: { ...old.cpu!, leftOut: { v8LensMs: 30, v8LensSamples: 30, beforeFirstSampleMs: 2 } } };
    assert.equal(withoutV8LensFunctions(current, v8LensScripts([PRELOAD])), current);
    assert.equal(withoutV8LensFunctions(old, null), old);
  });
});
