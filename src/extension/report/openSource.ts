import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { urlToPath } from '../../core/v8log/sourcePosition';

/**
 * Opens a position from a profile or log: `file://` URLs and plain paths, 1-based line and column.
 * A profile made on another machine (CI) names paths that do not exist here: try them relative to
 * each workspace folder before giving up with a clear message.
 */
export async function openSourceLocation(url: string, line: number, column: number, reportSource: string): Promise<void> {
  const path = resolveSourcePath(url, reportSource);
  if (!path) {
    void vscode.window.showWarningMessage(`V8 Lens: ${url} is not a file in this workspace (${url.startsWith('node:') ? 'a Node internal module' : 'it may come from another machine'})`);
    return;
  }
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  const position = new vscode.Position(Math.max(0, line - 1), Math.max(0, column - 1));
  await vscode.window.showTextDocument(document, { selection: new vscode.Range(position, position), preview: true });
}

export function resolveSourcePath(url: string, reportSource: string): string | null {
  if (url === '' || url.startsWith('node:') || /^https?:/.test(url)) return null;
  const path = urlToPath(url);
  if (isAbsolute(path) && existsSync(path)) return path;
  const roots = [...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), dirname(reportSource)];
  const segments = path.split(/[\\/]+/).filter(Boolean);
  // Try the longest tail of the path under each workspace folder: /ci/build/app/src/x.js → src/x.js.
  for (let start = 0; start < segments.length; start++) {
    for (const root of roots) {
      const candidate = join(root, ...segments.slice(start));
      if (existsSync(candidate)) return candidate;
    }
  }
  return null;
}
