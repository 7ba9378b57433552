/**
 * The one way V8 Lens's webviews get their page: a bundle and its CSS from dist/webview, a fresh
 * nonce and the strict CSP of webviewPageHtml (core/report/reportPage.ts). Report, compare and lab
 * panels all come through here.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { webviewPageHtml } from '../core/report/reportPage';

export type WebviewBundle = 'report' | 'compare' | 'lab';

export function setWebviewPage(webview: vscode.Webview, extensionUri: vscode.Uri, bundle: WebviewBundle, page: { title?: string; mode?: string } = {}): void {
  const assets = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  webview.html = webviewPageHtml({
    cspSource: webview.cspSource,
    nonce: randomBytes(16).toString('base64'),
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(assets, `${bundle}.js`)).toString(),
    styleUris: [webview.asWebviewUri(vscode.Uri.joinPath(assets, `${bundle}.css`)).toString()],
    ...page,
  });
}

/** What our bundles may load: their own folder and the icons. */
export function bundleWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')] };
}

/** An editor panel for one of our bundles, kept alive while hidden (charts and zoom survive a tab switch). */
export function createBundlePanel(extensionUri: vscode.Uri, viewType: string, title: string, bundle: WebviewBundle, page: { title?: string; mode?: string } = {}): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel(viewType, title, vscode.ViewColumn.Active, { ...bundleWebviewOptions(extensionUri), retainContextWhenHidden: true });
  panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'v8-lens.svg');
  setWebviewPage(panel.webview, extensionUri, bundle, page);
  return panel;
}
