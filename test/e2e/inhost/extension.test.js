'use strict';
// In-host tests: mocha inside the real extension host of code-server (VS Code 1.139), with V8 Lens
// loaded as the development extension. `require('vscode')` is the real API.
const assert = require('node:assert/strict');
const path = require('node:path');
const fs = require('node:fs');
const vscode = require('vscode');

const EXTENSION_ID = 'v8-lens.v8-lens';
const COMMANDS = ['v8Lens.profile', 'v8Lens.openReport', 'v8Lens.stopRun', 'v8Lens.cancelRun', 'v8Lens.exportReport'];

const { sleep, until } = require('./wait');
const allTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);
const reportTabs = () => allTabs().filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('v8Lens.report'));

describe('V8 Lens in the extension host', function () {
  const workspace = () => vscode.workspace.workspaceFolders[0].uri.fsPath;

  it('is the development extension, activates, and registers its commands', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is loaded`);
    assert.equal(ext.extensionPath, path.resolve(__dirname, '..', '..', '..'), 'loaded from the repository (extensionDevelopmentPath)');
    await ext.activate();
    assert.equal(ext.isActive, true);
    const commands = await vscode.commands.getCommands(true);
    for (const id of COMMANDS) assert.ok(commands.includes(id), `command ${id} is registered`);
  });

  it('contributes the V8 Lens container with the Sessions view', () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID).packageJSON;
    const container = pkg.contributes.viewsContainers.activitybar.find((c) => c.title === 'V8 Lens');
    assert.ok(container, 'activity-bar container "V8 Lens"');
    const views = pkg.contributes.views[container.id];
    assert.ok(views.some((v) => v.id === 'v8Lens.sessions' && v.name === 'Sessions'), 'view v8Lens.sessions "Sessions"');
  });

  it('v8Lens.openReport with a Uri opens a report webview for a .cpuprofile', async () => {
    const file = path.join(workspace(), 'profiles', 'chrome65-simple.cpuprofile');
    assert.ok(fs.existsSync(file), `${file} (copied in by run.mjs)`);
    const before = reportTabs().length;
    await vscode.commands.executeCommand('v8Lens.openReport', vscode.Uri.file(file));
    const tabs = await until(() => (reportTabs().length > before ? reportTabs() : null), 'a report webview tab');
    const tab = tabs[tabs.length - 1];
    assert.match(tab.label, /^V8 Lens: /);
    assert.equal(tab.isActive, true, 'the report is the active tab');
  });

  it('opening the same profile again reveals its panel instead of adding one', async () => {
    const file = path.join(workspace(), 'profiles', 'chrome65-simple.cpuprofile');
    const before = reportTabs().length;
    await vscode.commands.executeCommand('v8Lens.openReport', vscode.Uri.file(file));
    await sleep(500);
    assert.equal(reportTabs().length, before);
  });

  it('v8Lens.stopRun and v8Lens.cancelRun are harmless when nothing runs', async () => {
    await vscode.commands.executeCommand('v8Lens.stopRun');
    await vscode.commands.executeCommand('v8Lens.cancelRun');
  });
});
