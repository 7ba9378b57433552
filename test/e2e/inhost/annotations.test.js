'use strict';
// In-host tests of the source annotations' behaviour in the real editor: lenses follow edits, a
// file changed after the run is marked stale instead of annotated, and a file with 5,000 deopts
// is capped with a notice. The run folder here holds a summary.json written by the test (the
// capture path itself is covered by the UI scenario 06 with a real run).
const assert = require('node:assert/strict');
const path = require('node:path');
const fs = require('node:fs');
const vscode = require('vscode');

const { until } = require('./wait');
const lensesOf = async (uri) =>
  ((await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri, 100)) ?? []).map((l) => ({
    line: l.range.start.line + 1,
    title: l.command ? l.command.title : '',
  }));

describe('source annotations in the editor', function () {
  const workspace = () => vscode.workspace.workspaceFolders[0].uri.fsPath;
  let dir;
  let big;
  let stale;

  before(async () => {
    dir = path.join(workspace(), 'annotations-inhost');
    fs.mkdirSync(dir, { recursive: true });
    big = path.join(dir, 'big.js');
    stale = path.join(dir, 'stale.js');
    const body = ['// generated for the in-host test', ...Array.from({ length: 8 }, (_, i) => `// filler ${i}`), 'function hot(o) {', '  let s = 0;', '  for (let i = 0; i < o.n; i++) s += o.x * i;', '  return s;', '}'];
    fs.writeFileSync(big, `${body.join('\n')}\n${Array.from({ length: 400 }, (_, i) => `const v${i} = ${i};`).join('\n')}\n`);
    fs.writeFileSync(stale, `${body.join('\n')}\n`);
    const runDir = path.join(dir, 'run');
    fs.mkdirSync(runDir, { recursive: true });
    const deopts = Array.from({ length: 5000 }, (_, i) => ({
      url: big, line: i === 0 ? 12 : 15 + (i % 400), column: 1 + (i % 30), function: i === 0 ? 'hot' : '(anonymous)', optimizedFunction: 'hot',
      kind: 'deopt-eager', reason: i % 2 ? 'wrong map' : 'not a Smi', count: i === 0 ? 50 : 1, inlinedAt: [], firstMs: null, lastMs: null, tier: 'TurboFan', functionStart: null,
    }));
    deopts.push({ ...deopts[0], url: stale, count: 1 });
    const lines = (url) => [{ url, line: 12, selfMs: 400 }, { url, line: 11, selfMs: 10 }];
    const summary = {
      schemaVersion: 1,
      source: { kind: 'run', path: runDir },
      cpu: {
        profile: 'none.cpuprofile', durationMs: 1000, sampleCount: 1000, sampleIntervalMs: 1,
        functions: [big, stale].map((url) => ({ name: 'hot', url, line: 10, column: 1, selfMs: 410, totalMs: 410 })),
        lines: [...lines(big), ...lines(stale)],
        pseudo: { gcMs: 0, idleMs: 0, programMs: 0 },
        profiles: [],
      },
      gc: null,
      deopts,
      deoptFunctions: [],
      optimizedFunctions: [],
      warnings: [],
    };
    fs.writeFileSync(path.join(runDir, 'summary.json'), JSON.stringify(summary));
    // Without a session.json the run's time is its folder's, newer than big.js.
    // stale.js changed a minute after the run.
    const later = new Date(Date.now() + 65_000);
    fs.utimesSync(stale, later, later);
    await vscode.commands.executeCommand('v8Lens.openReport', vscode.Uri.file(runDir));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a file with 5,000 deopts draws the most frequent and says how many there are', async () => {
    const uri = vscode.Uri.file(big);
    await vscode.window.showTextDocument(uri);
    const lenses = await until(async () => {
      const l = await lensesOf(uri);
      return l.some((x) => /deoptimized/.test(x.title)) ? l : null;
    }, 'deopt lenses on big.js');
    const notice = lenses.find((l) => /5,000 deopt sites in this file; the 500 most frequent are drawn/.test(l.title));
    assert.ok(notice, `a notice lens: ${JSON.stringify(lenses.slice(0, 5))}`);
    const hot = lenses.find((l) => l.line === 10 && /deoptimized 50× · not a Smi ×50/.test(l.title));
    assert.ok(hot, `the lens of hot() at line 10: ${JSON.stringify(lenses.filter((l) => l.line < 14))}`);
    assert.ok(lenses.some((l) => l.line === 10 && /self 410 ms \(41%\)/.test(l.title)), 'the hot-function lens');
  });

  it('lenses follow edits: three lines inserted above move them down three lines', async () => {
    const uri = vscode.Uri.file(big);
    const editor = await vscode.window.showTextDocument(uri);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '// a\n// b\n// c\n'));
    const lenses = await until(async () => {
      const l = await lensesOf(uri);
      return l.some((x) => x.line === 13 && /deoptimized 50×/.test(x.title)) ? l : null;
    }, 'the hot() lens on line 13 after the edit');
    assert.ok(!lenses.some((l) => l.line === 10 && /deoptimized 50×/.test(l.title)), 'nothing left on the old line');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('a file changed on disk after the run is marked stale, not annotated', async () => {
    const uri = vscode.Uri.file(stale);
    await vscode.window.showTextDocument(uri);
    const lenses = await until(async () => {
      const l = await lensesOf(uri);
      return l.length > 0 ? l : null;
    }, 'lenses on stale.js');
    assert.match(lenses[0].title, /this file changed at .*annotations hidden/);
    assert.ok(!lenses.some((l) => /deoptimized|self/.test(l.title)), `no annotations on it: ${JSON.stringify(lenses)}`);
  });
});
