import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { pathKey, resolveSourcePath as resolveLocalSource } from '../../core/annotations/sourcePaths';
import { mayOpenSource } from '../../core/report/namedSources';
import { SourceMapResolver } from '../../core/sourcemap/sourceMapResolver';

/**
 * Opens a position from a profile or log: `file://` URLs and plain paths, 1-based line and column,
 * on the original source when the file has a source map.
 * A profile made on another machine (CI) names paths that do not exist here: try them relative to
 * each workspace folder before giving up with a clear message.
 * The request comes from a webview, so it is honoured only for a URL the open report names
 * (`named`, see namedSources.ts) or a file inside the workspace.
 */
export async function openSourceLocation(url: string, line: number, column: number, reportSource: string, named: ReadonlySet<string>): Promise<void> {
  const path = resolveSourcePath(url, reportSource);
  if (!path) {
    void vscode.window.showWarningMessage(`V8 Lens: ${url} is not a file in this workspace (${url.startsWith('node:') ? 'a Node internal module' : 'it may come from another machine'})`);
    return;
  }
  if (!mayOpenSource(url, path, named, (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), pathKey)) {
    void vscode.window.showWarningMessage(`V8 Lens: not opening ${path}: no frame of this report names it, and it is outside the workspace`);
    return;
  }
  // Bundled or compiled code opens on its original source when a source map says where that is.
  const original = line > 0 ? await new SourceMapResolver().original(path, line, Math.max(column, 1)) : null;
  const target = original && existsSync(original.path) ? original : { path, line, column };
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(target.path));
  const position = new vscode.Position(Math.max(0, target.line - 1), Math.max(0, target.column - 1));
  await vscode.window.showTextDocument(document, { selection: new vscode.Range(position, position), preview: true });
}

function resolveSourcePath(url: string, reportSource: string): string | null {
  const roots = [...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), dirname(reportSource)];
  return resolveLocalSource(url, roots);
}

