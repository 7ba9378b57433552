// Scenario: who the young GC copies. With the setting allocations.survivors on, a program with three
// lifetimes (garbage that dies at once, data kept ~150 ms, a slow cache) is profiled from the palette:
// V8 Lens runs it, then runs it again keeping only what no young GC frees. The report's flame
// section gets a Survivors tab beside All allocations, where the ~150 ms-lived allocator is the widest
// frame, and a Survivors panel that says what the mode means and its limit; the source gets a lens
// above keepForAWhile ("keeps N% of what it allocates past a young GC: copied, then promoted").
// Screenshots of the survivors flame graph and of the lens beside the panel, for the README.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hoverFlameFrame, numAttr, reportFrame } from '../lib/v8lens.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PROGRAM = 'survivors/three-lifetimes.js';
/** keepForAWhile's line in the fixture (1-based), read from it rather than written down twice. */
const KEEP_LINE = readFileSync(join(REPO, 'test', 'fixtures', 'programs', 'three-lifetimes.js'), 'utf8').split('\n').findIndex((l) => l.startsWith('function keepForAWhile(')) + 1;
const LENS = /^\$\(history\) keeps \d+% of what it allocates past a young GC: copied, then promoted/;

export default {
  name: 'survivors: allocations.survivors on, a three-lifetime script from the palette; Survivors tab and panel, survivors lens on keepForAWhile',
  timeout: 240_000,
  settings: { 'workbench.colorTheme': 'Default Dark Modern', 'v8Lens.allocations.survivors': true },
  viewport: { width: 1600, height: 1000 },
  async run(t) {
    const { page } = t;
    const file = join(t.workspace, PROGRAM);
    mkdirSync(dirname(file), { recursive: true });
    copyFileSync(join(REPO, 'test', 'fixtures', 'programs', 'three-lifetimes.js'), file);

    await t.openFileQuick(page, PROGRAM);
    await t.runCommand(page, 'V8 Lens: Profile with GC Trace');
    await t.waitForQuickInput(page, /What to profile/);
    await t.pickQuickItem(page, 'Active file: three-lifetimes.js');
    await t.waitForQuickInput(page, /What to collect/);
    await t.pickQuickItem(page, /^CPU \+ GC trace \+ deopts/);
    await t.waitForQuickInput(page, /Drive it with HTTP load/);
    await t.pickQuickItem(page, 'No load');

    // The run, then the survivors pass, then the report.
    const frame = await reportFrame(page, { timeout: 150_000 });
    await frame.locator('#flame-tab-survivors').waitFor({ timeout: 20_000 });
    assert.equal(await frame.locator('#flame-tab-alloc').innerText(), 'All allocations');

    // The panel: the meaning and the limit, the rate's basis, keepForAWhile first with its rate.
    const panel = frame.locator('#survivors-panel');
    await panel.waitFor({ timeout: 20_000 });
    assert.match(await frame.locator('[data-note="survivors-meaning"]').innerText(), /allocated after the last young GC of that run counts as surviving/);
    assert.match(await frame.locator('[data-note="survival-rate"]').innerText(), /both runs did the same work/);
    const top = frame.locator('#survivor-functions tbody tr').first();
    const topText = (await top.innerText()).replace(/\s+/g, ' ');
    t.log(`top survivor: ${topText}`);
    assert.equal(await top.getAttribute('data-function'), 'keepForAWhile');
    assert.ok(KEEP_LINE > 0, 'keepForAWhile is in the fixture');
    assert.match(topText, new RegExp(`% [\\d.]+ [KMG]B (\\d+%|≈100%) ≈ [\\d.]+ [KMG]B · [\\d.]+ ms keepForAWhile .*three-lifetimes\\.js:${KEEP_LINE}:\\d+`));

    // The survivors flame graph: keepForAWhile's frame drawn, its tooltip in survivor bytes.
    await frame.locator('#flame-tab-survivors').click();
    await frame.locator('#flame-tab-survivors[aria-selected="true"]').waitFor({ timeout: 10_000 });
    assert.equal(await frame.locator('#flame-section h2').innerText(), 'Survivors flame graph (what no young GC freed)');
    assert.ok(await numAttr(frame, '#flame-graph', 'data-frame-count') > 3, 'the survivors flame graph has frames');
    await t.host.eval(async (vscode) => {
      await vscode.commands.executeCommand('workbench.action.closeSidebar');
      await vscode.commands.executeCommand('workbench.action.closePanel');
    });
    await frame.evaluate(() => document.getElementById('flame-section').scrollIntoView({ block: 'start' }));
    await t.sleep(500);
    assert.equal(await hoverFlameFrame(frame, 'keepForAWhile'), 'keepForAWhile', 'the frame of keepForAWhile is drawn');
    const tip = frame.locator('#flame-tooltip');
    await tip.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await tip.innerText(), /self\s+[\d.,]+ [KMG]B · [\d.,]+% of the survivors/);
    await t.screenshot(page, join(t.screenshotsDir, 'survivors-flame-dark.png'));

    // The lens above keepForAWhile, beside the report's Survivors panel.
    const source = readFileSync(file, 'utf8').split('\n');
    await t.host.eval(async (vscode, uri) => {
      await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.Two, preserveFocus: true });
    }, { $uri: `file://${file}` });
    const lenses = await t.waitFor(async () => {
      const all = await t.host.eval(async (vscode, uri) => {
        const found = await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri, 100);
        return (found ?? []).map((l) => ({ line: l.range.start.line + 1, title: l.command?.title ?? '' }));
      }, { $uri: `file://${file}` });
      return all.some((l) => LENS.test(l.title) && /^function keepForAWhile\(/.test(source[l.line - 1])) ? all : null;
    }, { timeout: 30_000, what: `a survivors CodeLens above keepForAWhile in ${PROGRAM}` });
    t.log(`lenses: ${JSON.stringify(lenses)}`);
    // Other functions may keep a little (a site V8 pretenured counts as surviving: its objects never
    // meet a young GC), but keepForAWhile keeps the largest share.
    const survivorLenses = lenses.filter((l) => LENS.test(l.title));
    const lens = survivorLenses.find((l) => /^function keepForAWhile\(/.test(source[l.line - 1]));
    const kept = (l) => Number(/keeps (\d+)%/.exec(l.title)[1]);
    assert.ok(survivorLenses.every((l) => kept(l) <= kept(lens)), `keepForAWhile's lens keeps the largest share: ${JSON.stringify(survivorLenses)}`);
    const rendered = page.locator('.monaco-editor .codelens-decoration', { hasText: 'past a young GC' }).first();
    await rendered.waitFor({ timeout: 20_000 });
    t.log(`rendered lens: ${(await rendered.textContent()).trim()}`);
    await frame.evaluate(() => document.getElementById('survivors-heading').scrollIntoView({ block: 'start' }));
    await t.sleep(800);
    await t.screenshot(page, join(t.screenshotsDir, 'survivors-lens-dark.png'));
  },
};
