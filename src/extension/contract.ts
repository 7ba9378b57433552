/**
 * Every string contract between package.json and the code, typed in one place: command IDs with
 * their arguments, settings with their types, context keys. A renamed command that package.json
 * still lists fails the type check or the manifest test, not a user's click.
 */
import * as vscode from 'vscode';
import type { DeoptFunctionLens } from '../core/annotations/annotationTypes';
import { Commands, SETTINGS_SECTION, type ContextKey, type Settings } from './contractIds';

export * from './contractIds';

export interface SessionItemArg {
  runDir: string;
}

export interface CommandTypes {
  [Commands.Profile](): Promise<void>;
  [Commands.Attach](): Promise<void>;
  [Commands.OpenReport](target?: vscode.Uri): Promise<void>;
  [Commands.StopRun](): void;
  [Commands.CancelRun](): void;
  [Commands.ExportReport](): Promise<void>;
  [Commands.RefreshSessions](): void;
  [Commands.OpenSession](item?: SessionItemArg): Promise<void>;
  [Commands.RevealSession](item?: SessionItemArg): Promise<void>;
  [Commands.DeleteSession](item?: SessionItemArg): Promise<void>;
  /** From the palette (pick A, then B) or a Sessions item (it is A); two selected items are compared directly. */
  [Commands.CompareRuns](item?: SessionItemArg, selected?: readonly SessionItemArg[]): Promise<void>;
  [Commands.PickAnnotatedRun](): Promise<void>;
  [Commands.ToggleDeoptAnnotations](): Promise<void>;
  [Commands.ToggleHeatAnnotations](): Promise<void>;
  /** From a deopt CodeLens: the function's sites in a list that jumps to each. */
  [Commands.ShowDeoptSites](uri?: vscode.Uri, lens?: DeoptFunctionLens): Promise<void>;
  [Commands.ShowStaleAnnotations](uri?: vscode.Uri): void;
}

export function registerCommand<K extends keyof CommandTypes>(id: K, handler: CommandTypes[K]): vscode.Disposable {
  return vscode.commands.registerCommand(id, handler as (...args: unknown[]) => unknown);
}

export function setContext(key: ContextKey, value: unknown): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', key, value);
}

export function readSetting<K extends keyof Settings>(key: K, scope?: vscode.ConfigurationScope): Settings[K] {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION, scope).get<Settings[K]>(key) as Settings[K];
}
