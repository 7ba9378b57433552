import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import type { SessionRecord } from '../../shared/model/session';
import { withSummaryDefaults, type Summary } from '../../shared/model/summary';
import { deoptCountText } from '../../shared/deoptText';
import { runClock } from '../../shared/runTime';
import { runTargetTitle } from '../../shared/runTitle';
import { Commands, TreeItemContexts, asCommand, type SessionItemArg } from '../contract';
import { runsFolderFor } from '../profile/runsFolder';
import { readSessionRecord, readSummaryRecord } from '../../core/run/runRecords';

export interface RunEntry extends SessionItemArg {
  session: SessionRecord | null;
  summary: Summary | null;
}

/** Past runs of the workspace, newest first, with their headline figures. */
export class SessionsView implements vscode.TreeDataProvider<RunEntry> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  refresh(): void {
    this.changed.fire();
  }

  getChildren(): Promise<RunEntry[]> {
    return listWorkspaceRuns();
  }

  getTreeItem(entry: RunEntry): vscode.TreeItem {
    const { session, summary } = entry;
    const item = new vscode.TreeItem(session ? runTargetTitle(session) : basename(entry.runDir));
    item.id = entry.runDir;
    item.contextValue = TreeItemContexts.Run;
    item.resourceUri = vscode.Uri.file(entry.runDir);
    item.iconPath = new vscode.ThemeIcon(iconFor(session));
    item.description = describe(session, summary);
    item.tooltip = tooltip(entry);
    item.command = asCommand(Commands.OpenSession, 'Open Report', { runDir: entry.runDir });
    return item;
  }
}

/** The runs in the workspace folders' runs folders, newest first. */
export async function listWorkspaceRuns(): Promise<RunEntry[]> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const runsFolders = [...new Set(folders.map((f) => runsFolderFor(f.uri.fsPath, f)))];
  const entries: RunEntry[] = [];
  for (const runs of runsFolders) {
    // Run folders V8 Lens made are folders: a link in their place could lead anywhere.
    const folders = (await readdir(runs, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory());
    for (const { name } of folders) entries.push(await readRun(join(runs, name)));
  }
  return entries.filter((e) => e.session !== null).sort((a, b) => (b.session!.startedAt > a.session!.startedAt ? 1 : -1));
}

export function describeRun(entry: RunEntry): string {
  return describe(entry.session, entry.summary);
}

/** Through the run folder's checks (see core/run/runFiles.ts): a workspace's runs may be anyone's. */
async function readRun(runDir: string): Promise<RunEntry> {
  const [session, summary] = await Promise.all([readSessionRecord(runDir), readSummaryRecord(runDir)]);
  return { runDir, session: session.value, summary: summary.value };
}

function iconFor(session: SessionRecord | null): string {
  switch (session?.status) {
    case 'running':
      return 'loading~spin';
    case 'crashed':
    case 'failed':
      return 'error';
    case 'cancelled':
      return 'circle-slash';
    case 'target-exited':
      return 'debug-disconnect'; // an attached process ended while we watched it
    default:
      return 'flame';
  }
}

function describe(session: SessionRecord | null, summary: Summary | null): string {
  if (!session) return '';
  const parts = [runClock(session.startedAt)];
  if (session.durationMs !== null) parts.push(`${(session.durationMs / 1000).toFixed(1)} s`);
  if (summary?.gc) parts.push(`GC ${(summary.gc.wallShare * 100).toFixed(1)}%`);
  // "deopts: not collected" for runs that did not look (npm scripts, attached, presets without them), never "0 deopts".
  if (summary) parts.push(deoptCountText(withSummaryDefaults(summary)));
  if (session.status !== 'finished' && session.status !== 'stopped') parts.push(session.status.replace('-', ' '));
  return parts.join(' · ');
}

function tooltip({ runDir, session, summary }: RunEntry): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = false; // paths and names are data
  if (session) {
    md.appendText(`${session.target.program} ${session.target.args.join(' ')}\n`);
    md.appendText(`Node ${session.node.version} · ${session.flags.preset ?? 'custom'} · ${session.status}\n`);
    if (session.flags.inheritedNodeOptions) md.appendText(`NODE_OPTIONS=${session.flags.inheritedNodeOptions}\n`);
  }
  const top = summary?.cpu?.functions.find((f) => f.url !== '');
  if (top) md.appendText(`Hottest: ${top.name} (${top.selfMs.toFixed(1)} ms self)\n`);
  if (summary?.gc) md.appendText(`GC: ${summary.gc.eventCount} events, ${summary.gc.totalPauseMs.toFixed(1)} ms paused\n`);
  md.appendText(runDir);
  return md;
}
