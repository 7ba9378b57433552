/**
 * The HTML around a webview bundle (dist/webview/<page>.js + <page>.css), in two forms: the page
 * of every V8 Lens webview in VS Code (report, compare, lab), and the report as one
 * self-contained HTML file to attach to a ticket. No vscode import, so the CLI and tests use it
 * too.
 *
 * Both pages run under a strict CSP with no 'unsafe-inline' anywhere: the bundle injects no
 * <style> (d3-flame-graph's ES build is bundled so its CSS lands in report.css), d3 and chart.js
 * style elements through the CSSOM, and @vscode-elements/elements (lit) uses constructable
 * stylesheets, none of which CSP restricts.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isAsciiText } from '../util/asciiText';
import { UserError } from '../util/errors';
import { packedSpanCount } from '../../shared/profile/unpackTimeProfile';
import { modelForPage, type ReportModel } from './reportModel';

export interface WebviewPageOptions {
  /** `webview.cspSource`. */
  cspSource: string;
  /** A fresh random value for each page (base64 or hex). */
  nonce: string;
  /** `webview.asWebviewUri(dist/webview/<page>.js)`. */
  scriptUri: string;
  /** `webview.asWebviewUri(dist/webview/<page>.css)` (and any other sheet). */
  styleUris: string[];
  /** Page title; the report's by default (the lab's webviews use the same page). */
  title?: string;
  /** `<html data-mode>`, for a bundle that renders differently in a view and in a panel. */
  mode?: string;
}

/** A webview panel's or view's HTML: the bundle and its CSS from the extension; the data comes by postMessage. */
export function webviewPageHtml(options: WebviewPageOptions): string {
  const { cspSource, nonce } = options;
  checkNonce(nonce);
  const csp = [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en"${options.mode ? ` data-mode="${escapeHtml(options.mode)}"` : ''}>
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
${options.styleUris.map((uri) => `<link rel="stylesheet" href="${escapeHtml(uri)}">`).join('\n')}
<title>${escapeHtml(options.title ?? 'V8 Lens report')}</title>
</head>
<body>
<div id="app"></div>
<script nonce="${escapeHtml(nonce)}" src="${escapeHtml(options.scriptUri)}"></script>
</body>
</html>
`;
}

export interface ReportAssets {
  /** dist/webview/report.js, as text. */
  script: string;
  /** dist/webview/report.css (and any other sheet), as text. */
  styles: string[];
  /**
   * dist/webview/standalone.css (from webview/common/standalone.css), as text: the --vscode-*
   * variables VS Code would set, a light and a dark set following prefers-color-scheme.
   */
  theme: string;
}

/**
 * One self-contained HTML file: the same bundle and CSS inlined under a nonce CSP, the model as
 * JSON data, and a shim standing in for `acquireVsCodeApi` that answers `ready` with that model;
 * the time-ordered samples come last, after the script (see spansApart).
 * `<html data-standalone>` tells the webview there is no host (no export, reveal or open-source).
 */
export function standaloneReportHtml(model: ReportModel, assets: ReportAssets, nonce = randomNonce()): string {
  checkNonce(nonce);
  const { json, spans } = pageData(model);
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    'img-src data:',
    'font-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const n = escapeHtml(nonce);
  return `<!DOCTYPE html>
<html lang="en" data-standalone>
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="V8 Lens">
<title>${escapeHtml(`V8 Lens · ${model.title}`)}</title>
<style nonce="${n}">
${inlineStyle(assets.theme)}
</style>
${assets.styles.map((css) => `<style nonce="${n}">\n${inlineStyle(css)}\n</style>`).join('\n')}
</head>
<body>
<div id="app"></div>
<script type="application/json" id="report-model">${json}</script>
<script nonce="${n}">${STANDALONE_SHIM}</script>
<script nonce="${n}">
${inlineScript(assets.script)}
</script>
${spans.map((s) => `<script type="application/octet-stream" id="${s.id}">${s.text}</script>`).join('\n')}
</body>
</html>
`;
}

/**
 * The page's model as JSON, and the spans taken out of it (spansApart). It is bounded
 * (pageBounds.ts), so only something else enormous (a flame tree of millions of frames) can pass
 * V8's longest string: that is one line, not a crash.
 */
function pageData(model: ReportModel): { json: string; spans: DetachedSpans[] } {
  try {
    const { page, spans } = spansApart(modelForPage(model));
    return { json: jsonForScript(page), spans };
  } catch (err) {
    if (err instanceof RangeError) throw new UserError(`the report is too large for one HTML page (${err.message}); v8-lens report --json gives its figures`);
    throw err;
  }
}

interface DetachedSpans {
  id: string;
  /** Base64: nothing in it can end its element. */
  text: string;
}

/**
 * The page's model with each time-ordered profile's spans taken out (PackedArrays.spansIn), and
 * those spans, which the file puts after the script: the browser parses megabytes of them only
 * after it has run the script and painted the flame graph (the 47 MB profile's page: the bare
 * parse of its model took 138 ms with them, 42 ms without).
 */
function spansApart(page: ReportModel): { page: ReportModel; spans: DetachedSpans[] } {
  const spans: DetachedSpans[] = [];
  const detach = <T extends ReportModel['timeProfile']>(tp: T): T => {
    const packed = tp?.packed;
    if (!tp || !packed || packed.spansIn || packed.spans === '') return tp;
    // Base64 by construction (packTimeProfile); no `<`, so nothing can end the element (a regex that
    // checked the alphabet took 40 ms on its first run over 8 MB: V8 interprets a regex at first).
    if (packed.spans.includes('<')) throw new Error('the packed spans are not base64');
    const id = `report-spans-${spans.length}`;
    spans.push({ id, text: packed.spans });
    return { ...tp, packed: { ...packed, spans: '', spansIn: { id, count: packedSpanCount(tp) } } };
  };
  const out: ReportModel = { ...page, timeProfile: detach(page.timeProfile) };
  if (page.processes) out.processes = page.processes.map((v) => ({ ...v, timeProfile: detach(v.timeProfile) }));
  return { page: out, spans };
}

/** Where the built webview assets are: beside the bundle (dist/cli.js, dist/extension.js) or the build's dist/ when run from source. */
export function reportAssetsDir(): string {
  const candidates = [join(__dirname, 'webview'), join(__dirname, '..', '..', '..', 'dist', 'webview')];
  const found = candidates.find((dir) => existsSync(join(dir, 'report.js')));
  if (!found) throw new Error(`the report webview is not built (looked in ${candidates.join(', ')}); run npm run build`);
  return found;
}

export async function readReportAssets(dir = reportAssetsDir()): Promise<ReportAssets> {
  const read = (name: string) => readFile(join(dir, name), 'utf8');
  const [script, style, theme] = await Promise.all([read('report.js'), read('report.css'), read('standalone.css')]);
  return { script, styles: [style], theme };
}

/**
 * JSON that can sit inside <script type="application/json">: no `<`, `>` or `&` (so no data can
 * close the tag or open a comment), and no U+2028/2029. JSON.parse reads the escapes back as is.
 */
export function jsonForScript(value: unknown): string {
  const json = JSON.stringify(value);
  // Megabytes of packed profile are mostly ASCII without <, > or &: that check and three memchr
  // take a tenth of the replacing regex's scan (which also copies the string).
  if (isAsciiText(json) && !json.includes('<') && !json.includes('>') && !json.includes('&')) return json;
  return json.replace(/[<>&\u2028\u2029]/g, (c) => SCRIPT_ESCAPES[c]!);
}

const SCRIPT_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A script's text inside <script>: nothing in it may end the element or start a comment there. */
function inlineScript(js: string): string {
  return js
    .replace(/^\/\/# sourceMappingURL=.*$/gm, '')
    .replace(/<\/(script)/gi, '<\\/$1')
    .replace(/<!--/g, '<\\!--');
}

function inlineStyle(css: string): string {
  return css.replace(/\/\*# sourceMappingURL=[^*]*\*\//g, '').replace(/<\/(style)/gi, '<\\/$1');
}

function checkNonce(nonce: string): void {
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(nonce)) throw new Error('a CSP nonce must be at least 16 base64 characters');
}

function randomNonce(): string {
  // globalThis.crypto is there on Node 20+ and in the editor's Node.
  const bytes = new Uint8Array(18);
  globalThis.crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString('base64');
}

/**
 * Stands in for VS Code's webview API in the exported file: `ready` is answered with the embedded
 * model, in a microtask: after the bundle's script has run to its end (the page posts `ready`
 * midway), before the browser renders a frame of "Loading report…" (a task via setTimeout let it:
 * 7 ms of a 98 ms first paint on the tsc profile).
 */
const STANDALONE_SHIM = `(function () {
  var model = JSON.parse(document.getElementById('report-model').textContent);
  window.acquireVsCodeApi = function () {
    return {
      postMessage: function (message) {
        if (message && message.type === 'ready') {
          queueMicrotask(function () { window.dispatchEvent(new MessageEvent('message', { data: { type: 'model', model: model } })); });
        }
      },
      getState: function () { return undefined; },
      setState: function () {}
    };
  };
})();`;
