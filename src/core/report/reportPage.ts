/**
 * The HTML around the report webview bundle (dist/webview/report.js + report.css), in two forms:
 * the VS Code panel's page, and one self-contained HTML file to attach to a ticket. Pure: no
 * vscode import, so the CLI and tests use it too.
 *
 * Both pages run under a strict CSP with no 'unsafe-inline' anywhere: the bundle injects no
 * <style> (d3-flame-graph's ES build is bundled so its CSS lands in report.css), d3 and chart.js
 * style elements through the CSSOM, and @vscode-elements/elements (lit) uses constructable
 * stylesheets, none of which CSP restricts.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReportModel } from './reportModel';

export interface ReportWebviewOptions {
  /** `webview.cspSource`. */
  cspSource: string;
  /** A fresh random value for each page (base64 or hex). */
  nonce: string;
  /** `webview.asWebviewUri(dist/webview/report.js)`. */
  scriptUri: string;
  /** `webview.asWebviewUri(dist/webview/report.css)` (and any other sheet). */
  styleUris: string[];
  /** Page title; the report's by default (the lab's webviews use the same page). */
  title?: string;
  /** `<html data-mode>`, for a bundle that renders differently in a view and in a panel. */
  mode?: string;
}

/** The report panel's HTML: the bundle and its CSS from the extension, the model comes by postMessage. */
export function reportWebviewHtml(options: ReportWebviewOptions): string {
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
}

/**
 * One self-contained HTML file: the same bundle and CSS inlined under a nonce CSP, the model as
 * JSON data, and a shim standing in for `acquireVsCodeApi` that answers `ready` with that model.
 * `<html data-standalone>` tells the webview there is no host (no export, reveal or open-source).
 */
export function standaloneReportHtml(model: ReportModel, assets: ReportAssets, nonce = randomNonce()): string {
  checkNonce(nonce);
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
${inlineStyle(STANDALONE_THEME_CSS)}
</style>
${assets.styles.map((css) => `<style nonce="${n}">\n${inlineStyle(css)}\n</style>`).join('\n')}
</head>
<body>
<div id="app"></div>
<script type="application/json" id="report-model">${jsonForScript(model)}</script>
<script nonce="${n}">${STANDALONE_SHIM}</script>
<script nonce="${n}">
${inlineScript(assets.script)}
</script>
</body>
</html>
`;
}

/** Where the built webview assets are: beside the bundle (dist/cli.js, dist/extension.js) or the build's dist/ when run from source. */
export function reportAssetsDir(): string {
  const candidates = [join(__dirname, 'webview'), join(__dirname, '..', '..', '..', 'dist', 'webview')];
  const found = candidates.find((dir) => existsSync(join(dir, 'report.js')));
  if (!found) throw new Error(`the report webview is not built (looked in ${candidates.join(', ')}); run npm run build`);
  return found;
}

export async function readReportAssets(dir = reportAssetsDir()): Promise<ReportAssets> {
  const [script, style] = await Promise.all([readFile(join(dir, 'report.js'), 'utf8'), readFile(join(dir, 'report.css'), 'utf8')]);
  return { script, styles: [style] };
}

/**
 * JSON that can sit inside <script type="application/json">: no `<`, `>` or `&` (so no data can
 * close the tag or open a comment), and no U+2028/2029. JSON.parse reads the escapes back as is.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

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

/** Stands in for VS Code's webview API in the exported file: `ready` is answered with the embedded model. */
const STANDALONE_SHIM = `(function () {
  var model = JSON.parse(document.getElementById('report-model').textContent);
  window.acquireVsCodeApi = function () {
    return {
      postMessage: function (message) {
        if (message && message.type === 'ready') {
          setTimeout(function () { window.dispatchEvent(new MessageEvent('message', { data: { type: 'model', model: model } })); }, 0);
        }
      },
      getState: function () { return undefined; },
      setState: function () {}
    };
  };
})();`;

const FONT_VARS = `
  --vscode-font-family: system-ui, -apple-system, "Segoe UI", Ubuntu, "Helvetica Neue", sans-serif;
  --vscode-font-size: 13px;
  --vscode-font-weight: normal;
  --vscode-editor-font-family: ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace;`;

/** The --vscode-* variables the report and its controls use, as VS Code's Light Modern and Dark Modern themes set them. */
const STANDALONE_THEME_CSS = `:root {${FONT_VARS}
  --vscode-editor-background: #ffffff;
  --vscode-editor-foreground: #3b3b3b;
  --vscode-foreground: #3b3b3b;
  --vscode-descriptionForeground: #6b6b6b;
  --vscode-errorForeground: #c72e0f;
  --vscode-focusBorder: #005fb8;
  --vscode-panel-border: #e5e5e5;
  --vscode-widget-border: #e5e5e5;
  --vscode-widget-shadow: rgba(0, 0, 0, 0.16);
  --vscode-textBlockQuote-background: #f6f6f6;
  --vscode-editorWarning-foreground: #bf8803;
  --vscode-editorHoverWidget-background: #f8f8f8;
  --vscode-editorHoverWidget-foreground: #3b3b3b;
  --vscode-editorHoverWidget-border: #c8c8c8;
  --vscode-editorWidget-border: #e0e0e0;
  --vscode-list-hoverBackground: #f2f2f2;
  --vscode-textLink-foreground: #005fb8;
  --vscode-button-background: #005fb8;
  --vscode-button-foreground: #ffffff;
  --vscode-button-hoverBackground: #0258a8;
  --vscode-button-border: rgba(0, 0, 0, 0.1);
  --vscode-button-secondaryBackground: #e5e5e5;
  --vscode-button-secondaryForeground: #3b3b3b;
  --vscode-button-secondaryHoverBackground: #cccccc;
  --vscode-settings-textInputBackground: #ffffff;
  --vscode-settings-textInputForeground: #3b3b3b;
  --vscode-settings-textInputBorder: #cecece;
  --vscode-input-placeholderForeground: #767676;
  --vscode-settings-checkboxBackground: #f8f8f8;
  --vscode-settings-checkboxBorder: #cecece;
  --vscode-settings-checkboxForeground: #3b3b3b;
  --vscode-charts-foreground: #616161;
  --vscode-charts-lines: rgba(97, 97, 97, 0.5);
  --vscode-charts-red: #e51400;
  --vscode-charts-blue: #1a85ff;
  --vscode-charts-yellow: #bf8803;
  --vscode-charts-orange: #d18616;
  --vscode-charts-green: #388a34;
  --vscode-charts-purple: #652d90;
}
@media (prefers-color-scheme: dark) {
  :root {
    --vscode-editor-background: #1f1f1f;
    --vscode-editor-foreground: #cccccc;
    --vscode-foreground: #cccccc;
    --vscode-descriptionForeground: #9d9d9d;
    --vscode-errorForeground: #f85149;
    --vscode-focusBorder: #0078d4;
    --vscode-panel-border: #2b2b2b;
    --vscode-widget-border: #313131;
    --vscode-widget-shadow: rgba(0, 0, 0, 0.36);
    --vscode-textBlockQuote-background: #2b2b2b;
    --vscode-editorWarning-foreground: #cca700;
    --vscode-editorHoverWidget-background: #202020;
    --vscode-editorHoverWidget-foreground: #cccccc;
    --vscode-editorHoverWidget-border: #454545;
    --vscode-editorWidget-border: #3c3c3c;
    --vscode-list-hoverBackground: #2a2d2e;
    --vscode-textLink-foreground: #4daafc;
    --vscode-button-background: #0078d4;
    --vscode-button-foreground: #ffffff;
    --vscode-button-hoverBackground: #026ec1;
    --vscode-button-border: rgba(255, 255, 255, 0.07);
    --vscode-button-secondaryBackground: #313131;
    --vscode-button-secondaryForeground: #cccccc;
    --vscode-button-secondaryHoverBackground: #3c3c3c;
    --vscode-settings-textInputBackground: #313131;
    --vscode-settings-textInputForeground: #cccccc;
    --vscode-settings-textInputBorder: #3c3c3c;
    --vscode-input-placeholderForeground: #989898;
    --vscode-settings-checkboxBackground: #313131;
    --vscode-settings-checkboxBorder: #3c3c3c;
    --vscode-settings-checkboxForeground: #cccccc;
    --vscode-charts-foreground: #cccccc;
    --vscode-charts-lines: rgba(204, 204, 204, 0.5);
    --vscode-charts-red: #f14c4c;
    --vscode-charts-blue: #3794ff;
    --vscode-charts-yellow: #cca700;
    --vscode-charts-orange: #d18616;
    --vscode-charts-green: #89d185;
    --vscode-charts-purple: #b180d7;
  }
}`;
