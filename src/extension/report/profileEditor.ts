/**
 * "Open With… V8 Lens" from the Explorer: a read-only custom editor for `.cpuprofile`,
 * `.heapprofile`, pprof (`.pb.gz`) and a run folder's `summary.json` (the whole run's report).
 * Registered with priority "option" in package.json, so VS Code's own profile viewer stays the
 * default unless the user picks this one.
 */
import { basename, dirname } from 'node:path';
import * as vscode from 'vscode';
import { CustomEditorTypes } from '../contract';
import type { ReportPanels } from './reportPanel';

class ProfileDocument implements vscode.CustomDocument {
  constructor(readonly uri: vscode.Uri) {}
  dispose(): void {}
}

/** A run's summary.json opens as its run folder; anything else as itself. */
export function reportSourceOf(uri: vscode.Uri): string {
  return basename(uri.fsPath) === 'summary.json' ? dirname(uri.fsPath) : uri.fsPath;
}

export function registerProfileEditor(panels: ReportPanels): vscode.Disposable {
  const provider: vscode.CustomReadonlyEditorProvider<ProfileDocument> = {
    openCustomDocument: (uri) => new ProfileDocument(uri),
    resolveCustomEditor: (document, panel) => panels.adopt(reportSourceOf(document.uri), panel),
  };
  return vscode.window.registerCustomEditorProvider(CustomEditorTypes.Profile, provider, {
    webviewOptions: { retainContextWhenHidden: true },
    supportsMultipleEditorsPerDocument: true,
  });
}
