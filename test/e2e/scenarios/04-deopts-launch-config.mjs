// Scenario: profile a launch configuration that exits by itself (examples/deopts/shapes.js with
// --no-concurrent-recompilation from launch.json); the report opens on its own, the deopt table
// names V8's reasons, and clicking a deopt row opens the source at its line (webview → host).
import assert from 'node:assert/strict';
import { numAttr, profileLaunchConfig, reportFrame } from '../lib/v8lens.mjs';

export default {
  name: 'profile the "Deopts: shapes" launch config; deopt table reasons; a row click opens the line',
  async run(t) {
    const { page } = t;
    await profileLaunchConfig(t, 'Deopts: shapes');

    const frame = await reportFrame(page, { timeout: 90_000 });
    assert.match(await frame.locator('#run-meta').textContent(), /shapes\.js/);
    const table = frame.locator('#deopt-table');
    // Rows are counted, not waited for as "visible": a report the workbench keeps behind another
    // tab still has them. When there are none, say what the section shows instead.
    await t.waitFor(async () => (await table.locator('tbody tr').count()) > 0, {
      timeout: 10_000,
      what: 'deopt rows',
    }).catch(async (e) => {
      const shown = await frame.locator('#deopt-section').textContent().catch(() => '(no #deopt-section)');
      throw new Error(`${e.message}; the deopt section shows: ${shown?.trim().slice(0, 400)}`);
    });
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent.trim())));
    t.log(`deopt rows: ${JSON.stringify(rows)}`);
    // Columns: count, reason, function, location, kind.
    assert.ok(rows.some((r) => r[1] === 'wrong map' && /^area\b/.test(r[2]) && /shapes\.js:5:/.test(r[3])), 'a "wrong map" deopt in area at shapes.js:5');
    assert.ok(rows.some((r) => r[1] === 'not a Smi' && /^add\b/.test(r[2])), 'a "not a Smi" deopt in add');
    assert.ok(await numAttr(frame, '#flame-graph', 'data-frame-count') > 0);

    // Click the "wrong map" row of area(): the editor opens shapes.js at area's line.
    await table.locator('tbody tr', { hasText: 'wrong map' }).filter({ has: frame.locator('.fn-name', { hasText: /^area$/ }) }).first().click();
    const where = await t.waitFor(() => t.host.eval((vscode) => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.path.endsWith('/deopts/shapes.js') ? { line: e.selection.active.line + 1 } : null;
    }), { timeout: 15_000, what: 'deopts/shapes.js to open in an editor' });
    assert.equal(where.line, 5, 'the cursor is on area()\'s multiplication line');
  },
};
