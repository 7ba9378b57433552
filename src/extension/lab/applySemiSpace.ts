/**
 * Apply the lab's choice (`--<flag>=<value>`, the semi-space by default) where the target is
 * started, shown as a diff first: nothing is written until the user says so, and the edit goes
 * through the editor (undo works).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { launchJsonWithFlag, packageJsonWithFlag } from '../../core/sweep/applySemiSpace';
import type { ApplyPlace } from './labTargets';
import { flagArg, isOnOffFlag } from '../../shared/sweepFlags';

const SCHEME = 'v8lens-proposed';
const proposals = new Map<string, string>();

export function registerProposedContent(): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(SCHEME, { provideTextDocumentContent: (uri) => proposals.get(uri.path) ?? '' });
}

export interface SemiSpaceProposal {
  file: string;
  current: string;
  next: string;
  /** "launch configuration 'API'" */
  where: string;
  flag: string;
}

/** Opens the diff of `--max-semi-space-size=<mb>`; null (after saying why) when there is nothing to write. */
export function proposeSemiSpace(place: ApplyPlace, mb: number): Promise<SemiSpaceProposal | null> {
  return proposeFlagValue(place, 'max-semi-space-size', mb);
}

/** Opens the diff of `--<flagName>=<value>`; null (after saying why) when there is nothing to write. */
export async function proposeFlagValue(place: ApplyPlace, flagName: string, value: number): Promise<SemiSpaceProposal | null> {
  const flag = flagArg(flagName, value);
  // An on/off flag (--no-allocation-site-pretenuring) is no `--flag=value` word to edit in: copied, as for a plain file.
  if (place.kind === 'none' || isOnOffFlag(flagName)) {
    await vscode.env.clipboard.writeText(flag);
    const why = place.kind === 'none' ? 'This target is a plain file' : 'An on/off flag is not written into your files';
    void vscode.window.showInformationMessage(`V8 Lens: ${flag} copied. ${why}: add it to your node command line, a launch configuration's runtimeArgs, or NODE_OPTIONS.`);
    return null;
  }
  const file = place.kind === 'launch' ? join(place.folder, '.vscode', 'launch.json') : join(place.folder, 'package.json');
  const current = await readFile(file, 'utf8');
  const next = place.kind === 'launch' ? launchJsonWithFlag(current, place.name, flagName, value) : packageJsonWithFlag(current, place.script, flagName, value);
  if (next === current) {
    void vscode.window.showInformationMessage(`V8 Lens: ${flag} is already set there.`);
    return null;
  }
  proposals.set(file, next);
  const where = place.kind === 'launch' ? `launch configuration '${place.name}'` : `npm script '${place.script}'`;
  await vscode.commands.executeCommand('vscode.diff', vscode.Uri.file(file), vscode.Uri.from({ scheme: SCHEME, path: file }), `V8 Lens: ${flag} in ${where} (proposed)`);
  return { file, current, next, where, flag };
}

/** Writes a proposal through the editor (Undo takes it back); refuses if the file changed since. */
export async function writeSemiSpace(proposal: SemiSpaceProposal): Promise<string> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(proposal.file));
  if (document.getText() !== proposal.current) return `${proposal.file} changed meanwhile; nothing written. Apply again.`;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(proposal.current.length)), proposal.next);
  await vscode.workspace.applyEdit(edit);
  await document.save();
  proposals.delete(proposal.file);
  return `${proposal.flag} is now in the ${proposal.where}.`;
}
