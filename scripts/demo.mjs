#!/usr/bin/env node
// `npm run demo [-- --port N]`: V8 Lens in a real VS Code in your browser, on the examples/ folder.
//
// Builds the extension, then starts code-server (VS Code 1.139 server; installed once from
// test/e2e's lockfiles together with the Node 24 it needs) on 127.0.0.1 without auth, with this
// repository registered in place as an installed extension (no VSIX, no copy: rebuild with
// `npm run build` and reload the window to pick up changes). Prints the address to open.
// Ctrl-C stops the server and everything it started (extension host, profiled programs).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, ensureDeps } from '../test/e2e/lib/install.mjs';
import { isStopping, onInterrupt, stopAll } from '../test/e2e/lib/procs.mjs';

const argv = process.argv.slice(2);
const portArg = argv.indexOf('--port');
const port = portArg >= 0 ? Number(argv[portArg + 1]) : 0;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('usage: npm run demo [-- --port N]   (default: any free port)');
  process.exit(2);
}

ensureDeps();
const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const { startCodeServer } = await import('../test/e2e/lib/server.mjs');
const runDir = mkdtempSync(join(tmpdir(), 'v8-lens-demo-'));
const cleanup = () => rmSync(runDir, { recursive: true, force: true });
onInterrupt(() => {
  cleanup();
  console.log('demo: stopped');
});

let server;
try {
  server = await startCodeServer({
    runDir,
    port,
    name: 'demo',
    smokeTestDriver: false, // notifications show as toasts, as in VS Code
    installed: [REPO_ROOT],
    settings: { 'workbench.colorTheme': 'Default Dark Modern' },
  });
} catch (e) {
  console.error(`demo: ${e.message}`);
  await stopAll();
  cleanup();
  process.exit(1);
}
const folder = join(REPO_ROOT, 'examples');
console.log('');
console.log(`V8 Lens demo: open ${server.url}/?folder=${encodeURI(folder)}`);
console.log('  then run "V8 Lens: Profile with GC Trace" from the command palette (F1).');
console.log(`  server log: ${server.logFile}`);
console.log('  Ctrl-C stops everything.');

const code = await server.exited;
if (isStopping()) await new Promise(() => {}); // Ctrl-C: the signal handler finishes and exits
console.error(`demo: code-server exited (${code}); see ${server.logFile}`);
await stopAll();
process.exit(1);
