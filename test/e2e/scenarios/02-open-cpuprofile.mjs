// Scenario 2: "Open Profile or Run Folder…" from the palette on a third-party .cpuprofile
// (speedscope's chrome65-simple, copied into the workspace by run.mjs). In the web workbench the
// open dialog is VS Code's own "simple file dialog" (a quick input with a path box), so the test
// types the path into it. Then hover a frame and read the tooltip.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { hoverFlameFrame, numAttr, reportFrame } from '../lib/v8lens.mjs';

export default {
  name: 'open a .cpuprofile through the palette and the open dialog; the flame tooltip names the frame with ms',
  async run(t) {
    const { page } = t;
    const file = join(t.workspace, 'profiles', 'chrome65-simple.cpuprofile');
    await t.runCommand(page, 'V8 Lens: Open Profile or Run Folder…');
    // The simple file dialog: its input holds a path; replace it with the file's and accept.
    const input = page.locator('.quick-input-widget input');
    await t.waitForQuickInput(page, /Open a \.cpuprofile/);
    // It fills in the folder it starts from asynchronously: wait for that, or it overwrites ours.
    await t.waitFor(async () => (await input.inputValue()).startsWith('/'), { what: 'the dialog to show its start folder' });
    await t.waitFor(async () => {
      if ((await input.inputValue()) !== file) await input.fill(file);
      await t.sleep(500);
      return (await input.inputValue()) === file;
    }, { what: `the dialog path to stay ${file}` });
    // The dialog resolves the typed path asynchronously; Enter again if it is still open.
    const widget = page.locator('.quick-input-widget');
    for (let attempt = 0; ; attempt++) {
      await t.sleep(300);
      await page.keyboard.press('Enter');
      const closed = await widget.waitFor({ state: 'hidden', timeout: 3_000 }).then(() => true, () => false);
      if (closed) break;
      if (attempt === 3) throw new Error(`the open dialog did not accept ${file} (input: ${await input.inputValue()})`);
    }
    t.log('dialog accepted');

    const frame = await reportFrame(page);
    const frames = await numAttr(frame, '#flame-graph', 'data-frame-count');
    assert.ok(frames >= 5, `#flame-graph[data-frame-count] = ${frames}`);
    assert.match(await frame.locator('#report-title').textContent(), /chrome65-simple/);

    // Hover the frame of function d (else a), found among the frames the canvas draws.
    const name = await hoverFlameFrame(frame, 'd', 'a');
    assert.ok(name, 'a frame named d or a is drawn');
    const tip = frame.locator('#flame-tooltip');
    await t.waitFor(async () => !(await tip.evaluate((e) => e.hidden)), { timeout: 5_000, what: '#flame-tooltip to show' });
    const text = await tip.textContent();
    t.log(`tooltip: ${text}`);
    assert.equal((await tip.locator('.tt-name').textContent()).trim(), name);
    assert.match(text, /\bms\b/);
    await t.screenshot(page, join(t.runDir, 'cpuprofile-tooltip.png'));
  },
};
