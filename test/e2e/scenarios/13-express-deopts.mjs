// Scenario: an app nobody here wrote (an express JSON API, installed from its lockfile) profiled
// under load from the palette. After 300 requests it feeds its hot pricing function a third object
// shape, and V8 throws the optimized code away: the report's deopt table has that deopt at V8's own
// position (lib/pricing.js:6:22, 1-based, reason "wrong map", recorded in the fixture's
// expected.json), every row names its function, and a CodeLens on lib/pricing.js gives the reason.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { profileFileUnderLoad, reportFrame } from '../lib/v8lens.mjs';

export default {
  name: 'profile an express API under load from the palette; its deopt at lib/pricing.js:6:22 (wrong map), no row without a function',
  timeout: 180_000,
  async run(t) {
    const { page } = t;
    await profileFileUnderLoad(t, 'express-api/app.js');

    const frame = await reportFrame(page, { timeout: 90_000 });
    const rows = frame.locator('#deopt-table tbody tr');
    await rows.first().waitFor({ timeout: 20_000 });
    const texts = (await rows.allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
    t.log(`deopt rows: ${JSON.stringify(texts.slice(0, 8))}`);
    const pricing = texts.find((r) => /wrong map/.test(r) && /lib\/pricing\.js:6:22/.test(r));
    assert.ok(pricing, `wrong map at lib/pricing.js:6:22 in the deopt table: ${JSON.stringify(texts)}`);
    assert.match(pricing, /itemTotal/);
    for (const r of texts) assert.doesNotMatch(r, /\((unknown|code not logged)\)/, `a row without its function: ${r}`);

    // The same deopt on the source: the lens above itemTotal (line 5 of lib/pricing.js).
    const file = join(t.workspace, 'express-api', 'lib', 'pricing.js');
    await t.host.eval(async (vscode, uri) => { await vscode.window.showTextDocument(uri); }, { $uri: `file://${file}` });
    const lenses = await t.waitFor(async () => {
      const all = await t.host.eval(async (vscode, uri) => {
        const found = await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri, 100);
        return (found ?? []).map((l) => ({ line: l.range.start.line + 1, title: l.command?.title ?? '' }));
      }, { $uri: `file://${file}` });
      return all.some((l) => /deoptimized|deopt/.test(l.title)) ? all : null;
    }, { timeout: 30_000, what: 'a deopt CodeLens on lib/pricing.js' });
    t.log(`lenses on lib/pricing.js: ${JSON.stringify(lenses)}`);
    // Above itemTotal (line 5) when the profile placed it, else above orderTotal (line 10), whose optimized code it was.
    assert.ok(lenses.some((l) => (l.line === 5 || l.line === 10) && /wrong map/.test(l.title)), `a lens with the reason above itemTotal or orderTotal: ${JSON.stringify(lenses)}`);

    await frame.evaluate(() => document.getElementById('deopt-section').scrollIntoView({ block: 'start' }));
    await t.sleep(300);
    await t.screenshot(page, join(t.screenshotsDir, 'express-deopts.png'));
  },
};
