/**
 * The compare panel: two runs (or profiles / GC traces) side by side in one webview — a
 * differential flame graph, the GC figures with their change, and the functions that changed most.
 * One panel per pair (A, B); asking for the same pair again reveals it.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { buildCompareModel, type CompareModel } from '../../core/report/compareModel';
import { UserError, errorMessage } from '../../core/util/errors';
import { parseFromCompareWebview, type FromCompareWebview, type ToCompareWebview } from '../../shared/compareProtocol';
import { Commands, WebviewPanelTypes, runCommand, type SessionItemArg } from '../contract';
import { describeRun, listWorkspaceRuns, listWorkspaceSweeps } from '../sessions/sessionsView';
import { runTargetTitle } from '../../shared/runTitle';
import { createBundlePanel } from '../webviewPage';
import { namedSourceUrls } from '../../core/report/namedSources';
import { openSourceLocation } from './openSource';

const panels = new Map<string, ComparePanel>();
const pairKey = (base: string, other: string) => `${base}\n${other}`;

/** Opens (or reveals) the comparison of `baseDir` (A) with `otherDir` (B): run folders or single artifacts. */
export async function openComparePanel(extensionUri: vscode.Uri, baseDir: string, otherDir: string): Promise<ComparePanel> {
  const existing = panels.get(pairKey(baseDir, otherDir));
  if (existing) {
    existing.reveal();
    return existing;
  }
  const model = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `V8 Lens: comparing ${basename(baseDir)} with ${basename(otherDir)}` },
    () => buildCompareModel(baseDir, otherDir),
  );
  const panel = new ComparePanel(extensionUri, baseDir, otherDir, model);
  panels.set(pairKey(baseDir, otherDir), panel);
  return panel;
}

/** Closes every compare panel (for the extension's deactivation). */
export function disposeComparePanels(): void {
  for (const panel of [...panels.values()]) panel.dispose();
}

export class ComparePanel {
  private readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private baseDir: string,
    private otherDir: string,
    private model: CompareModel,
  ) {
    this.panel = createBundlePanel(extensionUri, WebviewPanelTypes.Compare, panelTitle(model), 'compare', { title: 'V8 Lens compare' });
    const webview = this.panel.webview;
    this.disposables.push(
      webview.onDidReceiveMessage((raw: unknown) => {
        const message = parseFromCompareWebview(raw);
        if (message) void this.handle(message);
      }),
      this.panel.onDidDispose(() => this.dispose()),
    );
  }

  reveal(): void {
    this.panel.reveal();
  }

  private post(message: ToCompareWebview): void {
    void this.panel.webview.postMessage(message);
  }

  private async handle(message: FromCompareWebview): Promise<void> {
    try {
      switch (message.type) {
        case 'ready':
          this.post({ type: 'model', model: this.model });
          return;
        case 'openSource':
          await openSourceLocation(message.url, message.line, message.column, message.side === 'base' ? this.baseDir : this.otherDir, namedSourceUrls(this.model));
          return;
        case 'openReport':
          await runCommand(Commands.OpenSession, { runDir: message.side === 'base' ? this.baseDir : this.otherDir });
          return;
        case 'swap':
          await this.swap();
          return;
      }
    } catch (err) {
      void vscode.window.showErrorMessage(`V8 Lens: ${err instanceof UserError ? err.message : errorMessage(err)}`);
    }
  }

  /** B becomes the base: the same panel shows the comparison the other way round. */
  private async swap(): Promise<void> {
    const [base, other] = [this.otherDir, this.baseDir];
    this.post({ type: 'status', text: 'Swapping A and B…' });
    let model: CompareModel;
    try {
      model = await buildCompareModel(base, other, { normalization: this.model.normalization });
    } catch (err) {
      this.post({ type: 'status', text: '' });
      throw err;
    }
    if (this.disposed) return;
    panels.delete(pairKey(this.baseDir, this.otherDir));
    [this.baseDir, this.otherDir, this.model] = [base, other, model];
    panels.set(pairKey(base, other), this);
    this.panel.title = panelTitle(model);
    this.post({ type: 'model', model });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (panels.get(pairKey(this.baseDir, this.otherDir)) === this) panels.delete(pairKey(this.baseDir, this.otherDir));
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}

function panelTitle(model: CompareModel): string {
  return `V8 Lens: ${model.base.program} ⇄ ${model.other.program}`;
}

interface RunPick extends vscode.QuickPickItem {
  source?: string;
  browse?: boolean;
}

/**
 * The "Compare Runs…" command. From the Sessions view's context menu the clicked run is A (with
 * two runs selected, those two are compared); from the palette both are picked. A quick pick
 * lists the workspace's runs, newest first, and offers any other folder or file.
 */
export async function compareRunsCommand(extensionUri: vscode.Uri, item?: SessionItemArg, selected?: readonly SessionItemArg[]): Promise<void> {
  try {
    let base: string | undefined;
    let other: string | undefined;
    if (selected && selected.length === 2) [base, other] = [selected[0]!.runDir, selected[1]!.runDir];
    else base = item?.runDir;
    base ??= await pickRun('V8 Lens: Compare runs — pick A, the base', null);
    if (!base) return;
    other ??= await pickRun(`V8 Lens: Compare ${basename(base)} (A) with… — pick B`, base);
    if (!other) return;
    if (other === base) {
      void vscode.window.showInformationMessage('V8 Lens: pick two different runs to compare.');
      return;
    }
    await openComparePanel(extensionUri, base, other);
  } catch (err) {
    void vscode.window.showErrorMessage(`V8 Lens: ${err instanceof UserError ? err.message : `cannot compare: ${errorMessage(err)}`}`);
  }
}

async function pickRun(title: string, exclude: string | null): Promise<string | undefined> {
  // The lab's runs too: comparing two settings' flame graphs is what they are kept for.
  const labRuns = (await listWorkspaceSweeps()).flatMap((s) => s.runs);
  const runs = [...(await listWorkspaceRuns()), ...labRuns].filter((r) => r.runDir !== exclude);
  const items: RunPick[] = runs.map((r) => ({
    label: r.session ? (r.session.flags.preset === 'lab' ? runTargetTitle(r.session) : basename(r.session.target.program)) : basename(r.runDir),
    description: [semiSpaceOf(r.session?.flags.semiSpaceMB ?? null), describeRun(r)].filter(Boolean).join(' · '),
    detail: r.runDir,
    source: r.runDir,
  }));
  items.push({ label: '$(folder-opened) Other run folder or file…', browse: true, alwaysShow: true });
  const picked = await vscode.window.showQuickPick(items, { title, matchOnDescription: true, matchOnDetail: true, placeHolder: runs.length === 0 ? 'No runs in this workspace yet' : 'A run of this workspace' });
  if (!picked) return undefined;
  if (!picked.browse) return picked.source;
  const uris = await vscode.window.showOpenDialog({
    title,
    canSelectFiles: true,
    canSelectFolders: true,
    canSelectMany: false,
    filters: { 'Profiles and logs': ['cpuprofile', 'log', 'txt', 'json'], 'All files': ['*'] },
  });
  return uris?.[0]?.fsPath;
}

function semiSpaceOf(mb: number | null): string {
  return mb === null ? '' : `${mb} MB semi-space`;
}
