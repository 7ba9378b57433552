#!/usr/bin/env node
// Real-VS-Code end-to-end tests for V8 Lens.
//
//   node test/e2e/run.mjs [--grep RE] [--no-build] [--keep] [--self-test] [--no-inhost] [--no-ui]
//
// From a fresh clone (after `npm ci` at the root): checks that Chromium exists, installs Node 24 and
// code-server from test/e2e's lockfiles once, builds the extension (`npm run build`), copies
// `examples/` into a scratch workspace, starts code-server on 127.0.0.1 (OS-chosen port, fresh
// user-data-dir, own process group), and drives headless Chromium with playwright-core:
//   - the in-host tests (inhost/*.test.js, mocha inside the extension host, the extensionTestsPath
//     contract), and
//   - the UI scenarios (scenarios/*.mjs), each in a fresh browser context, i.e. a fresh extension
//     host, with inhost/evaluator.js as extensionTestsPath so a scenario can query the host.
// Screenshots go to docs/screenshots/. Everything started is stopped on every exit path.
// The last line is `N passed, N failed`; the exit code is non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { APT_HINT, E2E_DIR, REPO_ROOT, ensureDeps, findChromium } from './lib/install.mjs';
import { onCleanup, onInterrupt, stopAll } from './lib/procs.mjs';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const opts = {
  grep: option('--grep') ? new RegExp(option('--grep'), 'i') : null,
  build: !flag('--no-build'),
  keep: flag('--keep'),
  selfTest: flag('--self-test'),
  inhost: !flag('--no-inhost'),
  ui: !flag('--no-ui'),
};

const results = []; // { name, ok, ms, error }
let finished = false;
function resultLine() {
  const passed = results.filter((r) => r.ok).length;
  return `${passed} passed, ${results.length - passed} failed`;
}
onInterrupt(() => {
  if (finished) return;
  results.push({ name: 'interrupted', ok: false, ms: 0, error: 'interrupted by a signal' });
  console.log(resultLine());
});

function record(name, ok, ms, error) {
  results.push({ name, ok, ms, error });
  const secs = `${(ms / 1000).toFixed(1)} s`;
  if (ok) console.log(`  ✔ ${name} (${secs})`);
  else console.log(`  ✖ ${name} (${secs})\n${String(error).split('\n').map((l) => `      ${l}`).join('\n')}`);
}

async function withTimeout(promise, ms, what) {
  let timer;
  try {
    return await Promise.race([promise, new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`${what} timed out after ${ms / 1000} s`)), ms); })]);
  } finally {
    clearTimeout(timer);
  }
}

function prepareRunDir() {
  const runsDir = join(E2E_DIR, '.runs');
  mkdirSync(runsDir, { recursive: true });
  // Keep the last 3 runs for post-mortems.
  const old = readdirSync(runsDir).sort().slice(0, -3);
  for (const d of old) rmSync(join(runsDir, d), { recursive: true, force: true });
  const runDir = join(runsDir, new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(runDir, { recursive: true });
  return runDir;
}

/** A fresh copy of examples/ (runs write .v8-lens/ into the workspace; the repo's copy stays clean). */
function prepareWorkspace(runDir) {
  const ws = join(runDir, 'workspace');
  const src = join(REPO_ROOT, 'examples');
  if (existsSync(src)) {
    cpSync(src, ws, {
      recursive: true,
      filter: (p) => !/[\\/](node_modules|\.v8-lens)([\\/]|$)/.test(relative(src, p)) || p === src,
    });
  }
  mkdirSync(ws, { recursive: true });
  // A third-party profile for the report scenarios (copied in: the scenarios open it through the
  // workbench's own open dialog, which browses the workspace).
  mkdirSync(join(ws, 'profiles'), { recursive: true });
  cpSync(join(REPO_ROOT, 'test', 'fixtures', 'third-party', 'speedscope', 'chrome65-simple.cpuprofile'), join(ws, 'profiles', 'chrome65-simple.cpuprofile'));
  // A heap profile as Node's own agent (@datadog/pprof) sends it to a fleet's profiler: pprof, gzipped.
  cpSync(join(REPO_ROOT, 'test', 'fixtures', 'pprof', 'datadog-heap.pb.gz'), join(ws, 'profiles', 'datadog-heap.pb.gz'));
  // An app nobody here wrote: the express API fixture with its dependencies, installed from its lockfile.
  const express = join(REPO_ROOT, 'test', 'fixtures', 'apps', 'express-api');
  cpSync(express, join(ws, 'express-api'), { recursive: true, filter: (p) => !/[\\/]\.v8-lens([\\/]|$)/.test(relative(express, p)) });
  // A service with a thread pool (fastify + piscina, 2 workers that wait most of the time), installed the same way.
  const pool = join(REPO_ROOT, 'test', 'fixtures', 'apps', 'worker-pool');
  cpSync(pool, join(ws, 'worker-pool'), { recursive: true, filter: (p) => !/[\\/]\.v8-lens([\\/]|$)/.test(relative(pool, p)) });
  return ws;
}

async function loadScenarios(dir) {
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir).filter((f) => /\.mjs$/.test(f)).sort();
  const list = [];
  for (const f of files) {
    const mod = await import(pathToFileURL(join(dir, f)).href);
    for (const s of [].concat(mod.default ?? [])) list.push({ file: f, timeout: 180_000, ...s });
  }
  return list;
}

async function main() {
  const t0 = Date.now();
  if (!findChromium()) {
    console.error(`e2e: Chromium is not installed; install it with: ${APT_HINT}`);
    results.push({ name: 'prerequisites', ok: false, ms: 0, error: 'no Chromium' });
    return;
  }
  ensureDeps();
  // The workspace's express app needs its dependencies (a no-op once they match the lockfile).
  const fixtures = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'install-fixture-apps.mjs')], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (fixtures.status !== 0) throw new Error('installing the fixture apps (scripts/install-fixture-apps.mjs) failed');

  // Imported only now: they need test/e2e/node_modules.
  const wb = await import('./lib/workbench.mjs');
  const { startCodeServer, writeUserSettings } = await import('./lib/server.mjs');

  const extensionDir = opts.selfTest ? join(E2E_DIR, 'fixtures', 'harness-ext') : REPO_ROOT;
  if (!opts.selfTest && opts.build) {
    const b0 = Date.now();
    const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`npm run build failed (exit ${r.status ?? r.signal})`);
    console.log(`e2e: built the extension in ${((Date.now() - b0) / 1000).toFixed(1)} s`);
  }
  if (!opts.selfTest) {
    const main = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).main ?? './dist/extension.js';
    if (!existsSync(join(REPO_ROOT, main))) throw new Error(`the extension bundle ${main} does not exist after the build`);
  }

  const runDir = prepareRunDir();
  const stateDir = join(runDir, 'state');
  mkdirSync(stateDir);
  const workspace = prepareWorkspace(runDir);
  const screenshotsDir = join(REPO_ROOT, 'docs', 'screenshots');
  const token = wb.HostEvaluator.newToken();
  console.log(`e2e: run folder ${relative(REPO_ROOT, runDir)}`);

  const server = await startCodeServer({
    runDir,
    env: { V8LENS_E2E_STATE_DIR: stateDir, V8LENS_E2E_TOKEN: token, V8LENS_E2E_INHOST_DIR: opts.selfTest ? join(E2E_DIR, 'fixtures', 'harness-inhost') : '' },
  });
  console.log(`e2e: code-server ${server.url} (pid ${server.pid}) on ${relative(REPO_ROOT, workspace)} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const browser = await wb.launchBrowser();
  onCleanup(() => browser.close());

  // 1. In-host tests: one extension host running mocha.
  if (opts.inhost) {
    const s0 = Date.now();
    console.log('in-host tests (mocha in the extension host):');
    writeUserSettings(server.userDataDir);
    let session;
    try {
      session = await wb.openWorkbench(browser, server, {
        folder: workspace,
        extensionDevelopmentPath: extensionDir,
        extensionTestsPath: join(E2E_DIR, 'inhost', 'index.js'),
      });
      const code = await withTimeout(session.exitCode, 300_000, 'in-host tests');
      const file = join(stateDir, 'inhost-results.json');
      if (!existsSync(file)) throw new Error(`the in-host run exited with ${code} and wrote no results`);
      const r = JSON.parse(readFileSync(file, 'utf8'));
      for (const t of r.tests) {
        if (opts.grep && !opts.grep.test(t.title)) continue;
        record(`in-host: ${t.title}`, t.state === 'passed', t.ms ?? 0, t.error);
      }
      if (r.tests.length === 0) record('in-host: at least one test ran', false, Date.now() - s0, 'no in-host tests ran');
      if (code !== 0 && r.failed === 0) record('in-host: exit code', false, 0, `the extension host exited with ${code}`);
    } catch (e) {
      record('in-host tests', false, Date.now() - s0, e.stack ?? e);
      if (session) {
        await wb.screenshot(session.page, join(runDir, 'failures', 'inhost.png')).catch(() => {});
        writeFileSync(join(runDir, 'failures', 'inhost-console.log'), session.consoleLines.join('\n'));
      }
    } finally {
      await session?.context.close().catch(() => {});
    }
  }

  // 2. UI scenarios: each in a fresh browser context (a fresh extension host).
  if (opts.ui) {
    const scenarios = (await loadScenarios(join(E2E_DIR, opts.selfTest ? 'fixtures/harness-scenarios' : 'scenarios')))
      .filter((s) => !opts.grep || opts.grep.test(s.name));
    console.log(`UI scenarios (${scenarios.length}):`);
    const host = new wb.HostEvaluator(stateDir, token);
    for (const s of scenarios) {
      const s0 = Date.now();
      let session;
      try {
        writeUserSettings(server.userDataDir, s.settings ?? {});
        host.reset();
        session = await wb.openWorkbench(browser, server, {
          folder: workspace,
          extensionDevelopmentPath: extensionDir,
          extensionTestsPath: join(E2E_DIR, 'inhost', 'evaluator.js'),
          viewport: s.viewport,
        });
        await host.ready();
        const ctx = {
          ...wb,
          // The tab is drawn active before the extension host hears of it, and "Active file" in V8
          // Lens's picker is the host's view: wait for the host too (scenario 17 once ran the command
          // in between, on a fresh clone, and the picker had no "Active file").
          openFileQuick: async (page, relPath) => {
            await wb.openFileQuick(page, relPath);
            await wb.waitFor(async () => ((await host.eval((vscode) => vscode.window.activeTextEditor?.document.uri.path ?? '')) ?? '').endsWith(`/${relPath}`) || null, {
              timeout: 15_000,
              what: `${relPath} as the extension host's active editor`,
            });
          },
          page: session.page,
          host,
          server,
          browser,
          workspace,
          repoRoot: REPO_ROOT,
          runDir,
          screenshotsDir,
          log: (...a) => console.log(`      · ${((Date.now() - s0) / 1000).toFixed(1).padStart(5)} s`, ...a),
        };
        await withTimeout(s.run(ctx), s.timeout, `scenario "${s.name}"`);
        record(s.name, true, Date.now() - s0);
      } catch (e) {
        record(s.name, false, Date.now() - s0, e.stack ?? e);
        if (session) {
          const base = join(runDir, 'failures', s.file.replace(/\.mjs$/, ''));
          await wb.screenshot(session.page, `${base}.png`).catch(() => {});
          writeFileSync(`${base}-console.log`, session.consoleLines.join('\n'));
          console.log(`      (screenshot and console: ${relative(REPO_ROOT, base)}.png / -console.log)`);
        }
      } finally {
        await session?.context.close().catch(() => {});
      }
    }
  }
  // 3. The packaged extension, installed from its .vsix into another code-server, activates there.
  //    Last: `vsce package` rebuilds dist/ for production (the scenarios above used the dev build).
  const PACKAGED = 'packaged: the .vsix (≤ 1.5 MB) installs into code-server and V8 Lens activates from the palette';
  if (!opts.selfTest && (!opts.grep || opts.grep.test(PACKAGED))) {
    const s0 = Date.now();
    const log = (...a) => console.log(`      · ${((Date.now() - s0) / 1000).toFixed(1).padStart(5)} s`, ...a);
    let session;
    try {
      const { MAX_VSIX_BYTES, installVsix, packageVsix } = await import('./lib/packaged.mjs');
      const { vsix, bytes } = packageVsix(join(runDir, 'package'));
      log(`packaged ${(bytes / 1024).toFixed(0)} KB`);
      if (bytes > MAX_VSIX_BYTES) throw new Error(`the .vsix is ${(bytes / 1024).toFixed(0)} KB, over 1.5 MB`);
      const installedRun = join(runDir, 'installed');
      log(`installed ${installVsix(vsix, installedRun)}`);
      const second = await startCodeServer({ runDir: installedRun, name: 'code-server-installed' });
      session = await wb.openWorkbench(browser, second, { folder: workspace });
      // A command of the extension: the palette lists it, and running it activates the extension.
      await wb.runCommand(session.page, 'V8 Lens: Open Profile or Run Folder…');
      const text = await wb.waitForQuickInput(session.page, /Open a \.cpuprofile/);
      log(`activated: the command opened its dialog (${text.split('\n')[0].slice(0, 80)})`);
      await session.page.keyboard.press('Escape');
      const container = session.page.locator('.activitybar .action-item', { has: session.page.locator('[aria-label="V8 Lens"]') });
      if ((await container.count()) === 0) throw new Error('no V8 Lens view container in the activity bar');
      record(PACKAGED, true, Date.now() - s0);
    } catch (e) {
      record(PACKAGED, false, Date.now() - s0, e.stack ?? e);
      if (session) await wb.screenshot(session.page, join(runDir, 'failures', 'packaged.png')).catch(() => {});
    } finally {
      await session?.context.close().catch(() => {});
    }
  }
  console.log(`e2e: done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (!opts.keep && results.every((r) => r.ok)) removeAfterStop = workspace;
}
let removeAfterStop = null;

try {
  await main();
} catch (e) {
  results.push({ name: 'harness', ok: false, ms: 0, error: e.stack ?? e });
  console.error(`e2e: ${e.stack ?? e}`);
} finally {
  await stopAll();
  if (removeAfterStop) rmSync(removeAfterStop, { recursive: true, force: true });
  finished = true;
  if (results.length === 0) results.push({ name: 'anything ran', ok: false, ms: 0, error: 'no tests were run' });
  const line = resultLine();
  process.exitCode = results.every((r) => r.ok) ? 0 : 1;
  console.log(line);
}
