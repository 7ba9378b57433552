/**
 * The report of an npm-script run in Chromium: each warning once in the header (the launch's
 * limitations are among the summary's warnings, not a second list), and the deopt section says why
 * there are none, once, instead of "no deopts".
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { runCli as runCliIn, tempDir } from '../integration/cliHarness';
import { launchBrowser, openReport } from './browserHarness';

const NPM_DEOPTS = 'deopts need a direct launch: Node refuses --log-deopt in NODE_OPTIONS, so no deopt log was taken';
const NPM_GC = 'GC events before the preload ran (Node start-up) are not in the trace';

describe('the report of an npm-script run', { timeout: 120_000 }, () => {
  let browser: Browser;
  let dir: string;

  before(async () => {
    dir = tempDir('v8-lens-browser-npm-');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'npm-app', version: '1.0.0', private: true, scripts: { start: 'node app.js' } }));
    writeFileSync(join(dir, 'app.js'), "let junk = []; for (let r = 0; r < 20; r++) { for (let i = 0; i < 20000; i++) junk.push({ i }); junk = []; }\nconsole.log('done');\n");
    const run = await runCliIn(['profile', '--out', join(dir, 'run'), '--', 'npm', 'run', 'start'], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const html = await runCliIn(['report', join(dir, 'run'), '--html', join(dir, 'run.html')], { cwd: dir });
    assert.equal(html.code, 0, html.stderr);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists each warning once and says why the deopt table is empty', async () => {
    const { page, problems } = await openReport(browser, join(dir, 'run.html'));
    const warnings = await page.locator('#run-warnings li').allInnerTexts();
    assert.equal(new Set(warnings).size, warnings.length, `a warning shown twice: ${warnings.join(' | ')}`);
    assert.equal(warnings.filter((w) => w === NPM_DEOPTS).length, 1);
    assert.equal(warnings.filter((w) => w === NPM_GC).length, 1);
    const deopts = await page.locator('#deopt-table').innerText();
    assert.match(deopts, /No deopt data/);
    assert.equal(deopts.split(NPM_DEOPTS).length - 1, 1, deopts);
    assert.doesNotMatch(deopts, /No deopts recorded/);
    assert.match(await page.locator('#run-meta').innerText(), /collects cpu \+ gc(?! \+ deopts)/);
    assert.deepEqual([...problems.cspViolations, ...problems.pageErrors, ...problems.consoleErrors, ...problems.dialogs], []);
    await page.context().close();
  });
});
