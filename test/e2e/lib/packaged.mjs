// The packaged extension as a user installs it: `vsce package` (npm run package's own command, with
// its production build), the .vsix installed into a second code-server with --install-extension
// (no development path, no payload), and V8 Lens activated there from the command palette.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CODE_SERVER_ENTRY, NODE24, REPO_ROOT } from './install.mjs';

/** The Marketplace's limit we hold ourselves to. */
export const MAX_VSIX_BYTES = 1.5 * 1024 * 1024;

export function packageVsix(outDir) {
  mkdirSync(outDir, { recursive: true });
  const vsix = join(outDir, 'v8-lens.vsix');
  const vsce = join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const r = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '-o', vsix], { cwd: REPO_ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, `vsce package failed:\n${r.stdout}\n${r.stderr}`);
  return { vsix, bytes: statSync(vsix).size };
}

/** Installs the .vsix into an extensions dir the way `code-server --install-extension` does. */
export function installVsix(vsix, runDir) {
  const extensionsDir = join(runDir, 'extensions');
  const userDataDir = join(runDir, 'user-data');
  mkdirSync(extensionsDir, { recursive: true });
  mkdirSync(userDataDir, { recursive: true });
  const r = spawnSync(NODE24, [CODE_SERVER_ENTRY, '--install-extension', vsix, '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `code-server --install-extension failed:\n${r.stdout}\n${r.stderr}`);
  const installed = readdirSync(extensionsDir).filter((d) => /^v8-lens\.v8-lens-/.test(d));
  assert.equal(installed.length, 1, `one V8 Lens installed: ${readdirSync(extensionsDir).join(', ')}`);
  return installed[0];
}
