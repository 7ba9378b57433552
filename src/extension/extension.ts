/**
 * The VS Code layer: commands, the Sessions view, report panels and source annotations over the
 * engine in src/core. Activation comes from the contributions and JS/TS files; it reads no run
 * until a file asks for its annotations.
 */
import { rm, stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { UserError, errorMessage } from '../core/util/errors';
import { Commands, OUTPUT_CHANNEL_NAME, ViewIds, registerCommand, type SessionItemArg } from './contract';
import { pickAnnotatedRun, showDeoptSites, AnnotationStatus } from './annotations/annotationCommands';
import { AttachController } from './attach/attachController';
import { AnnotationLenses } from './annotations/annotationLenses';
import { AnnotationStore } from './annotations/annotationStore';
import { LineDecorations } from './annotations/lineDecorations';
import { registerProposedContent } from './lab/applySemiSpace';
import { SemiSpaceLab } from './lab/labView';
import { pickFlags } from './profile/flagPicker';
import { pickLoad } from './profile/loadPicker';
import { RunController } from './profile/runController';
import { pickTarget } from './profile/targetPicker';
import { compareRunsCommand, disposeComparePanels } from './report/comparePanel';
import { ReportPanels, exportReport } from './report/reportPanel';
import { registerProfileEditor } from './report/profileEditor';
import { exportPprofCommand } from './report/exportPprofCommand';
import { SessionsView } from './sessions/sessionsView';
import { GitignoreOffer } from './profile/gitignoreOffer';

export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME);
  const runs = new RunController(output);
  const panels = new ReportPanels(context.extensionUri);
  const sessions = new SessionsView();
  const annotations = new AnnotationStore(context.workspaceState);
  const lab = new SemiSpaceLab(context.extensionUri, context.workspaceState, output);
  const attach = new AttachController(panels, output);
  const gitignore = new GitignoreOffer(context.workspaceState, output);
  attachForDeactivate = attach;
  const sourceFiles: vscode.DocumentSelector = ['javascript', 'typescript', 'javascriptreact', 'typescriptreact'].flatMap((language) =>
    ['file', 'vscode-remote'].map((scheme) => ({ language, scheme })),
  );

  const openReport = async (source: string) => {
    try {
      await panels.open(source);
    } catch (err) {
      void vscode.window.showErrorMessage(`V8 Lens: ${err instanceof UserError ? err.message : `cannot open ${source}: ${errorMessage(err)}`}`);
    }
  };
  const runDirOf = (item?: SessionItemArg) => item?.runDir;

  context.subscriptions.push(
    output,
    runs,
    panels,
    gitignore,
    registerProfileEditor(panels),
    // Several runs can be selected: two of them are compared directly.
    vscode.window.createTreeView(ViewIds.Sessions, { treeDataProvider: sessions, canSelectMany: true }),
    { dispose: disposeComparePanels },
    registerCommand(Commands.CompareRuns, (item, selected) => compareRunsCommand(context.extensionUri, item, selected)),
    runs.onDidChangeRuns(() => sessions.refresh()),
    annotations,
    panels.onDidOpen((source) => void annotations.show(source)),
    vscode.languages.registerCodeLensProvider(sourceFiles, new AnnotationLenses(annotations)),
    new LineDecorations(context.extensionUri, annotations),
    new AnnotationStatus(annotations),
    registerProposedContent(),
    vscode.window.registerWebviewViewProvider(ViewIds.SemiSpaceLab, lab, { webviewOptions: { retainContextWhenHidden: true } }),
    lab,

    registerCommand(Commands.Profile, async () => {
      if (!vscode.workspace.isTrusted) {
        void vscode.window.showWarningMessage('V8 Lens: profiling runs code, so it needs a trusted workspace. Opening existing reports works without trust.');
        return;
      }
      try {
        const target = await pickTarget(context.workspaceState);
        if (!target) return;
        const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(target.cwd));
        const flags = await pickFlags(folder, target.extraFlags, target.target.kind === 'command');
        if (!flags) return;
        const load = await pickLoad(context.workspaceState);
        if (load === undefined) return;
        // The app's output goes to the V8 Lens channel without taking the report's height; a failure
        // offers it (Show Output), and the palette's Output: Show Output Channels opens it anytime.
        const result = await runs.run(target, flags, folder, load ?? undefined);
        if (result) await openReport(result.layout.dir);
        if (result) void gitignore.afterRun(result.layout.dir);
      } catch (err) {
        void vscode.window.showErrorMessage(`V8 Lens: ${err instanceof UserError ? err.message : errorMessage(err)}`);
      }
    }),
    attach,
    registerCommand(Commands.Attach, async () => {
      if (!vscode.workspace.isTrusted) {
        void vscode.window.showWarningMessage('V8 Lens: attaching runs code in the target through its inspector, so it needs a trusted workspace.');
        return;
      }
      try {
        await attach.attach();
      } catch (err) {
        void vscode.window.showErrorMessage(`V8 Lens: ${err instanceof UserError ? err.message : errorMessage(err)}`);
      }
    }),
    registerCommand(Commands.StopRun, () => {
      if (!attach.stop()) runs.stop();
    }),
    registerCommand(Commands.CancelRun, () => runs.cancel()),
    registerCommand(Commands.OpenReport, async (target?: vscode.Uri) => {
      let uri = target;
      if (!uri) {
        const picked = await vscode.window.showOpenDialog({
          title: 'V8 Lens: Open a .cpuprofile, .heapprofile, pprof (.pb.gz), GC trace, V8 log or run folder',
          canSelectFiles: true,
          canSelectFolders: true,
          canSelectMany: false,
          filters: { 'Profiles and logs': ['cpuprofile', 'heapprofile', 'gz', 'pb', 'pprof', 'log', 'txt', 'json'], 'All files': ['*'] },
        });
        uri = picked?.[0];
      }
      if (uri) await openReport(uri.fsPath);
    }),
    registerCommand(Commands.ExportReport, async () => {
      const panel = panels.activePanel;
      if (!panel) {
        void vscode.window.showInformationMessage('V8 Lens: open a report first, then export it.');
        return;
      }
      await exportReport(context.extensionUri, panel.model);
    }),
    registerCommand(Commands.ExportPprof, (item?: SessionItemArg) => exportPprofCommand(item, panels.activePanel?.model.source ?? null)),
    registerCommand(Commands.RefreshSessions, () => sessions.refresh()),
    registerCommand(Commands.OpenSession, async (item) => {
      const dir = runDirOf(item);
      if (dir) await openReport(dir);
    }),
    registerCommand(Commands.RevealSession, async (item) => {
      const dir = runDirOf(item);
      if (dir) await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(dir));
    }),
    registerCommand(Commands.DeleteSession, async (item) => {
      const dir = runDirOf(item);
      if (!dir || !(await stat(dir).catch(() => null))) return;
      const answer = await vscode.window.showWarningMessage(`Delete the run folder ${dir}?`, { modal: true }, 'Delete');
      if (answer !== 'Delete') return;
      await rm(dir, { recursive: true, force: true });
      sessions.refresh();
    }),
    registerCommand(Commands.PickAnnotatedRun, () => pickAnnotatedRun(annotations, openReport)),
    registerCommand(Commands.ToggleDeoptAnnotations, () => annotations.setToggles({ deopts: !annotations.settings.deopts, enabled: true })),
    registerCommand(Commands.ToggleHeatAnnotations, () => annotations.setToggles({ heat: !annotations.settings.heat, enabled: true })),
    registerCommand(Commands.ShowDeoptSites, (uri, lens) => showDeoptSites(uri, lens, annotations)),
    registerCommand(Commands.ShowStaleAnnotations, (uri) => {
      const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri?.toString());
      if (document) annotations.showAnyway(document);
    }),
    registerCommand(Commands.ConfirmPrediction, async (runDir?: string) => {
      const source = runDir ?? panels.activePanel?.model.source;
      if (!source) {
        void vscode.window.showInformationMessage('V8 Lens: open the report of a run under load first; its prediction is what the lab confirms.');
        return;
      }
      await lab.confirmPrediction(source);
    }),
  );
  // Load the workspace's last annotated run once something is open that could show it.
  if (annotations.runSource && vscode.window.activeTextEditor) void annotations.load();
}

let attachForDeactivate: AttachController | null = null;

export async function deactivate(): Promise<void> {
  // Disposables (the run controller cancels a running target) are released by VS Code; an attached
  // target must also lose what attach installed in it, before the host goes.
  await attachForDeactivate?.detach(3000);
}
