// Playwright helpers for the VS Code 1.139 web workbench served by code-server.
import { chromium } from 'playwright-core';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { findChromium, APT_HINT } from './install.mjs';

export { sleep };

export async function launchBrowser() {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(`no Chromium found; install it with: ${APT_HINT}`);
  return chromium.launch({
    executablePath,
    headless: true,
    // The harness kills it itself (procs.mjs cleanups); Playwright's own handlers would race ours.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage',
      '--disable-features=Translate,MediaRouter', '--no-first-run'],
  });
}

/** A vscode-remote:// URI for a path on the code-server machine. */
export function remoteUri(server, absPath) {
  return `vscode-remote://${server.host}${absPath}`;
}

/**
 * Opens the workbench on a folder in a fresh browser context (so a fresh extension host), with
 * the given development extension and extensionTestsPath module loaded through `payload`.
 * @returns {{ page, context, exitCode: Promise<number>, consoleLines: string[] }}
 */
export async function openWorkbench(browser, server, { folder, extensionDevelopmentPath, extensionTestsPath, viewport = { width: 1600, height: 1000 } }) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const consoleLines = [];
  page.on('console', (m) => consoleLines.push(`[${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => consoleLines.push(`[pageerror] ${e.message}`));
  let resolveExit;
  const exitCode = new Promise((r) => { resolveExit = r; });
  await page.exposeFunction('codeAutomationExit', (code) => resolveExit(code));
  const payload = [['skipWelcome', 'true'], ['skipReleaseNotes', 'true']];
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remoteUri(server, extensionDevelopmentPath)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remoteUri(server, extensionTestsPath)]);
  const url = `${server.url}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  await page.goto(url);
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
  // The smoke-test driver (enabled on the server) exposes window.driver.
  await page.waitForFunction(() => !!window.driver, null, { timeout: 30_000 }).catch(() => {});
  await page.evaluate(() => window.driver?.whenWorkbenchRestored?.()).catch(() => {});
  return { page, context, exitCode, consoleLines };
}

const QUICK_INPUT = '.quick-input-widget';
const QUICK_OPTION = `${QUICK_INPUT} [role="option"]`;

/** Visible quick-input row labels (the list is virtualised: only the rendered rows). */
export async function quickPickItems(page) {
  await page.locator(QUICK_OPTION).first().waitFor({ timeout: 15_000 });
  return page.locator(QUICK_OPTION).evaluateAll((els) => els.map((e) => (e.getAttribute('aria-label') || e.textContent || '').trim()));
}

/** Waits until the quick input shows a title or placeholder matching `re`. */
export async function waitForQuickInput(page, re, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const text = await page.locator(QUICK_INPUT).evaluate((w) => {
      if (w.style.display === 'none' || !w.offsetParent) return null;
      const title = w.querySelector('.quick-input-title')?.textContent ?? '';
      const ph = w.querySelector('input')?.getAttribute('placeholder') ?? '';
      const aria = w.querySelector('input')?.getAttribute('aria-label') ?? '';
      return `${title}\n${ph}\n${aria}`;
    }).catch(() => null);
    if (text !== null && (!re || re.test(text))) return text;
    if (Date.now() > deadline) throw new Error(`quick input ${re ?? ''} did not appear (last: ${JSON.stringify(text)})`);
    await sleep(200);
  }
}

/** Picks the quick-pick row whose label matches (string = substring, or RegExp), typing to filter. */
export async function pickQuickItem(page, match, { filter } = {}) {
  if (filter !== undefined) await page.locator(`${QUICK_INPUT} input`).fill(filter);
  const row = page.locator(QUICK_OPTION).filter(typeof match === 'string' ? { hasText: match } : { hasText: match }).first();
  try {
    await row.waitFor({ timeout: 15_000 });
  } catch {
    const items = await quickPickItems(page).catch(() => []);
    throw new Error(`no quick-pick item ${match} among: ${JSON.stringify(items)}`);
  }
  await row.click();
}

/**
 * Runs a command from the palette (F1). Retries the open/type/check cycle: contributions of the
 * development extension reach the workbench a few seconds after the DOM, and an open palette does
 * not refresh. `label` is the full "Category: Title".
 */
export async function runCommand(page, label, { timeout = 60_000 } = {}) {
  const deadline = Date.now() + timeout;
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (;;) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    const input = page.locator(`${QUICK_INPUT} input`);
    const row = page.locator(QUICK_OPTION).filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escaped}$`) }) }).first();
    try {
      // The palette closes when it loses focus: a webview that has just loaded (a report) can take
      // focus between F1 and the typing, and an unbounded fill then waits on a hidden input for
      // Playwright's 30 s. Bounded, and the whole open-type-pick is retried.
      await input.waitFor({ timeout: 10_000 });
      await input.fill('>' + label, { timeout: 5_000 });
      await row.waitFor({ timeout: 2_000 });
      await row.click();
      return;
    } catch (e) {
      await page.keyboard.press('Escape');
      if (Date.now() > deadline) {
        throw new Error(`command "${label}" not run from the palette within ${timeout / 1000} s: ${String(e?.message ?? e).split('\n')[0]}`);
      }
      await sleep(500);
    }
  }
}

/** Labels of the palette rows for a filter, e.g. all commands of a category. */
export async function paletteCommands(page, filter) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  await page.locator(`${QUICK_INPUT} input`).fill('>' + filter);
  await sleep(500);
  const labels = await page.locator(`${QUICK_OPTION} .label-name`).allTextContents().catch(() => []);
  await page.keyboard.press('Escape');
  return labels.map((s) => s.trim());
}

/** Opens a workspace file through Quick Open (Ctrl+P). */
export async function openFileQuick(page, relPath) {
  const input = page.locator(`${QUICK_INPUT} input`);
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+P');
    try {
      await input.waitFor({ timeout: 10_000 });
      await input.fill(relPath, { timeout: 5_000 });
      break;
    } catch (err) {
      // Under load, Quick Open can open while the workbench is still inert from the panel just
      // closed (the Notifications center), and then close again: a clean CI run failed so, the
      // same scenario passing alone. Opened afresh, up to three times.
      if (attempt === 3) throw err;
    }
  }
  const base = relPath.split('/').pop();
  // The row whose name is the file's, not the first that mentions it: Quick Open lists recently
  // opened editors first, and a report's ("V8 Lens: primes.js · …") matched, so Enter reopened it.
  const row = page.locator(QUICK_OPTION).filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) }).first();
  await row.waitFor({ timeout: 15_000 });
  await row.click();
  // The active tab is the file's own ("primes.js" or "primes.js, preview"): a report tab's title
  // ("V8 Lens: primes.js · …") contains the name too.
  await page.waitForFunction(
    (name) => {
      const label = document.querySelector('.tabs-container .tab.active')?.getAttribute('aria-label') ?? '';
      return label === name || label.startsWith(`${name},`);
    },
    base,
    { timeout: 15_000 },
  );
}

/**
 * The frame (of any webview, panel or view: two nested iframes each) whose document contains
 * `selector`. Webview iframes are overlaid on the workbench, not nested in the editor part's DOM,
 * so the frame is found by content.
 */
export async function webviewFrame(page, selector, { timeout = 30_000 } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    for (const f of page.frames()) {
      if (f === page.mainFrame() || f.isDetached()) continue;
      // A frame that is still navigating (e.g. a webview's service-worker handshake) can hold a
      // query until Playwright's default timeout: bound each probe.
      const n = await Promise.race([f.locator(selector).count().catch(() => 0), sleep(1000).then(() => 0)]);
      if (n > 0) return f;
    }
    if (Date.now() > deadline) {
      const urls = page.frames().map((f) => f.url().slice(0, 120));
      throw new Error(`no webview frame with ${selector} within ${timeout / 1000} s (frames: ${JSON.stringify(urls)})`);
    }
    await sleep(250);
  }
}

/** Notification messages from the Notifications center (toasts are off under the smoke driver). */
export async function notifications(page) {
  await runCommand(page, 'Notifications: Show Notifications', { timeout: 10_000 });
  await sleep(300);
  const msgs = await page.locator('.notifications-center .notification-list-item-message').allTextContents().catch(() => []);
  await page.keyboard.press('Escape');
  return msgs.map((s) => s.trim());
}

export async function screenshot(page, file, opts = {}) {
  mkdirSync(dirname(file), { recursive: true });
  await page.screenshot({ path: file, ...opts });
  return file;
}

/** Waits until fn() returns a truthy value; returns it. */
export async function waitFor(fn, { timeout = 30_000, interval = 250, what = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout / 1000} s waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`);
    await sleep(interval);
  }
}

/**
 * Client of inhost/evaluator.js, running in the page's extension host. Call
 * `host.eval((vscode, a, b) => …, a, b)`; arguments and the result go through JSON; pass
 * `{ $uri: 'file:///…' }` for a vscode.Uri argument.
 */
export class HostEvaluator {
  constructor(stateDir, token) {
    this.stateDir = stateDir;
    this.token = token;
    this.port = null;
  }

  static newToken() {
    return randomBytes(16).toString('hex');
  }

  /** Call before opening the page: forgets the previous extension host's port. */
  reset() {
    rmSync(`${this.stateDir}/evaluator.json`, { force: true });
    this.port = null;
  }

  async ready(timeout = 60_000) {
    const file = `${this.stateDir}/evaluator.json`;
    await waitFor(() => existsSync(file), { timeout, what: 'the in-host evaluator (extensionTestsPath) to start' });
    this.port = JSON.parse(readFileSync(file, 'utf8')).port;
  }

  async eval(fn, ...args) {
    if (!this.port) await this.ready();
    const r = await fetch(`http://127.0.0.1:${this.port}/eval`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-token': this.token },
      body: JSON.stringify({ fn: fn.toString(), args }),
    });
    const body = await r.json();
    if (body.error) throw new Error(`in-host evaluation failed: ${body.error}`);
    return body.value;
  }
}
