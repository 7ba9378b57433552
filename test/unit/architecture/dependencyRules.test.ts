/**
 * The architecture rules of .dependency-cruiser.cjs (run over the repository by `npm run lint:deps`,
 * a step of `npm test`) catch what they claim: each rule is broken on purpose in a scratch tree and
 * must fail with its own name. And the dependency graph in docs/ is the code's current one.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';

const REPO = join(__dirname, '..', '..', '..');
const DEPCRUISE = join(REPO, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

/** One file per broken rule: [the file, its source, the rule it must break]. */
const VIOLATIONS: [string, string, string][] = [
  ['src/core/cpu/usesVscode.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n", 'core-imports-vscode'],
  ['src/shared/usesVscode.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n", 'core-imports-vscode'],
  ['src/core/capture/usesExtension.ts', "import { e } from '../../extension/thing';\nexport const x = e;\n", 'core-imports-a-front-end'],
  ['src/core/report/usesCli.ts', "import { c } from '../../cli';\nexport const x = c;\n", 'core-imports-a-front-end'],
  ['src/core/util/upward.ts', "import { r } from '../report/model';\nexport const x = r;\n", 'core-layer-ground-imports-upward'],
  ['src/core/gc/upward.ts', "import { t } from '../targets/target';\nexport const x = t;\n", 'core-layer-formats-imports-upward'],
  ['src/core/flags/upward.ts', "import type { Layout } from '../run/layout';\nexport type X = Layout;\n", 'core-layer-process-imports-upward'],
  ['src/core/run/upward.ts', "import { s } from '../sweep/lab';\nexport const x = s;\n", 'core-layer-run-folder-imports-upward'],
  ['src/core/attach/upward.ts', "import { r } from '../report/model';\nexport const x = r;\n", 'core-layer-workflows-imports-upward'],
  ['src/core/stray/thing.ts', "import { u } from '../util/base';\nexport const x = u;\n", 'core-folder-outside-the-layers'],
  ['src/core/v8log/cycleA.ts', "import { b } from './cycleB';\nexport const a = () => b;\n", 'no-circular'],
  ['src/shared/usesCore.ts', "import { u } from '../core/util/base';\nexport const x = u;\n", 'shared-imports-outside-shared'],
  ['webview/page/usesCore.ts', "import { u } from '../../src/core/util/base';\nexport const x = u;\n", 'webview-imports-past-the-protocol'],
  ['webview/page/usesNode.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", 'webview-imports-node'],
  ['src/cli.ts', "import { e } from './extension/thing';\nexport const c = e;\n", 'cli-imports-the-extension'],
  ['src/core/preload/usesPackage.ts', "import { p } from 'some-package';\nexport const x = p;\n", 'preload-imports-a-package'],
];

/** The files the violations import, each harmless on its own. */
const TARGETS: [string, string][] = [
  ['src/extension/thing.ts', 'export const e = 1;\n'],
  ['src/core/report/model.ts', 'export const r = 1;\n'],
  ['src/core/targets/target.ts', 'export const t = 1;\n'],
  ['src/core/run/layout.ts', 'export interface Layout { dir: string }\n'],
  ['src/core/sweep/lab.ts', 'export const s = 1;\n'],
  ['src/core/util/base.ts', 'export const u = 1;\n'],
  ['src/core/v8log/cycleB.ts', "import { a } from './cycleA';\nexport const b = () => a;\n"],
  ['node_modules/some-package/package.json', '{ "name": "some-package", "version": "1.0.0", "main": "index.js" }\n'],
  ['node_modules/some-package/index.js', 'exports.p = 1;\n'],
  ['node_modules/@types/vscode/package.json', '{ "name": "@types/vscode", "version": "1.95.0", "types": "index.d.ts" }\n'],
  ['node_modules/@types/vscode/index.d.ts', "declare module 'vscode' { export const version: string; }\n"],
  ['package.json', '{ "name": "scratch", "dependencies": { "some-package": "1.0.0" }, "devDependencies": { "@types/vscode": "1.95.0" } }\n'],
  ['tsconfig.json', '{ "compilerOptions": { "module": "preserve", "moduleResolution": "bundler", "strict": true }, "include": ["src", "webview"] }\n'],
];

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** dependency-cruiser over a tree with the repository's rules, as `npm run lint:deps` runs it. */
function cruise(cwd: string, outputType: 'json' | 'err') {
  return spawnSync(process.execPath, [DEPCRUISE, 'src', 'webview', '--config', join(REPO, '.dependency-cruiser.cjs'), '--output-type', outputType], { cwd, encoding: 'utf8' });
}

describe('the dependency rules', () => {
  let scratch: string;
  let found: Violation[];

  before(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'v8lens-deprules-'));
    for (const [file, text] of [...TARGETS, ...VIOLATIONS.map(([f, t]) => [f, t] as [string, string])]) {
      mkdirSync(dirname(join(scratch, file)), { recursive: true });
      writeFileSync(join(scratch, file), text);
    }
    found = (JSON.parse(cruise(scratch, 'json').stdout) as { summary: { violations: Violation[] } }).summary.violations;
  });
  after(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  for (const [file, , rule] of VIOLATIONS) {
    it(`${rule} catches ${file}`, () => {
      const hit = found.filter((v) => v.from === file && v.rule.name === rule);
      assert.ok(hit.length > 0, `expected ${rule} from ${file}; got ${JSON.stringify(found.filter((v) => v.from === file).map((v) => v.rule.name))}`);
    });
  }

  it('fails the check (non-zero exit) and names the rule, as npm test shows it', () => {
    const result = cruise(scratch, 'err');
    assert.notEqual(result.status, 0);
    assert.match(result.stdout, /error core-imports-vscode: src\/core\/cpu\/usesVscode\.ts → /);
  });

  it('the harmless files break nothing', () => {
    const innocent = TARGETS.map(([f]) => f).filter((f) => f !== 'src/core/v8log/cycleB.ts');
    assert.deepEqual(found.filter((v) => innocent.includes(v.from)).map((v) => `${v.rule.name}: ${v.from}`), []);
  });

  it('docs/dependency-graph.md is the current graph (npm run depgraph redraws it)', async () => {
    const { drawGraph, GRAPH_FILE } = (await import(join(REPO, 'scripts', 'depgraph.mjs'))) as { drawGraph(): string; GRAPH_FILE: string };
    const committed = readFileSync(join(REPO, GRAPH_FILE), 'utf8');
    assert.ok(drawGraph() === committed, `${GRAPH_FILE} is out of date: run npm run depgraph`);
  });
});
