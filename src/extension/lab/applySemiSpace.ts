/**
 * Apply the lab's choice where the target is started, shown as a diff first: nothing is written
 * until the user says so, and the edit goes through the editor (undo works).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { launchJsonWithSemiSpace, packageJsonWithSemiSpace } from '../../core/sweep/applySemiSpace';
import type { ApplyPlace } from './labTargets';

const SCHEME = 'v8lens-proposed';
const proposals = new Map<string, string>();

export function registerProposedContent(): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(SCHEME, { provideTextDocumentContent: (uri) => proposals.get(uri.path) ?? '' });
}

export async function applySemiSpace(place: ApplyPlace, mb: number): Promise<void> {
  const flag = `--max-semi-space-size=${mb}`;
  if (place.kind === 'none') {
    await vscode.env.clipboard.writeText(flag);
    void vscode.window.showInformationMessage(`V8 Lens: ${flag} copied. This target is a plain file: add it to your node command line, a launch configuration's runtimeArgs, or NODE_OPTIONS.`);
    return;
  }
  const file = place.kind === 'launch' ? join(place.folder, '.vscode', 'launch.json') : join(place.folder, 'package.json');
  const current = await readFile(file, 'utf8');
  const next = place.kind === 'launch' ? launchJsonWithSemiSpace(current, place.name, mb) : packageJsonWithSemiSpace(current, place.script, mb);
  if (next === current) {
    void vscode.window.showInformationMessage(`V8 Lens: ${flag} is already set there.`);
    return;
  }
  proposals.set(file, next);
  const what = place.kind === 'launch' ? `launch configuration '${place.name}'` : `npm script '${place.script}'`;
  await vscode.commands.executeCommand('vscode.diff', vscode.Uri.file(file), vscode.Uri.from({ scheme: SCHEME, path: file }), `V8 Lens: ${flag} in ${what} (proposed)`);
  const answer = await vscode.window.showInformationMessage(`Write ${flag} into the ${what}?`, { modal: true, detail: 'The diff shows the change. It is made in the editor, so Undo takes it back.' }, 'Apply');
  if (answer !== 'Apply') return;
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  if (document.getText() !== current) {
    void vscode.window.showWarningMessage(`V8 Lens: ${file} changed meanwhile; run Apply again.`);
    return;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(current.length)), next);
  await vscode.workspace.applyEdit(edit);
  await document.save();
  void vscode.window.showInformationMessage(`V8 Lens: ${flag} is now in the ${what}.`);
}
