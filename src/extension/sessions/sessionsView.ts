import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { SessionRecord } from '../../shared/model/session';
import { withSummaryDefaults, type Summary } from '../../shared/model/summary';
import { deoptCountText } from '../../shared/deoptText';
import { selfCheckGaps } from '../../shared/selfCheckText';
import { runClock } from '../../shared/runTime';
import { loadedPath, runTargetTitle } from '../../shared/runTitle';
import { Commands, TreeItemContexts, asCommand, type SessionItemArg } from '../contract';
import { runsFolderFor } from '../profile/runsFolder';
import { readSessionRecord, readSummaryRecord } from '../../core/run/runRecords';
import { readSweepFile } from '../../core/sweep/sweepFile';

export interface RunEntry extends SessionItemArg {
  session: SessionRecord | null;
  summary: Summary | null;
}

/** A Semi-space Lab sweep: its runs are run folders like any other, listed under it. */
export interface SweepEntry {
  sweepDir: string;
  title: string;
  startedAt: string;
  runs: RunEntry[];
}

type SessionNode = RunEntry | SweepEntry;

const isSweep = (node: SessionNode): node is SweepEntry => 'sweepDir' in node;

/** Past runs and lab sweeps of the workspace, newest first, with their headline figures. */
export class SessionsView implements vscode.TreeDataProvider<SessionNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  refresh(): void {
    this.changed.fire();
  }

  async getChildren(parent?: SessionNode): Promise<SessionNode[]> {
    if (parent) return isSweep(parent) ? parent.runs : [];
    const [runs, sweeps] = await Promise.all([listWorkspaceRuns(), listWorkspaceSweeps()]);
    const startOf = (n: SessionNode) => (isSweep(n) ? n.startedAt : n.session!.startedAt);
    return [...runs, ...sweeps].sort((a, b) => (startOf(b) > startOf(a) ? 1 : -1));
  }

  getTreeItem(node: SessionNode): vscode.TreeItem {
    if (isSweep(node)) {
      const item = new vscode.TreeItem(node.title, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = node.sweepDir;
      item.iconPath = new vscode.ThemeIcon('beaker');
      item.description = `${runClock(node.startedAt)} · ${node.runs.length} run${node.runs.length === 1 ? '' : 's'}`;
      item.tooltip = `${node.title}\nEach run is a run folder: open it as a report, or select two and Compare Runs.\n${node.sweepDir}`;
      return item;
    }
    const entry = node;
    const { session, summary } = entry;
    // Under its sweep, a lab run is named by its setting alone ("max-semi-space-size=64 MB · round 1").
    const title = session ? runTargetTitle(session) : basename(entry.runDir);
    const item = new vscode.TreeItem(session?.flags.preset === 'lab' ? title.split(' · ').slice(1).join(' · ') || title : title);
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

/** The lab's sweeps in the workspace (`.v8-lens/sweeps/<time>`), each with the runs that left a session.json. */
export async function listWorkspaceSweeps(): Promise<SweepEntry[]> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const sweepsFolders = [...new Set(folders.map((f) => join(dirname(runsFolderFor(f.uri.fsPath, f)), 'sweeps')))];
  const sweeps: SweepEntry[] = [];
  for (const folder of sweepsFolders) {
    for (const { name } of (await readdir(folder, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory())) {
      const sweepDir = join(folder, name);
      const runs = await listLabRuns(sweepDir);
      if (runs.length === 0) continue;
      const sweep = (await readSweepFile(sweepDir)).value;
      // Each run's name says its setting ("server.js · max-semi-space-size=64 MB · round 1").
      const settings = runs.map((r) => /^(.+)=([\d.]+)( MB)?$/.exec(r.session!.target.name?.split(' · ')[1] ?? '')).filter((m) => m !== null);
      const values = [...new Set(settings.map((m) => m[2]))];
      const swept = settings[0] ? ` · ${settings[0][1]} ${values.join(', ')}${settings[0][3] ?? ''}` : '';
      const title = `Lab: ${sweep?.config.target.label ?? runTargetTitle(runs[0]!.session!)}${swept}`;
      sweeps.push({ sweepDir, title, startedAt: sweep?.startedAt ?? runs[0]!.session!.startedAt, runs });
    }
  }
  return sweeps;
}

/** A sweep's run folders (runs/NN-…), in run order: older sweeps kept no session.json and list none. */
export async function listLabRuns(sweepDir: string): Promise<RunEntry[]> {
  const runsDir = join(sweepDir, 'runs');
  const names = (await readdir(runsDir, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const entries = await Promise.all(names.map((name) => readRun(join(runsDir, name))));
  return entries.filter((e) => e.session !== null);
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
  // Under load: which URL, so a /hash run and a /price run of the same service look apart.
  if (summary?.load) parts.push(`GET ${loadedPath(summary.load.url)}`);
  if (session.durationMs !== null) parts.push(`${(session.durationMs / 1000).toFixed(1)} s`);
  if (summary?.gc) parts.push(`GC ${(summary.gc.wallShare * 100).toFixed(1)}%`);
  // "deopts: not collected" for runs that did not look (npm scripts, attached, presets without them), never "0 deopts".
  if (summary) parts.push(deoptCountText(withSummaryDefaults(summary)));
  // V8 wrote what V8 Lens could not read: the figures beside it are short (the tooltip says by how much).
  if (selfCheckGaps(summary?.selfCheck).length > 0) parts.push('⚠ not all read');
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
  if (summary?.load) md.appendText(`Under load: ${summary.load.url} (${summary.load.connections} connections)\n`);
  const top = summary?.cpu?.functions.find((f) => f.url !== '');
  if (top) md.appendText(`Hottest: ${top.name} (${top.selfMs.toFixed(1)} ms self)\n`);
  if (summary?.gc) md.appendText(`GC: ${summary.gc.eventCount} events, ${summary.gc.totalPauseMs.toFixed(1)} ms paused\n`);
  for (const gap of selfCheckGaps(summary?.selfCheck)) md.appendText(`⚠ ${gap.text}\n`);
  md.appendText(runDir);
  return md;
}
