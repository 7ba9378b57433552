// Scenario 16: V8 Lens as a custom editor. A .cpuprofile double-clicked (vscode.open) stays with
// VS Code's own viewer (V8 Lens registers with priority "option"); "Open With…" from the Explorer's
// context menu offers "V8 Lens" and opens the report there. A pprof from Node's own agent opens the
// same way, on its heap flame graph.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { numAttr, reportFrame } from '../lib/v8lens.mjs';

async function openWithFromExplorer(t, page, file) {
  const name = file.split('/').pop();
  await t.host.eval(async (vscode, uri) => { await vscode.commands.executeCommand('revealInExplorer', uri); }, { $uri: `file://${file}` });
  const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
  await row.waitFor({ timeout: 15_000 });
  await row.click({ button: 'right' });
  const item = page.locator('.monaco-menu .action-label', { hasText: /^Open With/ }).first();
  await item.waitFor({ timeout: 10_000 });
  await item.hover();
  await t.sleep(300);
  await item.click();
  await t.waitForQuickInput(page, /editor/i);
  const options = await t.quickPickItems(page);
  t.log(`Open With… for ${name}: ${JSON.stringify(options)}`);
  assert.ok(options.some((o) => /V8 Lens/.test(o)), `V8 Lens is offered: ${JSON.stringify(options)}`);
  await t.pickQuickItem(page, 'V8 Lens');
}

export default {
  name: 'Open With… V8 Lens from the Explorer: a .cpuprofile and a pprof open in the report; a plain open keeps VS Code\'s own viewer',
  async run(t) {
    const { page } = t;
    const profile = join(t.workspace, 'profiles', 'chrome65-simple.cpuprofile');

    // Priority "option": opening the file as usual does not land in V8 Lens.
    await t.host.eval(async (vscode, uri) => { await vscode.commands.executeCommand('vscode.open', uri); }, { $uri: `file://${profile}` });
    const plain = await t.waitFor(() => t.host.eval((vscode) => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input ? { viewType: input.viewType ?? null, kind: input.constructor?.name ?? '' } : null;
    }), { timeout: 15_000, what: 'the plain open to show a tab' });
    t.log(`plain open: ${JSON.stringify(plain)}`);
    assert.notEqual(plain.viewType, 'v8Lens.profileViewer', 'a plain open is not taken over by V8 Lens');
    await t.host.eval((vscode) => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

    await openWithFromExplorer(t, page, profile);
    const frame = await reportFrame(page);
    assert.match(await frame.locator('#report-title').textContent(), /chrome65-simple/);
    assert.ok(await numAttr(frame, '#flame-graph', 'data-frame-count') >= 5, 'a flame graph');
    const tab = await t.host.eval((vscode) => vscode.window.tabGroups.activeTabGroup.activeTab?.input?.viewType ?? null);
    assert.equal(tab, 'v8Lens.profileViewer');
    t.log('report open in the V8 Lens custom editor');
    await t.host.eval((vscode) => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

    const pprof = join(t.workspace, 'profiles', 'datadog-heap.pb.gz');
    await openWithFromExplorer(t, page, pprof);
    const heap = await t.webviewFrame(page, '#flame-tab-alloc[aria-selected="true"]', { timeout: 60_000 });
    assert.equal(await heap.locator('#flame-section h2').innerText(), 'Heap flame graph (live objects)');
    assert.match(await heap.locator('#alloc-cards [data-card="total"]').innerText(), /In use when taken/);
    await t.sleep(500);
    await t.screenshot(page, join(t.screenshotsDir, 'open-with-pprof.png'));
  },
};
