// Scenario: profile the demo deopt program from the palette, then open its source: a CodeLens above
// area() says it deoptimized with V8's reason, the deopt line carries the reason after the line
// and a hover that explains it, the hottest line carries its self time, the status bar names the
// run, and the lens lists the deopt sites and jumps to one. Screenshot for the README.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { profileLaunchConfig, reportFrame } from '../lib/v8lens.mjs';

/** Text that decorations render after lines (CSS ::after content), per visible line text. */
async function afterTexts(page) {
  return page.locator('.monaco-editor .view-lines .view-line').evaluateAll((lines) => lines.map((line) => {
    const after = [...line.querySelectorAll('span')]
      .map((s) => getComputedStyle(s, '::after').content)
      .filter((c) => c && c !== 'none' && c !== 'normal')
      .map((c) => c.replace(/^"|"$/g, ''));
    return { text: line.textContent.replace(/\u00a0/g, ' '), after };
  }));
}

export default {
  name: 'annotations: deopt CodeLens with the reason above area(), heat text on its hottest line, hover, status bar',
  timeout: 180_000,
  viewport: { width: 1600, height: 900 },
  async run(t) {
    const { page } = t;
    await profileLaunchConfig(t, 'Deopts: shapes');
    await reportFrame(page, { timeout: 90_000 });
    t.log('report rendered');

    // Opened from the extension host: with the report's webview focused, Quick Open's keys go to
    // the webview.
    const file = join(t.workspace, 'deopts', 'shapes.js');
    await t.host.eval(async (vscode, uri) => { await vscode.window.showTextDocument(uri); }, { $uri: `file://${file}` });
    await t.waitFor(() => t.host.eval((vscode) => vscode.window.activeTextEditor?.document.uri.path.endsWith('/deopts/shapes.js')),
      { timeout: 15_000, what: 'shapes.js in the active editor' });
    const source = readFileSync(file, 'utf8').split('\n');
    const areaLine = source.findIndex((l) => l.startsWith('function area(')) + 1;
    const hotLine = areaLine + 1; // `return shape.width * shape.height;`

    // The lenses through VS Code's own command (it runs our provider), with their lines.
    const lenses = await t.waitFor(async () => {
      const all = await t.host.eval(async (vscode, uri) => {
        const found = await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri, 100);
        return (found ?? []).map((l) => ({ line: l.range.start.line + 1, title: l.command?.title ?? '' }));
      }, { $uri: `file://${file}` });
      return all.some((l) => /deoptimized/.test(l.title)) ? all : null;
    }, { timeout: 30_000, what: 'a deopt CodeLens on shapes.js' });
    t.log(`lenses: ${JSON.stringify(lenses)}`);
    const areaLens = lenses.find((l) => l.line === areaLine && /deoptimized/.test(l.title));
    assert.ok(areaLens, `a deopt lens above function area (line ${areaLine}): ${JSON.stringify(lenses)}`);
    assert.match(areaLens.title, /deoptimized \d+× · wrong map/);

    // Rendered in the editor: the lens text, the reason after the deopt line, the heat text.
    const lensText = page.locator('.monaco-editor .codelens-decoration', { hasText: 'wrong map' }).first();
    await lensText.waitFor({ timeout: 20_000 });
    t.log(`rendered lens: ${(await lensText.textContent()).trim()}`);
    const lines = await t.waitFor(async () => {
      const all = await afterTexts(page);
      const hot = all.find((l) => l.text.includes('shape.width * shape.height'));
      return hot && hot.after.some((a) => /wrong map/.test(a)) && hot.after.some((a) => /\d ms · \d+(\.\d)?%/.test(a)) ? all : null;
    }, { timeout: 20_000, what: `the deopt reason and heat text after line ${hotLine}` });
    const hot = lines.find((l) => l.text.includes('shape.width * shape.height'));
    t.log(`after line ${hotLine}: ${JSON.stringify(hot.after)}`);

    // The status bar names the run.
    const status = page.locator('.statusbar-item', { hasText: /V8 Lens: run \d\d:\d\d:\d\d · \d+ deopts?/ }).first();
    await status.waitFor({ timeout: 10_000 });
    t.log(`status bar: ${(await status.textContent()).trim()}`);

    // The hover explains the reason in plain words. The side bar and panel are closed first, so the
    // screenshot shows the source with its annotations alone.
    await t.host.eval(async (vscode) => {
      await vscode.commands.executeCommand('workbench.action.closeSidebar');
      await vscode.commands.executeCommand('workbench.action.closePanel');
    });
    await t.host.eval(async (vscode, line) => {
      const editor = vscode.window.activeTextEditor;
      const pos = new vscode.Position(line - 1, 0);
      editor.selection = new vscode.Selection(pos, pos);
      editor.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.InCenter);
    }, hotLine);
    // Over the line's comment: code words would also get the language server's type hover.
    const word = page.locator('.monaco-editor .view-line', { hasText: 'shape.width * shape.height' }).locator('span', { hasText: 'property orders' }).last();
    await word.hover();
    const hover = page.locator('.monaco-hover-content', { hasText: 'V8 Lens · deopt: wrong map' }).first();
    await hover.waitFor({ timeout: 15_000 });
    const hoverText = (await hover.textContent()).replace(/\s+/g, ' ');
    t.log(`hover: ${hoverText.slice(0, 240)}`);
    assert.match(hoverText, /What usually fixes it/);
    await t.sleep(400);
    await t.screenshot(page, join(t.screenshotsDir, 'annotations-dark.png'));

    // The lens lists the sites; picking one puts the cursor on it.
    await page.keyboard.press('Escape');
    await t.host.eval((vscode) => {
      const editor = vscode.window.activeTextEditor;
      editor.selection = new vscode.Selection(0, 0, 0, 0);
    });
    await lensText.locator('a', { hasText: 'wrong map' }).first().click();
    await t.waitForQuickInput(page, /deopts in area/);
    await t.pickQuickItem(page, /wrong map/);
    const where = await t.waitFor(() => t.host.eval((vscode) => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.path.endsWith('/deopts/shapes.js') && e.selection.active.line > 0 ? { line: e.selection.active.line + 1, column: e.selection.active.character + 1 } : null;
    }), { what: 'the cursor at the picked deopt' });
    assert.equal(where.line, hotLine);
    assert.equal(where.column, source[hotLine - 1].indexOf('width') + 1, 'the column V8 reported: the `.width` load that met a new shape');
  },
};
