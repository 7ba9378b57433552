/**
 * Loads standalone report exports in a real headless Chromium (Debian's /usr/bin/chromium, driven by
 * playwright-core, which downloads no browser) and records everything a strict page must not do:
 * CSP violations, console errors, uncaught exceptions, dialogs.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { webviewPageHtml } from '../../src/core/report/reportPage';
import type { ReportModel } from '../../src/shared/model/reportModel';
import { modelForPage } from '../../src/core/report/reportModel';
import { tempDir as testTempDir } from '../../scripts/tempDirs';

// Browser globals used inside page.evaluate / addInitScript callbacks, which run in the page. This
// file is type-checked with the Node libs only, so they are declared here (no code is emitted).
declare const document: any;
declare const window: any;
interface CspEvent { violatedDirective: string; blockedURI: string; sourceFile: string; lineNumber: number }

export const REPO = resolve(__dirname, '..', '..');
export const CLI = join(REPO, 'dist', 'cli.js');
export const PROGRAMS = join(REPO, 'test', 'fixtures', 'programs');
export const SPEEDSCOPE = join(REPO, 'test', 'fixtures', 'third-party', 'speedscope');

export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => !!p);
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`no Chromium found (looked at ${candidates.join(', ')}): apt-get install -y chromium, or set CHROMIUM_PATH`);
  return found;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
}

/**
 * The page script that stands in for VS Code's webview API: records what the page posts in
 * `window.__sent`, and reports CSP violations to the binding `cspBinding` the test exposed. A string,
 * not a function: tsx would wrap named functions in a helper that does not exist in the page.
 */
export function fakeVsCodeApiScript(cspBinding: string): string {
  return `
      window.__sent = [];
      window.acquireVsCodeApi = function () {
        return { postMessage: function (m) { window.__sent.push(m); }, getState: function () {}, setState: function () {} };
      };
      document.addEventListener('securitypolicyviolation', function (e) { window.${cspBinding}(e.violatedDirective + ' ' + e.blockedURI); });
    `;
}

/** Writes the report webview's page (as the editor serves it, with the fake API's CSP source) to `htmlFile`. */
export function writeWebviewPage(htmlFile: string): void {
  writeFileSync(
    htmlFile,
    webviewPageHtml({
      cspSource: 'file:',
      nonce: 'bm9uY2Vub25jZW5vbmNlbm9uY2U=',
      scriptUri: pathToFileURL(join(REPO, 'dist', 'webview', 'report.js')).href,
      styleUris: [pathToFileURL(join(REPO, 'dist', 'webview', 'report.css')).href],
    }),
  );
}

/**
 * Opens the page `writeWebviewPage` wrote under the fake VS Code API, sends it `model` as the editor
 * does once it is ready, and waits until it has drawn; errors and CSP violations go to `problems`.
 */
export async function openWebviewWithModel(browser: Browser, htmlFile: string, model: ReportModel): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(msg.text());
  });
  await page.exposeBinding('__reportCsp', (_s, text: string) => void problems.push(`CSP ${text}`));
  await page.addInitScript(fakeVsCodeApiScript('__reportCsp'));
  await page.goto(pathToFileURL(htmlFile).href);
  await page.waitForFunction(() => window.__sent.some((msg: { type: string }) => msg.type === 'ready'));
  // As the panel posts it (reportPanel.ts): the model for a page, its time profiles packed.
  await page.evaluate((sent) => window.postMessage({ type: 'model', model: sent }, '*'), JSON.parse(JSON.stringify(modelForPage(model))) as ReportModel);
  await page.waitForSelector('html[data-report-ready="true"]');
  return { page, problems };
}

/** A temporary folder for a browser test, removed when its process ends (../tempDirs.ts). */
export function tempDir(prefix = 'v8-lens-browser-'): string {
  return testTempDir(prefix);
}

export interface PageProblems {
  cspViolations: string[];
  consoleErrors: string[];
  pageErrors: string[];
  dialogs: string[];
}

/**
 * Opens an HTML file with listeners attached before any of its scripts run. The CSP listener is
 * installed by an init script, so it sees violations from the very first element.
 */
export async function openReport(browser: Browser, htmlFile: string, options: { colorScheme?: 'light' | 'dark'; width?: number; height?: number } = {}): Promise<{ page: Page; problems: PageProblems }> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1400, height: options.height ?? 900 }, colorScheme: options.colorScheme ?? 'light' });
  const page = await context.newPage();
  const problems: PageProblems = { cspViolations: [], consoleErrors: [], pageErrors: [], dialogs: [] };
  await page.exposeBinding('__reportCsp', (_source, text: string) => {
    problems.cspViolations.push(text);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e: CspEvent) => {
      (window as unknown as { __reportCsp(t: string): void }).__reportCsp(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.consoleErrors.push(msg.text());
  });
  page.on('pageerror', (err) => problems.pageErrors.push(String(err)));
  page.on('dialog', (dialog) => {
    problems.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(pathToFileURL(htmlFile).href);
  await page.waitForSelector('html[data-report-ready="true"]', { timeout: 20_000 });
  return { page, problems };
}

export function runCli(args: string[], timeoutMs = 60_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`v8-lens ${args.join(' ')} did not finish in ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/**
 * Profiles the fixture HTTP server for `seconds` while sending it requests on loopback (bounded in
 * count and time), so the run has real request handling in its flame graph and GC in its trace.
 */
export async function profileServerUnderLoad(runDir: string, seconds = 3): Promise<void> {
  const child = spawn(process.execPath, [CLI, 'profile', '--out', runDir, '--timeout', String(seconds), '--', join(PROGRAMS, 'http-server.js')], {
    cwd: REPO,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start; stderr: ${stderr}`)), 20_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening on (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolvePort(Number(m[1]));
      }
    });
  });
  const until = Date.now() + (seconds - 0.8) * 1000;
  for (let i = 0; i < 20_000 && Date.now() < until; i++) {
    await new Promise<void>((done) => {
      const req = request({ host: '127.0.0.1', port, path: `/items?i=${i}`, timeout: 1000 }, (res) => {
        res.resume();
        res.on('end', done);
      });
      req.on('error', () => done());
      req.on('timeout', () => req.destroy());
      req.end();
    });
  }
  const code = await new Promise<number | null>((done) => child.on('close', done));
  if (code !== 0) throw new Error(`v8-lens profile exited ${code}: ${stderr}`);
}

/** A tiny valid .cpuprofile whose function names are hostile markup. */
export function writeXssProfile(file: string): void {
  const names = ['<img src=x onerror=alert(1)>', '</script><script>alert(2)</script>'];
  const nodes = [
    { id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, hitCount: 0, children: [2, 3] },
    { id: 2, callFrame: { functionName: names[0], scriptId: '1', url: 'file:///app/<b>x</b>.js', lineNumber: 3, columnNumber: 10 }, hitCount: 0 },
    { id: 3, callFrame: { functionName: names[1], scriptId: '1', url: 'file:///app/evil.js', lineNumber: 9, columnNumber: 2 }, hitCount: 0 },
  ];
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  for (let i = 0; i < 400; i++) {
    samples.push(i % 3 === 0 ? 3 : 2);
    timeDeltas.push(1000);
  }
  writeFileSync(file, JSON.stringify({ nodes, startTime: 1_000_000, endTime: 1_000_000 + 401_000, samples, timeDeltas }));
}

/** A frame of the report's canvas flame graph as drawn (webview/common/flameCanvas.ts's DrawnFrame). */
export interface DrawnFrame {
  name: string;
  url: string;
  depth: number;
  x: number;
  y: number;
  width: number;
  height: number;
  fill: string;
  label: string;
  highlight: boolean;
  faded: boolean;
}

/** What the report's flame graph draws now, from the data its canvas renderer exposes on #flame-graph. */
export function flameFrames(page: Page): Promise<DrawnFrame[]> {
  return page.$eval('#flame-graph', (box) => (box as unknown as { flameFrames(): DrawnFrame[] }).flameFrames());
}

/** The first drawn frame named `name`, with a point inside it relative to the canvas; fails the test without one. */
export async function flameFrame(page: Page, name: string): Promise<DrawnFrame & { at: { x: number; y: number } }> {
  const frame = (await flameFrames(page)).find((f) => f.name === name);
  if (!frame) throw new Error(`no frame named ${JSON.stringify(name)} is drawn`);
  return { ...frame, at: { x: frame.x + Math.min(frame.width / 2, 20), y: frame.y + frame.height / 2 } };
}

/** Hovers (or clicks, with the modifiers given) the first drawn frame named `name`. */
export async function pointAtFrame(page: Page, name: string, click?: { modifiers?: ('Control' | 'Meta' | 'Shift')[] }): Promise<void> {
  const { at } = await flameFrame(page, name);
  const canvas = page.locator('#flame-graph canvas');
  if (click) await canvas.click({ position: at, modifiers: click.modifiers ?? [] });
  else await canvas.hover({ position: at });
}
