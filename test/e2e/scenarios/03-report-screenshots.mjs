// Screenshots of a report (flame graph + GC timeline) in a dark and a light theme, for the docs:
// docs/screenshots/report-dark.png and report-light.png. The run is made once with the CLI
// (same engine) on the example HTTP service with its built-in demo traffic, then opened in the
// workbench through the command with a Uri, as the Sessions view does.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { numAttr, reportFrame } from '../lib/v8lens.mjs';

function ensureDemoRun(t) {
  const out = join(t.runDir, 'demo-run');
  if (!existsSync(join(out, 'summary.json'))) {
    const r = spawnSync(process.execPath, [join(t.repoRoot, 'dist', 'cli.js'), 'profile', '--out', out, '--timeout', '6', '--stable-deopts', '--',
      join(t.workspace, 'http-service', 'server.js')], { cwd: t.workspace, env: { ...process.env, DEMO_TRAFFIC: '1' }, encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, `v8-lens profile failed: ${r.stderr}\n${r.stdout}`);
  }
  return out;
}

function screenshotScenario(theme, file) {
  return {
    name: `report screenshot in ${theme} → docs/screenshots/${file}`,
    settings: { 'workbench.colorTheme': theme },
    viewport: { width: 1440, height: 1280 },
    async run(t) {
      const runDir = ensureDemoRun(t);
      const { page } = t;
      // A clean frame: no side bar or panel, the report alone in the editor area.
      await t.host.eval(async (vscode) => {
        await vscode.commands.executeCommand('workbench.action.closeSidebar');
        await vscode.commands.executeCommand('workbench.action.closePanel');
      });
      await t.host.eval((vscode, uri) => vscode.commands.executeCommand('v8Lens.openReport', uri), { $uri: `file://${runDir}` });
      const frame = await reportFrame(page);
      assert.ok(await numAttr(frame, '#flame-graph', 'data-frame-count') > 30);
      assert.ok(await numAttr(frame, '#gc-timeline', 'data-event-count') > 0);
      // A fresh browser profile starts in a default theme and switches to the configured one once
      // the built-in theme extension is read: wait for it in the host and in the webview.
      const light = theme.includes('Light');
      await t.waitFor(() => t.host.eval((vscode) => vscode.window.activeColorTheme.kind).then((k) => k === (light ? 1 : 2)),
        { what: `the ${theme} theme to be active` });
      await t.waitFor(() => frame.evaluate((cls) => document.body.classList.contains(cls), light ? 'vscode-light' : 'vscode-dark'),
        { what: `the webview to get the ${theme} theme` });
      // Size the window so the flame graph and the whole GC section share the frame (the flame
      // graph's height depends on the run's deepest stack), then scroll the report to them.
      const needed = await frame.evaluate(() => {
        const top = document.getElementById('flame-section').getBoundingClientRect().top;
        const bottom = document.getElementById('gc-section').getBoundingClientRect().bottom;
        return Math.ceil(bottom - top);
      });
      const chrome = (await page.viewportSize()).height - (await frame.evaluate(() => window.innerHeight));
      await page.setViewportSize({ width: 1440, height: Math.min(2400, Math.max(900, needed + chrome + 24)) });
      await t.sleep(500);
      await frame.evaluate(() => document.getElementById('flame-section').scrollIntoView({ block: 'start' }));
      await t.sleep(800); // chart.js and d3 transitions
      await t.screenshot(page, join(t.screenshotsDir, file));
    },
  };
}

export default [
  screenshotScenario('Default Dark Modern', 'report-dark.png'),
  screenshotScenario('Default Light Modern', 'report-light.png'),
];
