/**
 * The .vsix holds only what runs: the bundles, the media, the manifest, README and license; no
 * sources, tests, source maps or node_modules. Asked of vsce itself (`vsce ls`), which applies
 * .vscodeignore exactly as `npm run package` does.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { REPO } from './cliHarness';

describe('npm run package', () => {
  it('packages the bundles the extension runs, media (the 128×128 icon too), manifest, README, changelog and license, and nothing else', () => {
    const vsce = join(REPO, 'node_modules', '@vscode', 'vsce', 'vsce');
    const files = execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: REPO, encoding: 'utf8' }).trim().split('\n');
    for (const needed of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'media/icon.png', 'dist/extension.js', 'dist/extension-main.js', 'dist/ws.js', 'dist/acorn.js', 'dist/agent/preload.js', 'dist/agent/lab-preload.js', 'dist/agent/package.json', 'dist/load-runner.js', 'dist/webview/report.js', 'dist/webview/report.css', 'dist/webview/standalone.css']) {
      assert.ok(files.includes(needed), `${needed} is missing from the package`);
    }
    const unexpected = files.filter((f) => !/^(package\.json|README\.md|LICENSE|CHANGELOG\.md|media\/.+|dist\/(extension|extension-main|ws|acorn|load-runner)\.js|dist\/agent\/(preload\.js|lab-preload\.js|package\.json)|dist\/webview\/[^/]+\.(js|css))$/.test(f));
    assert.deepEqual(unexpected, []);
    // The CLI is the npm package's bin; the extension never runs it.
    assert.ok(!files.includes('dist/cli.js') && !files.includes('dist/cli-main.js'), 'the CLI is not packaged');
  });

  it('declares an engines.vscode no newer than the VS Code the E2E suite runs (code-server 4.139.1 = VS Code 1.139)', () => {
    const manifest = JSON.parse(execFileSync(process.execPath, ['-p', 'JSON.stringify(require("./package.json"))'], { cwd: REPO, encoding: 'utf8' }));
    const [, major, minor] = /^\^?(\d+)\.(\d+)/.exec(manifest.engines.vscode) ?? [];
    assert.equal(Number(major), 1);
    assert.ok(Number(minor) <= 139, manifest.engines.vscode);
    assert.equal(manifest.devDependencies['@types/vscode'], manifest.engines.vscode.replace(/^\^/, ''), '@types/vscode must match engines.vscode (vsce refuses a newer one)');
  });
});
