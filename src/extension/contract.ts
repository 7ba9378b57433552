/**
 * Every string contract between package.json and the code, typed in one place: command IDs with
 * their arguments, settings with their types, context keys with their values. A renamed command
 * that package.json still lists fails the type check or the manifest test, not a user's click.
 * Our own commands are registered, run and attached to items only through the helpers here.
 */
import * as vscode from 'vscode';
import type { DeoptFunctionLens } from '../core/annotations/annotationTypes';
import { Commands, SETTINGS_SECTION, type CommandId, type ContextKey, type ContextKeyTypes, type Settings } from './contractIds';

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
  /** From a Sessions item, or the report in front. */
  [Commands.ExportPprof](item?: SessionItemArg): Promise<void>;
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
  /** From the report's prediction (its run folder), or the palette (the report in front): the lab sweeps the predicted sizes. */
  [Commands.ConfirmPrediction](runDir?: string): Promise<void>;
}

export function registerCommand<K extends CommandId>(id: K, handler: CommandTypes[K]): vscode.Disposable {
  return vscode.commands.registerCommand(id, handler as (...args: unknown[]) => unknown);
}

/** Runs one of our commands with the arguments its handler takes. */
export function runCommand<K extends CommandId>(id: K, ...args: Parameters<CommandTypes[K]>): Thenable<Awaited<ReturnType<CommandTypes[K]>>> {
  return vscode.commands.executeCommand<Awaited<ReturnType<CommandTypes[K]>>>(id, ...args);
}

/** One of our commands with its arguments, for a TreeItem's or a CodeLens's click. */
export function asCommand<K extends CommandId>(id: K, title: string, ...args: Parameters<CommandTypes[K]>): vscode.Command {
  return args.length > 0 ? { command: id, title, arguments: args } : { command: id, title };
}

export function setContext<K extends ContextKey>(key: K, value: ContextKeyTypes[K]): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', key, value);
}

export function readSetting<K extends keyof Settings>(key: K, scope?: vscode.ConfigurationScope): Settings[K] {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION, scope).get<Settings[K]>(key) as Settings[K];
}
