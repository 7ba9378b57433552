import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { deoptLensTitle, deoptSiteText, heatText, hotLensTitle } from '../../../src/core/annotations/annotationText';
import { DEFAULT_THRESHOLDS, MAX_DEOPT_SITES_PER_FILE } from '../../../src/core/annotations/annotationTypes';
import { buildAnnotations, heatLevel } from '../../../src/core/annotations/buildAnnotations';
import { pathKey } from '../../../src/core/annotations/sourcePaths';
import { SourceMapResolver } from '../../../src/core/sourcemap/sourceMapResolver';
import type { DeoptSummaryEntry, Summary } from '../../../src/shared/model/summary';
import { tempDir } from '../../../scripts/tempDirs';

function project(): { root: string; app: string } {
  const root = realpathSync(tempDir('v8lens-annot-'));
  mkdirSync(join(root, 'src'));
  const app = join(root, 'src', 'app.js');
  writeFileSync(app, Array.from({ length: 40 }, (_, i) => `// line ${i + 1}`).join('\n'));
  return { root, app };
}

function deopt(url: string, line: number, reason: string, extra: Partial<DeoptSummaryEntry> = {}): DeoptSummaryEntry {
  return { url, line, column: 12, function: 'area', optimizedFunction: 'total', kind: 'deopt-eager', reason, count: 1, inlinedAt: [], firstMs: null, lastMs: null, tier: 'TurboFan', functionStart: null, ...extra };
}

function summary(url: string, deopts: DeoptSummaryEntry[]): Summary {
  return {
    schemaVersion: 1,
    source: { kind: 'run', path: '/runs/x' },
    cpu: {
      profile: 'x.cpuprofile',
      durationMs: 1000,
      sampleCount: 1000,
      sampleIntervalMs: 1,
      functions: [
        { name: 'area', url, line: 4, column: 1, selfMs: 300, totalMs: 300 },
        { name: 'total', url, line: 10, column: 1, selfMs: 50, totalMs: 400 },
        { name: 'tiny', url, line: 20, column: 1, selfMs: 1, totalMs: 1 },
        { name: '(garbage collector)', url: '', line: 0, column: 0, selfMs: 20, totalMs: 20 },
      ],
      lines: [
        { url, line: 5, selfMs: 250 },
        { url, line: 6, selfMs: 50 },
        { url, line: 12, selfMs: 4 },
        { url, line: 21, selfMs: 0.5 },
        { url: 'node:internal/timers', line: 3, selfMs: 10 },
      ],
      pseudo: { gcMs: 20, idleMs: 0, programMs: 0 },
      profiles: [],
    },
    gc: null,
    deopts,
    deoptFunctions: [],
    optimizedFunctions: [],
    deoptCoverage: 'collected',
    warnings: [],
  };
}

const options = (root: string) => ({ source: '/runs/x', capturedAt: null, roots: [root], resolver: null, thresholds: DEFAULT_THRESHOLDS });

describe('buildAnnotations', () => {
  it('puts deopt sites on their lines and one lens per function at its first line, reasons tallied', async () => {
    const { root, app } = project();
    const s = summary(app, [
      deopt(app, 5, 'wrong map', { count: 2 }),
      deopt(app, 6, 'not a Smi'),
      deopt(app, 5, 'Insufficient type feedback for generic named access'),
    ]);
    const run = await buildAnnotations(s, options(root));
    const file = run.files.get(pathKey(app))!;
    assert.ok(file, 'the file is annotated');
    assert.deepEqual(file.deoptSites.map((d) => [d.line, d.short, d.count, d.harmless]), [
      [5, 'wrong map', 2, false],
      [5, 'insufficient feedback', 1, true],
      [6, 'not a Smi', 1, false],
    ]);
    assert.equal(file.deoptFunctions.length, 1);
    const lens = file.deoptFunctions[0]!;
    assert.deepEqual([lens.name, lens.line, lens.exact, lens.count], ['area', 4, true, 4]);
    assert.equal(deoptLensTitle(lens), '$(warning) deoptimized 4× · wrong map ×2 · not a Smi · insufficient feedback');
    assert.equal(run.deoptEvents, 4);
    assert.equal(run.deoptCoverage, 'collected');
  });

  it('without the function in the profile (inlined everywhere), the lens sits on the site line and says so', async () => {
    const { root, app } = project();
    const run = await buildAnnotations(summary(app, [deopt(app, 30, 'wrong map', { function: 'inlinedOnly' })]), options(root));
    const lens = run.files.get(pathKey(app))!.deoptFunctions[0]!;
    assert.deepEqual([lens.name, lens.line, lens.exact], ['inlinedOnly', 30, false]);
  });

  it('uses functionStart and reoptimized from newer summaries', async () => {
    const { root, app } = project();
    const s = summary(app, [deopt(app, 31, 'wrong map', { function: 'late', functionStart: { url: app, line: 29, column: 1 } } as Partial<DeoptSummaryEntry>)]);
    s.deoptFunctions = [{ function: 'late', url: app, line: 29, column: 1, tiers: ['TurboFan'], deoptCount: 1, inlinedDeoptCount: 0, reasons: [{ kind: 'deopt-eager', reason: 'wrong map', count: 1 }], reoptimized: false, reoptimizations: 0 }];
    const lens = (await buildAnnotations(s, options(root))).files.get(pathKey(app))!.deoptFunctions[0]!;
    assert.deepEqual([lens.line, lens.exact, lens.reoptimized], [29, true, false]);
    assert.match(deoptLensTitle(lens), /stayed deoptimized$/);
  });

  it('only harmless reasons: the lens says so', async () => {
    const { root, app } = project();
    const run = await buildAnnotations(summary(app, [deopt(app, 5, 'prepare for on stack replacement (OSR)')]), options(root));
    const lens = run.files.get(pathKey(app))!.deoptFunctions[0]!;
    assert.match(deoptLensTitle(lens), /^\$\(info\) deoptimized 1× · .* · usually harmless$/);
  });

  it('heat: every sampled line gets a level, text only above both thresholds; hot functions by total share', async () => {
    const { root, app } = project();
    const run = await buildAnnotations(summary(app, []), { ...options(root), thresholds: { ...DEFAULT_THRESHOLDS, heatMinMs: 3, heatMinPercent: 0.3, hotFunctionMinPercent: 5 } });
    const file = run.files.get(pathKey(app))!;
    assert.deepEqual(file.heatLines.map((h) => [h.line, h.level, h.labeled]), [
      [5, 5, true],
      [6, 4, true],
      [12, 1, true], // 4 ms, 0.4%
      [21, 1, false], // 0.5 ms: below 3 ms
    ]);
    assert.equal(heatText(file.heatLines[0]!), '250 ms · 25%');
    assert.deepEqual(file.hotFunctions.map((f) => f.name), ['total', 'area']);
    assert.equal(hotLensTitle(file.hotFunctions[0]!), '$(flame) self 50.0 ms (5.0%) · total 400 ms (40%)');
    assert.equal(run.files.size, 1, 'node: internals are not annotated');
  });

  it('no lens for a module\'s own top level (1:1), and a function with no self time says where its time is', async () => {
    const { root, app } = project();
    const s = summary(app, []);
    const fn = (name: string, line: number, column: number, selfMs: number, totalMs: number) => ({ ...s.cpu!.functions[0]!, name, line, column, selfMs, totalMs, url: s.cpu!.functions[0]!.url });
    s.cpu!.functions.push(fn('(anonymous)', 1, 1, 0, 900), fn('dispatch', 30, 1, 0, 300));
    const run = await buildAnnotations(s, options(root));
    const hot = run.files.get(pathKey(app))!.hotFunctions;
    assert.ok(!hot.some((f) => f.line === 1), JSON.stringify(hot.map((f) => [f.name, f.line])));
    const dispatch = hot.find((f) => f.name === 'dispatch')!;
    assert.equal(hotLensTitle(dispatch), '$(flame) total 300 ms (30%), all in what it calls');
  });

  it('heat levels are shares of the whole profile', () => {
    assert.deepEqual([0.2, 0.06, 0.03, 0.01, 0.001].map(heatLevel), [5, 4, 3, 2, 1]);
  });

  it('file:// URLs with percent-encoding, non-ASCII names and symlinked folders meet the editor\'s path', async () => {
    const { root } = project();
    const dir = join(root, 'my app');
    mkdirSync(dir);
    const file = join(dir, 'größe.mjs');
    writeFileSync(file, 'export const x = 1;\n'.repeat(10));
    const link = join(root, 'linked');
    symlinkSync(dir, link);
    const url = pathToFileURL(file).href; // file:///…/my%20app/gr%C3%B6%C3%9Fe.mjs
    assert.match(url, /my%20app\/gr%C3%B6%C3%9Fe\.mjs$/);
    const run = await buildAnnotations(summary(url, [deopt(url, 5, 'wrong map')]), options(root));
    // The editor may have opened the file through the symlink: the same key.
    assert.ok(run.files.get(pathKey(join(link, 'größe.mjs'))), 'found through the symlinked folder');
  });

  it('a profile from another machine (CI, Windows) lands on the workspace file with the same tail', async () => {
    const { root, app } = project();
    const run = await buildAnnotations(summary('file:///C:/build/agent/src/app.js', [deopt('C:\\build\\agent\\src\\app.js', 5, 'wrong map')]), options(root));
    const file = run.files.get(pathKey(app));
    assert.ok(file);
    assert.equal(file.deoptSites.length, 1);
    assert.equal(file.heatLines.length, 4);
  });

  it('positions in files that are not here are counted in a warning, not thrown on', async () => {
    const { root } = project();
    const run = await buildAnnotations(summary('/nowhere/else.js', [deopt('/nowhere/else.js', 5, 'wrong map')]), options(root));
    assert.equal(run.files.size, 0);
    assert.match(run.warnings[0] ?? '', /position\(s\) are in files not found here/);
  });

  it('5,000 deopt sites in one file: the most frequent are drawn, the rest counted', async () => {
    const { root, app } = project();
    const many = Array.from({ length: 5000 }, (_, i) => deopt(app, 1 + (i % 40), i % 2 ? 'wrong map' : 'not a Smi', { column: 1 + i, count: i === 4321 ? 50 : 1 }));
    const file = (await buildAnnotations(summary(app, many), options(root))).files.get(pathKey(app))!;
    assert.equal(file.deoptSites.length, MAX_DEOPT_SITES_PER_FILE);
    assert.equal(file.hiddenDeoptSites, 5000 - MAX_DEOPT_SITES_PER_FILE);
    assert.equal(file.deoptSites[0]!.count, 50, 'the most frequent site is kept');
    const lensEvents = file.deoptFunctions.reduce((n, f) => n + f.count, 0);
    assert.equal(lensEvents, 5049, 'lenses still count every event');
  });
});

describe('annotation texts', () => {
  it('after-line deopt text names the worst reason first', () => {
    const site = (short: string, harmless: boolean, count: number) => ({ short, harmless, count }) as Parameters<typeof deoptSiteText>[0][number];
    assert.equal(deoptSiteText([site('wrong map', false, 3), site('OSR', true, 1)]), '⚠ wrong map ×3 (+1 more)');
    assert.equal(deoptSiteText([site('insufficient feedback', true, 1)]), 'insufficient feedback (usually harmless)');
  });
});

describe('buildAnnotations: files the profile names are data', () => {
  it('a FIFO where a source file should be is not waited on: the position stays where V8 saw it', async () => {
    const { root } = project();
    const fifo = join(root, 'src', 'pipe.js');
    execFileSync('mkfifo', [fifo]);
    // Only a deopt whose function start is unknown reads the source (to find the function's line).
    const s = summary(fifo, [deopt(fifo, 5, 'wrong map', { function: 'notInProfile' })]);
    const run = await buildAnnotations(s, { ...options(root), resolver: new SourceMapResolver() });
    assert.equal(run.files.get(pathKey(fifo))?.deoptSites[0]?.line, 5);
  });
});
