import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { readReportAssets, standaloneReportHtml } from '../../core/report/reportPage';
import { buildReportModel, modelForPage, type ReportModel } from '../../core/report/reportModel';
import { emptySummary } from '../../shared/model/summary';
import { UserError, errorMessage } from '../../core/util/errors';
import { parseFromReportWebview, type FromReportWebview, type LiveAttachStatus, type ToReportWebview } from '../../shared/reportProtocol';
import { Commands, WebviewPanelTypes, runCommand } from '../contract';
import { bundleWebviewOptions, createBundlePanel, setWebviewPage } from '../webviewPage';
import { namedSourceUrls } from '../../core/report/namedSources';
import { openSourceLocation } from './openSource';
import { writeErrorText, writeFileWhole } from '../../core/util/safeWrite';

/** One report panel per run folder or file; opening the same source again reveals its panel. */
export class ReportPanels implements vscode.Disposable {
  private readonly panels = new Map<string, ReportPanel>();
  private active: ReportPanel | null = null;
  private readonly opened = new vscode.EventEmitter<string>();
  /** A report was opened or revealed: the source lines show that run from now on. */
  readonly onDidOpen = this.opened.event;

  constructor(private readonly extensionUri: vscode.Uri) {}

  async open(source: string): Promise<void> {
    const existing = this.panels.get(source);
    if (existing) {
      existing.reveal();
      this.opened.fire(source);
      return;
    }
    const model = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `V8 Lens: reading ${basename(source)}` },
      () => buildReportModel(source),
    );
    const panel = new ReportPanel(this.extensionUri, model, () => {
      this.panels.delete(source);
      if (this.active === panel) this.active = null;
    }, () => (this.active = panel));
    this.panels.set(source, panel);
    this.active = panel;
    this.opened.fire(source);
  }

  /**
   * A custom editor's panel ("Open With… V8 Lens"): the report of `source` in it. It joins the
   * open reports (the source lines show its run); a file V8 Lens cannot read shows why in the panel.
   */
  async adopt(source: string, given: vscode.WebviewPanel): Promise<void> {
    let model: ReportModel;
    try {
      model = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `V8 Lens: reading ${basename(source)}` }, () => buildReportModel(source));
    } catch (err) {
      given.webview.options = { enableScripts: false };
      given.webview.html = cannotOpenHtml(basename(source), err instanceof UserError ? err.message : errorMessage(err));
      return;
    }
    const panel = new ReportPanel(this.extensionUri, model, () => {
      if (this.panels.get(source) === panel) this.panels.delete(source);
      if (this.active === panel) this.active = null;
    }, () => (this.active = panel), given);
    this.panels.set(source, panel);
    this.active = panel;
    this.opened.fire(source);
  }

  /**
   * A panel for a run still being captured (attach): live GC updates now, the finished report
   * once `finish()` has read the run folder.
   */
  openLive(source: string, title: string): LiveReport {
    const placeholder: ReportModel = {
      title,
      source,
      summary: emptySummary({ kind: 'run', path: source }),
      session: null,
      flame: null,
      gcEvents: [],
    };
    const panel = new ReportPanel(this.extensionUri, placeholder, () => {
      this.panels.delete(source);
      if (this.active === panel) this.active = null;
    }, () => (this.active = panel));
    this.panels.set(source, panel);
    this.active = panel;
    return {
      update: (model, live) => panel.showLive(model, live),
      finish: async () => {
        panel.showModel(await buildReportModel(source));
        this.opened.fire(source);
      },
      get closed() {
        return panel.closed;
      },
    };
  }

  /** The panel the user looked at last, for "Export report" from the palette. */
  get activePanel(): ReportPanel | null {
    return this.active;
  }

  dispose(): void {
    for (const panel of this.panels.values()) panel.dispose();
    this.opened.dispose();
  }
}

export interface LiveReport {
  update(model: ReportModel, live: LiveAttachStatus): void;
  /** Reads the finished run folder and shows the whole report in the same panel. */
  finish(): Promise<void>;
  readonly closed: boolean;
}

export class ReportPanel {
  private readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];
  private live: { model: ReportModel; live: LiveAttachStatus } | null = null;
  closed = false;

  constructor(
    private readonly extensionUri: vscode.Uri,
    public model: ReportModel,
    onClosed: () => void,
    onFocused: () => void,
    /** A panel VS Code made (a custom editor's); without one, a new editor panel. */
    given?: vscode.WebviewPanel,
  ) {
    if (given) {
      given.webview.options = bundleWebviewOptions(extensionUri);
      given.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'v8-lens.svg');
      setWebviewPage(given.webview, extensionUri, 'report');
    }
    this.panel = given ?? createBundlePanel(extensionUri, WebviewPanelTypes.Report, `V8 Lens: ${model.title}`, 'report');
    const webview = this.panel.webview;
    this.disposables.push(
      webview.onDidReceiveMessage((raw: unknown) => {
        const message = parseFromReportWebview(raw);
        if (message) void this.handle(message);
      }),
      this.panel.onDidChangeViewState((e) => {
        if (e.webviewPanel.active) onFocused();
      }),
      this.panel.onDidDispose(() => {
        this.closed = true;
        onClosed();
        this.dispose();
      }),
    );
  }

  reveal(): void {
    this.panel.reveal();
  }

  showLive(model: ReportModel, live: LiveAttachStatus): void {
    this.live = { model, live };
    this.model = model;
    this.post({ type: 'live', model, live });
  }

  showModel(model: ReportModel): void {
    this.live = null;
    this.model = model;
    this.post({ type: 'model', model: modelForPage(model) });
  }

  private post(message: ToReportWebview): void {
    void this.panel.webview.postMessage(message);
  }

  private async handle(message: FromReportWebview): Promise<void> {
    try {
      switch (message.type) {
        case 'ready':
          this.post(this.live ? { type: 'live', ...this.live } : { type: 'model', model: modelForPage(this.model) });
          return;
        case 'openSource':
          await openSourceLocation(message.url, message.line, message.column, this.model.source, namedSourceUrls(this.model));
          return;
        case 'exportHtml':
          await exportReport(this.extensionUri, this.model);
          return;
        case 'revealRunFolder':
          await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(this.model.source));
          return;
        case 'confirmPrediction':
          // The run is this panel's own: the page only asks, it never names a folder.
          await runCommand(Commands.ConfirmPrediction, this.model.source);
          return;
      }
    } catch (err) {
      void vscode.window.showErrorMessage(`V8 Lens: ${err instanceof UserError ? err.message : errorMessage(err)}`);
    }
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}

/** A page with one line of reason (no script: the strictest CSP), for a file the custom editor cannot read. */
function cannotOpenHtml(file: string, reason: string): string {
  const text = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"></head>` +
    `<body style="font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 16px"><h2>V8 Lens cannot open ${text(file)}</h2><p id="cannot-open">${text(reason)}</p></body></html>`;
}

/** Writes the report as one self-contained HTML file, e.g. to attach to a ticket. */
export async function exportReport(extensionUri: vscode.Uri, model: ReportModel): Promise<void> {
  const isFolder = (await stat(model.source).catch(() => null))?.isDirectory() ?? false;
  const defaultUri = vscode.Uri.file(isFolder ? join(model.source, 'report.html') : `${model.source}.html`);
  const target = await vscode.window.showSaveDialog({ defaultUri, filters: { 'HTML report': ['html'] }, title: 'V8 Lens: Export report' });
  if (!target) return;
  const assets = await readReportAssets(vscode.Uri.joinPath(extensionUri, 'dist', 'webview').fsPath);
  // Whole or not at all: a full disk leaves no page cut short, and says so in one line.
  try {
    await writeFileWhole(target.fsPath, standaloneReportHtml(model, assets));
  } catch (err) {
    void vscode.window.showErrorMessage(`V8 Lens: cannot write ${basename(target.fsPath)}: ${err instanceof UserError ? err.message : writeErrorText(err)}; nothing was written`);
    return;
  }
  const choice = await vscode.window.showInformationMessage(`V8 Lens: report written to ${basename(target.fsPath)}`, 'Reveal');
  if (choice) await vscode.commands.executeCommand('revealFileInOS', target);
}
