// Starts code-server (VS Code 1.139 server, real Node extension host) on 127.0.0.1 with a port the
// OS picks, a fresh user-data-dir and extensions dir, no auth, and the smoke-test driver enabled
// (without it the built workbench ignores the `payload` URL parameter that loads our extension as
// the development extension; its side effect: notification toasts are not shown, only the center).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { CODE_SERVER_ENTRY, NODE24 } from './install.mjs';
import { track } from './procs.mjs';

/** Settings that keep screenshots and focus clean: no welcome page, no chat, no update checks. */
export const BASE_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
  'github.gitAuthentication': false,
  'npm.autoDetect': 'off',
  'typescript.tsserver.experimental.enableProjectDiagnostics': false,
  'editor.minimap.enabled': false,
  'window.commandCenter': false,
  'workbench.colorTheme': 'Default Dark Modern',
};

/** Writes the run's user settings (merged over BASE_SETTINGS); takes effect on the next page load. */
export function writeUserSettings(userDataDir, settings = {}) {
  const dir = join(userDataDir, 'User');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'settings.json'), JSON.stringify({ ...BASE_SETTINGS, ...settings }, null, 2));
}

/**
 * Registers extension folders in place (no copy, no VSIX) as installed extensions of this server:
 * the extensions dir's extensions.json may point anywhere. Used by the demo, which runs without the
 * smoke-test driver so notifications show as toasts, and therefore cannot use `payload`.
 */
function registerExtensions(extensionsDir, folders) {
  const entries = folders.map((folder) => {
    const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    return {
      identifier: { id: `${pkg.publisher}.${pkg.name}`.toLowerCase() },
      version: pkg.version,
      location: { $mid: 1, scheme: 'file', path: folder },
      metadata: { installedTimestamp: Date.now(), source: 'resource', pinned: true },
    };
  });
  writeFileSync(join(extensionsDir, 'extensions.json'), JSON.stringify(entries));
}

/**
 * @param {{ runDir: string, settings?: object, env?: object, name?: string, log?: (s: string) => void }} opts
 * @returns {Promise<{ url: string, host: string, port: number, userDataDir: string, logFile: string, pid: number, stop(): Promise<void> }>}
 */
export async function startCodeServer({ runDir, settings = {}, env = {}, name = 'code-server', smokeTestDriver = true, installed = [], port = 0 }) {
  const userDataDir = join(runDir, 'user-data');
  const extensionsDir = join(runDir, 'extensions');
  const xdg = join(runDir, 'xdg');
  for (const d of [userDataDir, extensionsDir, join(xdg, 'config'), join(xdg, 'data')]) mkdirSync(d, { recursive: true });
  writeUserSettings(userDataDir, settings);
  if (installed.length) registerExtensions(extensionsDir, installed);
  const config = join(runDir, 'config.yaml');
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);

  const args = [
    CODE_SERVER_ENTRY,
    '--config', config,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--reconnection-grace-time', '5',
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
  ];
  if (smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  const logFile = join(runDir, `${name}.log`);
  const log = createWriteStream(logFile);
  // Its own process group (detached), so stop() reaches the watcher, extension hosts and agent host.
  const child = spawn(NODE24, args, {
    cwd: runDir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(xdg, 'config'),
      XDG_DATA_HOME: join(xdg, 'data'),
      ...env,
    },
  });
  const handle = track(child, name);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));

  const url = await new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => done(new Error(`${name} did not report its port within 60 s (see ${logFile})`)), 60_000);
    function done(err, value) {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stderr.off('data', onData);
      child.off('exit', onExit);
      if (err) reject(err); else resolve(value);
    }
    function onData(chunk) {
      buf += chunk;
      const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:(\d+))\/?/.exec(buf);
      if (m && Number(m[2]) > 0) done(null, m[1]);
    }
    function onExit(code, signal) {
      done(new Error(`${name} exited (${code ?? signal}) before listening; see ${logFile}:\n${buf.slice(-2000)}`));
    }
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', onExit);
  }).catch(async (e) => {
    await handle.stop();
    throw e;
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);

  // The port is open once it is logged; /healthz confirms the HTTP app is serving.
  for (const deadline = Date.now() + 30_000; ;) {
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch { /* not yet */ }
    if (Date.now() > deadline) {
      await handle.stop();
      throw new Error(`${name} at ${url} did not answer /healthz within 30 s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const realPort = Number(new URL(url).port);
  return {
    url,
    host: `127.0.0.1:${realPort}`,
    port: realPort,
    userDataDir,
    logFile,
    pid: child.pid,
    /** Resolves with the exit code (or signal) when the server exits. */
    exited,
    async stop() {
      await handle.stop();
      log.end();
    },
  };
}
