// Scenario: a Node debug session of VS Code's own JavaScript debugger is running; "Attach and
// Profile…" offers it and reuses its connection (js-debug's requestCDPProxy) instead of opening
// another: the live GC count moves, and Stop & Collect gives a flame graph.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { numAttr, reportFrame } from '../lib/v8lens.mjs';

export default {
  name: 'Attach and Profile reuses a running Node debug session (js-debug CDP proxy): live GC, then a flame graph',
  timeout: 180_000,
  async run(t) {
    const { page } = t;
    const program = join(t.workspace, 'http-service', 'server.js');
    await t.host.eval(async (vscode, file) => {
      const folder = vscode.workspace.workspaceFolders[0];
      await vscode.debug.startDebugging(folder, { type: 'pwa-node', request: 'launch', name: 'Demo service (debug)', program: file, env: { DEMO_TRAFFIC: '1' } });
    }, program);
    try {
      await t.waitFor(() => t.host.eval((vscode) => vscode.debug.activeDebugSession?.name ?? null), { timeout: 60_000, what: 'the debug session to start' });
      await t.sleep(2000); // js-debug attaches to the child process it launched

      await t.runCommand(page, 'V8 Lens: Attach and Profile…');
      await t.waitForQuickInput(page, /Attach to which Node process/);
      const items = await t.quickPickItems(page);
      t.log(`sources: ${items.join(' | ')}`);
      const sessions = items.filter((i) => /Debug session:/.test(i));
      assert.ok(sessions.length > 0, 'the running debug session is offered');
      assert.ok(!items.some((i) => /code-server|watchdog\.js|bootstrap-fork/.test(i)), 'the editor\'s own processes are not offered');
      // js-debug shows a parent session and one per Node process; the process's is the one to use.
      await t.pickQuickItem(page, 'Debug session: server.js');
      await t.waitForQuickInput(page, /for how long/);
      await t.pickQuickItem(page, 'Until I stop');

      const frame = await t.webviewFrame(page, '#live-status', { timeout: 60_000 });
      const first = await t.waitFor(async () => (await numAttr(frame, '#live-status', 'data-gc-count')) || null, { timeout: 30_000, what: 'live GC events through the debug session' });
      await t.waitFor(async () => (await numAttr(frame, '#live-status', 'data-gc-count')) > first, { timeout: 30_000, what: 'the live GC count to move' });
      t.log(`live: ${(await frame.locator('#live-status').textContent()).trim()}`);

      await t.runCommand(page, 'V8 Lens: Stop & Collect', { timeout: 20_000 });
      const report = await reportFrame(page, { timeout: 60_000 });
      const frames = await t.waitFor(async () => (await numAttr(report, '#flame-graph', 'data-frame-count')) || null, { timeout: 30_000, what: 'the flame graph' });
      t.log(`flame graph: ${frames} frames`);
      assert.ok(await t.host.eval((vscode) => vscode.debug.activeDebugSession !== undefined), 'the debug session is still running after V8 Lens detached');
    } finally {
      await t.host.eval((vscode) => vscode.debug.stopDebugging()).catch(() => {});
    }
  },
};
