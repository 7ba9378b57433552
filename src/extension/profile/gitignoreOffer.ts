/**
 * Once per workspace, when a run is first written into `.v8-lens/` of a git workspace that does not
 * ignore it: "Add .v8-lens/ to .gitignore?". Asked once whatever the answer (the workspace memento
 * remembers), so it never nags; a workspace that already ignores it is never asked.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/util/errors';
import { StateKeys } from '../contract';
import { V8_LENS_IGNORE_ENTRY, addToGitignore, folderToIgnore } from './gitignoreEntry';

export class GitignoreOffer implements vscode.Disposable {
  private asking: Promise<void> | null = null;
  private readonly watcher: vscode.FileSystemWatcher;

  constructor(
    private readonly state: vscode.Memento,
    private readonly output: vscode.OutputChannel,
  ) {
    // Every way a run is written (a profile, an attach, the lab's runs) leaves a session.json.
    this.watcher = vscode.workspace.createFileSystemWatcher('**/.v8-lens/**/session.json', false, true, true);
    this.watcher.onDidCreate((uri) => void this.afterRun(uri.fsPath));
  }

  /** A run was written at `path` (its folder or a file in it). */
  afterRun(path: string): Promise<void> {
    if (this.asking || this.state.get<boolean>(StateKeys.GitignoreOffered)) return this.asking ?? Promise.resolve();
    this.asking = this.ask(path).finally(() => (this.asking = null));
    return this.asking;
  }

  private async ask(path: string): Promise<void> {
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(path));
    if (!folder) return;
    const dir = await folderToIgnore(folder.uri.fsPath, path).catch(() => null);
    if (dir === null) return;
    await this.state.update(StateKeys.GitignoreOffered, true);
    const add = 'Add to .gitignore';
    const answer = await vscode.window.showInformationMessage(
      `V8 Lens writes its runs (profiles and traces, often megabytes) to ${V8_LENS_IGNORE_ENTRY} in ${basename(folder.uri.fsPath)}, a git repository. Add ${V8_LENS_IGNORE_ENTRY} to .gitignore so they are not committed?`,
      add,
      'Not now',
    );
    if (answer !== add) return;
    try {
      const file = await addToGitignore(folder.uri.fsPath);
      this.output.appendLine(`[V8 Lens] added ${V8_LENS_IGNORE_ENTRY} to ${file}`);
    } catch (err) {
      void vscode.window.showErrorMessage(`V8 Lens: could not add ${V8_LENS_IGNORE_ENTRY} to .gitignore: ${errorMessage(err)}`);
    }
  }

  dispose(): void {
    this.watcher.dispose();
  }
}
