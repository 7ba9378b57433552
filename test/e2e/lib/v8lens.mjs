// V8 Lens specifics shared by the scenarios: the report webview, the profiled process, load.
import http from 'node:http';
import net from 'node:net';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { descendants } from './procs.mjs';
import { waitFor, webviewFrame, sleep } from './workbench.mjs';

/** The report webview's inner frame, once the report has rendered (html[data-report-ready]). */
export async function reportFrame(page, { timeout = 60_000 } = {}) {
  const frame = await webviewFrame(page, '#flame-graph, #gc-timeline, #report-status', { timeout });
  await waitFor(async () => (await frame.locator('html[data-report-ready]').count()) > 0 || (await frame.locator('#report-status.error').count()) > 0,
    { timeout, what: 'the report to render (html[data-report-ready])' });
  const errorBox = frame.locator('#report-status.error');
  const error = (await errorBox.count()) > 0 ? await errorBox.first().textContent() : null;
  if (error) throw new Error(`the report webview shows an error: ${error}`);
  return frame;
}

/**
 * The frames the report's canvas flame graph draws now (webview/common/flameCanvas.ts exposes them
 * as data on #flame-graph): name, url, depth, x, y, width, height (CSS px in the canvas), fill, label.
 */
export function flameFrames(frame) {
  return frame.locator('#flame-graph').evaluate((box) => box.flameFrames());
}

/** Hovers the first drawn frame named `name` (one of `names`, the first drawn) in the report; returns its name, or null. */
export async function hoverFlameFrame(frame, ...names) {
  const drawn = await flameFrames(frame);
  for (const name of names) {
    const f = drawn.find((d) => d.name === name && d.width > 4);
    if (!f) continue;
    await frame.locator('#flame-graph canvas').hover({ position: { x: f.x + Math.min(f.width / 2, 20), y: f.y + f.height / 2 } });
    return name;
  }
  return null;
}

/** Numeric attribute of the first element matching selector in a frame (NaN when absent). */
export async function numAttr(frame, selector, attr) {
  return Number(await frame.locator(selector).first().getAttribute(attr, { timeout: 10_000 }));
}

function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return null;
  }
}

/** The pid of a descendant of rootPid whose command line matches re (e.g. the profiled program). */
export async function findDescendant(rootPid, re, { timeout = 30_000 } = {}) {
  return waitFor(() => descendants(rootPid).find((p) => {
    const argv = cmdline(p);
    return argv && re.test(argv.join(' '));
  }), { timeout, what: `a process matching ${re}` });
}

/** TCP ports pid listens on (from /proc/<pid>/fd socket inodes and /proc/net/tcp{,6}). */
export function listeningPorts(pid) {
  const inodes = new Set();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    } catch { /* closed meanwhile */ }
  }
  const ports = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try { text = readFileSync(table, 'utf8'); } catch { continue; }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== '0A') continue; // 0A = LISTEN
      if (inodes.has(cols[9])) ports.push(parseInt(cols[1].split(':')[1], 16));
    }
  }
  return ports;
}

/** Closed-loop load on loopback for ms milliseconds; returns { ok, errors }. */
export async function sendLoad(port, ms, { concurrency = 8, path = '/orders' } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const deadline = Date.now() + ms;
  let ok = 0;
  let errors = 0;
  const one = () => new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: `${path}/${ok}`, agent }, (res) => {
      res.resume();
      res.on('end', () => { if (res.statusCode === 200) ok++; else errors++; resolve(); });
    });
    req.on('error', () => { errors++; resolve(); });
  });
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (Date.now() < deadline) {
      await one();
      if (errors > 50) { await sleep(50); }
    }
  }));
  agent.destroy();
  return { ok, errors };
}

/** "V8 Lens: Profile with GC Trace" from the palette on a launch configuration, default preset. */
export async function profileLaunchConfig(t, configName) {
  await t.runCommand(t.page, 'V8 Lens: Profile with GC Trace');
  await t.waitForQuickInput(t.page, /What to profile/);
  await t.pickQuickItem(t.page, `Launch config: ${configName}`);
  await t.waitForQuickInput(t.page, /What to collect/);
  await t.pickQuickItem(t.page, /^CPU \+ GC trace \+ deopts/);
  await t.waitForQuickInput(t.page, /Drive it with HTTP load/);
  await t.pickQuickItem(t.page, 'No load');
}

/**
 * "Profile with GC Trace" on a workspace file from the palette, under load at the URL it prints
 * (5 s, 10 connections), with the default preset: the run stops and the report opens on its own.
 */
export async function profileFileUnderLoad(t, relPath) {
  await t.openFileQuick(t.page, relPath);
  await t.runCommand(t.page, 'V8 Lens: Profile with GC Trace');
  await t.waitForQuickInput(t.page, /What to profile/);
  await t.pickQuickItem(t.page, `Active file: ${relPath.split('/').pop()}`);
  await t.waitForQuickInput(t.page, /What to collect/);
  await t.pickQuickItem(t.page, /^CPU \+ GC trace \+ deopts/);
  await t.waitForQuickInput(t.page, /Drive it with HTTP load/);
  await t.pickQuickItem(t.page, 'Under load: the URL it prints');
  await t.waitForQuickInput(t.page, /How much load/);
  await t.pickQuickItem(t.page, '5 s, 10 connections');
}

/**
 * Every process on the machine whose command line matches re, not only descendants: a process
 * that outlived its parent is re-parented to init, and that is exactly the leftover to catch.
 */
export function processesMatching(re) {
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const argv = cmdline(Number(name));
    if (argv && re.test(argv.join(' '))) out.push(Number(name));
  }
  return out;
}

/** A loopback port nothing listens on right now (for a service that takes PORT). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Gives the workspace's launch configuration `name` a free PORT in its environment (the examples'
 * services listen on it) and writes launch.json back; returns the port.
 */
export async function launchConfigOnFreePort(t, name) {
  const port = await freePort();
  const launchFile = join(t.workspace, '.vscode', 'launch.json');
  const launch = JSON.parse(readFileSync(launchFile, 'utf8'));
  const config = launch.configurations.find((c) => c.name === name);
  assert.ok(config, `examples/.vscode/launch.json has "${name}"`);
  config.env = { ...(config.env ?? {}), PORT: String(port) };
  writeFileSync(launchFile, JSON.stringify(launch, null, 2));
  return port;
}
