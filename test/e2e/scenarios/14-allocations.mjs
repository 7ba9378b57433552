// Scenario: who makes the garbage. The example alloc-service is profiled under load from the palette
// with the default preset (which samples allocations); the report's Allocations tab shows a flame
// graph in bytes, the "GC ← allocations" panel names the top allocators beside the GC of the same
// window and links to their source, and the source shows an allocation CodeLens above the function
// that allocates most, with a hover that says what it costs. Screenshots in a dark and a light theme
// (the second scenario reopens the same run), for the README.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hoverFlameFrame, numAttr, profileFileUnderLoad, reportFrame } from '../lib/v8lens.mjs';

const SERVICE = 'alloc-service/server.js';
// The title as the provider gives it, with its codicon: "$(trash) allocates 388 MB/s · 76% of young garbage · …".
const LENS = /^\$\(trash\) allocates .+\/s · \d+(\.\d)?% of young garbage/;

/** The palette's run of the service, found in the workspace's runs folder by the second scenario. */
function latestAllocRun(t) {
  const runs = join(t.workspace, '.v8-lens', 'runs');
  const names = readdirSync(runs).filter((n) => n.includes('server')).sort();
  for (const name of names.reverse()) {
    const summary = JSON.parse(readFileSync(join(runs, name, 'summary.json'), 'utf8'));
    if (summary.alloc && summary.source.path.includes(name)) return join(runs, name);
  }
  throw new Error(`no run with allocations in ${runs}: ${names.join(', ')}`);
}

async function showAllocations(t, frame) {
  await frame.locator('#flame-tab-alloc').click();
  await frame.locator('#flame-tab-alloc[aria-selected="true"]').waitFor({ timeout: 10_000 });
  assert.equal(await frame.locator('#flame-section h2').innerText(), 'Allocation flame graph');
  assert.ok(await numAttr(frame, '#flame-graph', 'data-frame-count') > 5, 'the allocation flame graph has frames');
}

/** Report left, source right: the allocation flame graph and panel beside the lens on the allocating function. */
async function sideBySide(t, frame, theme, file) {
  const { page } = t;
  const light = theme.includes('Light');
  await t.waitFor(() => t.host.eval((vscode) => vscode.window.activeColorTheme.kind).then((k) => k === (light ? 1 : 2)), { what: `the ${theme} theme` });
  await t.waitFor(() => frame.evaluate((cls) => document.body.classList.contains(cls), light ? 'vscode-light' : 'vscode-dark'), { what: `the webview in ${theme}` });
  await frame.evaluate(() => document.getElementById('alloc-section').scrollIntoView({ block: 'start' }));
  await t.sleep(800);
  await t.screenshot(page, join(t.screenshotsDir, file));
}

/** The source of the service beside the report, with its allocation lens; returns the lens. */
async function openSourceWithLens(t) {
  const file = join(t.workspace, SERVICE);
  const source = readFileSync(file, 'utf8').split('\n');
  await t.host.eval(async (vscode, uri) => {
    await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.Two, preserveFocus: true });
  }, { $uri: `file://${file}` });
  const lenses = await t.waitFor(async () => {
    const all = await t.host.eval(async (vscode, uri) => {
      const found = await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri, 100);
      return (found ?? []).map((l) => ({ line: l.range.start.line + 1, title: l.command?.title ?? '' }));
    }, { $uri: `file://${file}` });
    return all.some((l) => LENS.test(l.title)) ? all : null;
  }, { timeout: 30_000, what: `an allocation CodeLens on ${SERVICE}` });
  t.log(`lenses: ${JSON.stringify(lenses)}`);
  const alloc = lenses.filter((l) => LENS.test(l.title));
  // On every line it is on, a function starts: the lens sits above what allocates.
  for (const l of alloc) assert.match(source[l.line - 1], /function|=>/, `line ${l.line}: ${source[l.line - 1]}`);
  // The lens's first line in view, with the hover that says what it costs, shown at the start of
  // the line (the `function` keyword: code words would also get the language server's hover).
  const line = alloc[0].line;
  await t.host.eval(async (vscode, at) => {
    const editor = await vscode.window.showTextDocument(vscode.window.visibleTextEditors.find((e) => e.document.uri.path.endsWith('/alloc-service/server.js')).document, vscode.ViewColumn.Two);
    editor.selection = new vscode.Selection(at - 1, 0, at - 1, 0);
    editor.revealRange(new vscode.Range(Math.max(0, at - 3), 0, Math.max(0, at - 3), 0), vscode.TextEditorRevealType.AtTop);
    await vscode.commands.executeCommand('editor.action.showHover');
  }, line);
  const hover = t.page.locator('.monaco-hover-content', { hasText: 'V8 Lens · allocations' }).first();
  await hover.waitFor({ timeout: 15_000 });
  const hoverText = (await hover.textContent()).replace(/\s+/g, ' ');
  t.log(`hover: ${hoverText.slice(0, 300)}`);
  assert.match(hoverText, /What usually cuts it/);
  assert.match(hoverText, /Its share of the young-GC pause: about [\d.]+ (ms|s)/);
  return { file, source, alloc };
}

export default [
  {
    name: 'allocations: profile the alloc service under load from the palette; Allocations tab, GC ← allocations panel, allocation CodeLens (dark)',
    timeout: 240_000,
    settings: { 'workbench.colorTheme': 'Default Dark Modern' },
    viewport: { width: 1600, height: 1000 },
    async run(t) {
      const { page } = t;
      await profileFileUnderLoad(t, SERVICE);
      const frame = await reportFrame(page, { timeout: 120_000 });
      await showAllocations(t, frame);

      // The panel: the rate and bytes per request of the measured window, and the GC beside them.
      const cards = (await frame.locator('#alloc-cards').innerText()).replace(/\s+/g, ' ');
      t.log(`alloc cards: ${cards}`);
      assert.match(cards, /Allocation rate [\d.,]+ [KMG]B\/s/);
      assert.match(cards, /Per request [\d.]+ [KM]B in the measured window/);
      assert.match(cards, /Young GCs while sampling [\d,]+ [\d.,]+ ms of pause; one every [\d.,]+ MB allocated/);
      assert.match(await frame.locator('[data-note="agreement"]').innerText(), /^Checked against V8's own account: V8's GC trace accounts for/);
      const top = frame.locator('#alloc-functions tbody tr').first();
      const topText = (await top.innerText()).replace(/\s+/g, ' ');
      t.log(`top allocator: ${topText}`);
      assert.match(topText, /% [\d.,]+ [KMG]B ≈ [\d.,]+ ms .* alloc-service\/server\.js:\d+:\d+/);

      // A row opens its source, at the function's 1-based start.
      await top.click();
      const opened = await t.waitFor(() => t.host.eval((vscode) => {
        const e = vscode.window.activeTextEditor;
        return e && e.document.uri.path.endsWith('/alloc-service/server.js') ? { line: e.selection.active.line + 1 } : null;
      }), { what: 'the top allocator opened in the editor' });
      const where = /server\.js:(\d+):\d+/.exec(topText);
      assert.equal(opened.line, Number(where[1]));
      // It opened over the report: close it, so the report is back in the first column.
      await t.host.eval((vscode) => vscode.commands.executeCommand('workbench.action.closeActiveEditor'));

      // The lens above the allocating function, and its hover.
      await t.host.eval(async (vscode) => {
        await vscode.commands.executeCommand('workbench.action.closeSidebar');
        await vscode.commands.executeCommand('workbench.action.closePanel');
      });
      const { alloc } = await openSourceWithLens(t);
      assert.ok(alloc.some((l) => l.line === Number(where[1])), `a lens on line ${where[1]}: ${JSON.stringify(alloc)}`);
      const lensText = page.locator('.monaco-editor .codelens-decoration', { hasText: 'of young garbage' }).first();
      await lensText.waitFor({ timeout: 20_000 });
      t.log(`rendered lens: ${(await lensText.textContent()).trim()}`);
      await sideBySide(t, frame, 'Default Dark Modern', 'allocations-dark.png');
      // The allocation flame graph itself, hovering the top allocator's frame.
      await frame.evaluate(() => document.getElementById('flame-section').scrollIntoView({ block: 'start' }));
      await t.sleep(500);
      const topName = /% [\d.,]+ [KMG]B ≈ [\d.,]+ ms (\S+)/.exec(topText)[1];
      assert.equal(await hoverFlameFrame(frame, topName), topName, `the frame of ${topName} is drawn`);
      const tip = frame.locator('#flame-tooltip');
      await tip.waitFor({ state: 'visible', timeout: 10_000 });
      assert.match(await tip.innerText(), /self\s+[\d.,]+ [KMG]B · [\d.,]+% of the allocations/);
      await t.screenshot(page, join(t.screenshotsDir, 'allocations-flame-dark.png'));
    },
  },
  {
    name: 'allocations: the same run in a light theme (report beside the source with its lens)',
    timeout: 120_000,
    settings: { 'workbench.colorTheme': 'Default Light Modern' },
    viewport: { width: 1600, height: 1000 },
    async run(t) {
      const runDir = latestAllocRun(t);
      await t.host.eval(async (vscode) => {
        await vscode.commands.executeCommand('workbench.action.closeSidebar');
        await vscode.commands.executeCommand('workbench.action.closePanel');
      });
      await t.host.eval((vscode, uri) => vscode.commands.executeCommand('v8Lens.openReport', uri), { $uri: `file://${runDir}` });
      const frame = await reportFrame(t.page);
      await showAllocations(t, frame);
      await openSourceWithLens(t);
      await sideBySide(t, frame, 'Default Light Modern', 'allocations-light.png');
    },
  },
];
