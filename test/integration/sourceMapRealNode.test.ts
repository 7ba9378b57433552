/**
 * Real Node runs the compiled TypeScript fixture (test/fixtures/sourcemap/ts-app/dist/app.js); the
 * positions V8 reports in dist/app.js (CPU profile position ticks and frames, deopt sites) must map
 * through the source map to the marked lines of src/app.ts. Expected lines come from the markers in
 * the .ts text, never from hard-coded numbers.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { SourceMapResolver } from '../../src/core/sourcemap/sourceMapResolver';
import { findV8LogFiles, readV8LogFiles } from '../../src/core/v8log/v8LogReader';
import { NODES, REPO, tempDir } from './cliHarness';

const TS_APP = join(REPO, 'test', 'fixtures', 'sourcemap', 'ts-app');
const APP_JS = join(TS_APP, 'dist', 'app.js');
const APP_TS = join(TS_APP, 'src', 'app.ts');

/** 1-based line of `src/app.ts` that carries a marker comment (`; // MARKER`, not the header that lists them). */
function markedLine(marker: string): number {
  const index = readFileSync(APP_TS, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(`; // ${marker}`));
  assert.ok(index >= 0, `no "; // ${marker}" line in app.ts`);
  return index + 1;
}

function tsLineOf(text: string): number {
  const index = readFileSync(APP_TS, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(text));
  assert.ok(index >= 0, `"${text}" not in app.ts`);
  return index + 1;
}

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  positionTicks?: { line: number; ticks: number }[];
}

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

for (const node of NODES) {
  // scripts/run-tests.mjs installs Node 22 and 24 before the integration tests: a missing one fails.
  describe(`source maps on ${node.label}`, () => {
    it('maps the hottest position-tick line of `spin` to the HOT-LOOP line of app.ts', { timeout: 30_000 }, async () => {
      const dir = tempDir('v8-lens-sourcemap-');
      dirs.push(dir);
      const run = spawnSync(node.path, ['--cpu-prof', '--cpu-prof-dir', dir, APP_JS], { encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /^ts-app done/);
      const profileFile = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
      assert.ok(profileFile, 'no .cpuprofile written');
      const profile = JSON.parse(readFileSync(join(dir, profileFile), 'utf8')) as { nodes: ProfileNode[] };

      const spinNodes = profile.nodes.filter((n) => n.callFrame.functionName === 'spin' && n.callFrame.url !== '' && fileURLToPath(n.callFrame.url) === APP_JS);
      assert.ok(spinNodes.length > 0, 'no `spin` frame in the profile');
      const ticks = new Map<number, number>();
      for (const n of spinNodes) for (const t of n.positionTicks ?? []) ticks.set(t.line, (ticks.get(t.line) ?? 0) + t.ticks);
      const [hotJsLine] = [...ticks].sort((a, b) => b[1] - a[1])[0] ?? [];
      assert.ok(hotJsLine !== undefined, 'no position ticks for `spin`');

      const resolver = new SourceMapResolver();
      const hot = await resolver.originalLine(APP_JS, hotJsLine);
      assert.deepEqual(hot, { path: APP_TS, line: markedLine('HOT-LOOP'), column: 0, name: null }, `ticks per dist/app.js line: ${JSON.stringify([...ticks])}`);
      assert.notEqual(hotJsLine, markedLine('HOT-LOOP'), 'the .js and .ts lines differ, so the mapping did something');

      // The frame's own position (0-based in the profile) is the function's, in app.ts.
      const frame = spinNodes[0]!.callFrame;
      const start = await resolver.original(APP_JS, frame.lineNumber + 1, frame.columnNumber + 1);
      assert.equal(start?.path, APP_TS);
      assert.equal(start?.line, tsLineOf('function spin('));
      assert.equal(resolver.problem(APP_JS), null);
    });

    it('maps the deopt sites V8 logs in dist/app.js to the DEOPT lines of app.ts', { timeout: 30_000 }, async () => {
      const dir = tempDir('v8-lens-sourcemap-');
      dirs.push(dir);
      const flags = ['--no-concurrent-recompilation', '--log-deopt', '--log-code', `--logfile=${join(dir, 'v8.log')}`];
      const run = spawnSync(node.path, [...flags, APP_JS, '1'], { encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      const analysis = await readV8LogFiles(await findV8LogFiles(dir));

      const resolver = new SourceMapResolver();
      const mapped: { line: number; reason: string }[] = [];
      for (const d of analysis.deopts) {
        if (d.position === null || d.position.url !== APP_JS) continue;
        const pos = await resolver.original(APP_JS, d.position.line, d.position.column);
        if (pos !== null && pos.path === APP_TS) mapped.push({ line: pos.line, reason: d.reason });
      }
      const seen = JSON.stringify(mapped);
      assert.ok(mapped.some((m) => m.line === markedLine('DEOPT-WRONG-MAP') && m.reason === 'wrong map'), `no "wrong map" on the DEOPT-WRONG-MAP line; mapped: ${seen}`);
      assert.ok(mapped.some((m) => m.line === markedLine('DEOPT-NOT-NUMBER')), `no deopt on the DEOPT-NOT-NUMBER line; mapped: ${seen}`);
    });
  });
}
