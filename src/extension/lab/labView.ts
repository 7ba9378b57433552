/**
 * The Semi-space Lab in the V8 Lens sidebar: a webview view with the sweep's form, live progress
 * and the results; the sweep itself runs in the engine (src/core/sweep), its load generator in a
 * forked process. It sweeps `--max-semi-space-size` by default, or any numeric V8/Node flag the
 * form names. One sweep at a time; Cancel stops the load and the target at once.
 */
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { loadRunnerPath, preloadAgentPath } from '../../core/launcher/bundledScripts';
import { runSweep } from '../../core/sweep/runSweep';
import { readSweepFile } from '../../core/sweep/sweepFile';
import { formatSetting } from '../../shared/sweepFlags';
import { estimateSweepSeconds, labFormFromSaved, sweepConfigFromForm, sweepRunCount, type LabForm } from '../../core/sweep/sweepForm';
import { sweepFlag, sweepValues, type SweepConfig, type SweepResult } from '../../shared/model/sweep';
import { sweepConfigFromRun } from '../../core/sweep/sweepFromRun';
import { UserError, errorMessage } from '../../core/util/errors';
import { TOOL_VERSION } from '../../core/util/version';
import { parseFromLab, type FromLab, type ToLab } from '../../shared/labProtocol';
import { OUTPUT_CHANNEL_NAME, StateKeys, ViewIds, WebviewPanelTypes } from '../contract';
import { runsFolderFor } from '../profile/runsFolder';
import { setWebviewPage } from '../webviewPage';
import { targetEnvironment } from '../profile/targetPicker';
import { proposeFlagValue, writeSemiSpace, type SemiSpaceProposal } from './applySemiSpace';
import { listLabTargets, type ResolvableLabTarget } from './labTargets';
import { freeFolderIn, runFolderStamp } from '../../core/run/runFolderName';

const FORM_KEY = StateKeys.LabForm;
const LAST_SWEEP_KEY = StateKeys.LastSweep;

export class SemiSpaceLab implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | null = null;
  private readonly panels = new Set<vscode.WebviewPanel>();
  private targets: ResolvableLabTarget[] = [];
  /** `ended`: the sweep's final result is in; a partial read still under way must not replace it. */
  /** `started`: what the page was told when the sweep began, for a page that opens while it runs (Confirm reveals the view then). */
  private running: { abort: AbortController; folder: string; target: ResolvableLabTarget | null; ended: boolean; started: { runs: number; estimateSeconds: number } } | null = null;
  private last: { result: SweepResult; folder: string; target: ResolvableLabTarget | null } | null = null;
  private proposal: SemiSpaceProposal | null = null;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly state: vscode.Memento,
    private readonly output: vscode.OutputChannel,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.setupWebview(view.webview, 'lab');
    view.onDidDispose(() => (this.view = null));
  }

  private setupWebview(webview: vscode.Webview, mode: 'lab' | 'results'): void {
    webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview')] };
    setWebviewPage(webview, this.extensionUri, 'lab', { title: mode === 'lab' ? 'V8 Lens: Semi-space Lab' : 'V8 Lens: semi-space sweep', mode });
    webview.onDidReceiveMessage((raw: unknown) => {
      const message = parseFromLab(raw);
      if (message) void this.handle(message, webview);
    });
  }

  private post(message: ToLab, only?: vscode.Webview): void {
    const targets = only ? [only] : [this.view?.webview, ...[...this.panels].map((p) => p.webview)];
    for (const w of targets) if (w) void w.postMessage(message);
  }

  private async handle(message: FromLab, from: vscode.Webview): Promise<void> {
    try {
      switch (message.type) {
        case 'ready': {
          this.targets = await listLabTargets();
          // A form saved by an earlier version has `sizes` and no flag: read as a semi-space sweep's.
          const form = labFormFromSaved(this.state.get<unknown>(FORM_KEY));
          if (!this.targets.some((t) => t.id === form.targetId)) form.targetId = this.targets[0]?.id ?? '';
          this.post({ type: 'init', targets: this.targets.map(({ id, label, detail }) => ({ id, label, detail })), form, result: this.last?.result ?? (await this.lastSweep()), running: this.running !== null, trusted: vscode.workspace.isTrusted }, from);
          if (this.running) this.post({ type: 'started', ...this.running.started }, from);
          return;
        }
        case 'formChanged':
          await this.state.update(FORM_KEY, message.form);
          return;
        case 'run':
          await this.state.update(FORM_KEY, message.form);
          await this.run(message.form);
          return;
        case 'cancel':
          this.running?.abort.abort();
          return;
        case 'apply': {
          if (!this.last) throw new UserError('no sweep to apply: run one first');
          // The flag is the last sweep's, never the webview's word; the value must be one it compared.
          const flag = sweepFlag(this.last.result.config);
          if (!sweepValues(this.last.result.config).includes(message.value)) throw new UserError(`${formatSetting(flag, message.value)} was not part of the last sweep`);
          const place = this.last.target?.applyTo ?? { kind: 'none' as const };
          this.proposal = await proposeFlagValue(place, flag, message.value);
          if (this.proposal) this.post({ type: 'applyProposed', flag, value: message.value, where: this.proposal.where }, from);
          return;
        }
        case 'applyConfirm': {
          const proposal = this.proposal;
          this.proposal = null;
          if (proposal && message.write) this.post({ type: 'applied', message: await writeSemiSpace(proposal) }, from);
          else this.post({ type: 'applied', message: 'Nothing written.' }, from);
          return;
        }
        case 'openResults':
          this.openResultsPanel();
          return;
        case 'revealFolder':
          if (this.last) await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(join(this.last.folder, 'sweep.json')));
          return;
      }
    } catch (err) {
      this.post({ type: 'error', message: err instanceof UserError ? err.message : errorMessage(err) }, from);
    }
  }

  private async run(form: LabForm): Promise<void> {
    if (this.running) throw new UserError('a sweep is already running: cancel it first');
    if (!vscode.workspace.isTrusted) throw new UserError('the lab runs your code, so it needs a trusted workspace');
    this.targets = await listLabTargets();
    const target = this.targets.find((t) => t.id === form.targetId);
    if (!target) throw new UserError('pick what to run: a node launch configuration, an npm script that runs node, or an open .js file');
    await this.sweep(sweepConfigFromForm(form, target.resolve()), target);
  }

  /**
   * "Confirm in the Semi-space Lab" (the report's prediction): the lab sweeps the run's size, the
   * recommended one and one between, under the run's load (core/sweep/sweepFromRun.ts), and its
   * results show the prediction beside the measurement.
   */
  async confirmPrediction(runDir: string): Promise<void> {
    try {
      if (this.running) throw new UserError('a sweep is already running: cancel it first');
      if (!vscode.workspace.isTrusted) throw new UserError('the lab runs your code, so it needs a trusted workspace');
      const fromRun = await sweepConfigFromRun(runDir);
      await SemiSpaceLab.reveal();
      this.targets = await listLabTargets();
      const target = this.targets.find((t) => scriptOf(t) === fromRun.target.script) ?? null;
      await this.sweep(withTargetSettings(fromRun, target), target);
    } catch (err) {
      const message = err instanceof UserError ? err.message : errorMessage(err);
      this.post({ type: 'error', message });
      void vscode.window.showErrorMessage(`V8 Lens: ${message}`);
    }
  }

  private async sweep(config: SweepConfig, target: ResolvableLabTarget | null): Promise<void> {
    const workspace = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(config.target.cwd)) ?? vscode.workspace.workspaceFolders?.[0];
    const folder = freeFolderIn(join(dirname(runsFolderFor(workspace?.uri.fsPath, workspace)), 'sweeps'), runFolderStamp());
    const abort = new AbortController();
    const values = sweepValues(config);
    const runs = sweepRunCount(config);
    const started = { runs, estimateSeconds: estimateSweepSeconds(config) };
    this.running = { abort, folder, target, ended: false, started };
    this.post({ type: 'started', ...started });
    this.output.appendLine(`[${OUTPUT_CHANNEL_NAME}] sweep of ${config.target.label}: --${sweepFlag(config)} = ${values.join(', ')} × ${config.rounds} rounds${runs > values.length * config.rounds ? ` + ${values.length} profiling runs` : ''} into ${folder}`);
    try {
      const result = await runSweep(config, {
        outDir: folder,
        signal: abort.signal,
        preloadPath: preloadAgentPath(),
        loadRunnerPath: loadRunnerPath(),
        toolVersion: TOOL_VERSION,
        baseEnv: targetEnvironment(),
        onProgress: (p) => {
          if (p.type === 'output') this.output.append(p.text);
          else this.post({ type: 'progress', progress: p });
          if (p.type === 'run-end') void this.partial(folder);
        },
      });
      if (this.running) this.running.ended = true;
      this.last = { result, folder, target };
      await this.state.update(LAST_SWEEP_KEY, folder);
      this.post({ type: 'result', result, final: true });
      this.output.appendLine(`[${OUTPUT_CHANNEL_NAME}] sweep ${result.status}: ${result.recommendation.reason}`);
    } finally {
      this.running = null;
      this.post({ type: 'stopped' });
    }
  }

  /** The figures so far (sweep.json is rewritten after every run). */
  private async partial(folder: string): Promise<void> {
    const result = await readSweep(folder);
    // The last run's read of sweep.json can come back after the final result (an interim status in it).
    if (result && this.running?.folder === folder && !this.running.ended) {
      this.last = { result, folder, target: this.running.target };
      this.post({ type: 'result', result, final: false });
    }
  }

  private async lastSweep(): Promise<SweepResult | null> {
    const folder = this.state.get<string>(LAST_SWEEP_KEY);
    if (!folder) return null;
    const result = await readSweep(folder);
    if (result) {
      this.targets = this.targets.length ? this.targets : await listLabTargets();
      this.last = { result, folder, target: this.targets.find((t) => scriptOf(t) === result.config.target.script) ?? null };
    }
    return result;
  }

  /** The results in an editor panel: the same webview, wider, without the form. */
  private openResultsPanel(): void {
    const flag = this.last ? sweepFlag(this.last.result.config) : 'max-semi-space-size';
    const panel = vscode.window.createWebviewPanel(WebviewPanelTypes.SweepResults, `V8 Lens: --${flag} sweep`, vscode.ViewColumn.Active, { enableScripts: true, retainContextWhenHidden: true });
    this.panels.add(panel);
    panel.onDidDispose(() => this.panels.delete(panel));
    this.setupWebview(panel.webview, 'results');
  }

  /** For the E2E harness and the palette: reveal the view. */
  static async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${ViewIds.SemiSpaceLab}.focus`);
  }

  dispose(): void {
    this.running?.abort.abort();
    for (const p of this.panels) p.dispose();
  }
}

/**
 * The run's sweep with what the workspace knows of its target and the run does not keep: a launch
 * configuration's environment (PORT) and runtime arguments, the semi-space flags left to the sweep.
 */
function withTargetSettings(config: SweepConfig, target: ResolvableLabTarget | null): SweepConfig {
  if (!target) return config;
  let resolved: SweepConfig['target'];
  try {
    resolved = target.resolve();
  } catch {
    return config;
  }
  const own = resolved.nodeArgs.filter((a) => !/^--(max|min)[-_]semi[-_]space[-_]size\b/.test(a) && !config.target.nodeArgs.includes(a));
  return { ...config, target: { ...config.target, env: { ...resolved.env, ...config.target.env }, nodeArgs: [...config.target.nodeArgs, ...own] } };
}

function scriptOf(target: ResolvableLabTarget): string | null {
  try {
    return target.resolve().script;
  } catch {
    return null; // e.g. a launch configuration that no longer resolves
  }
}

/** sweep.json of any version, in today's shape (flag, values, Mark-Compact and failed-request figures); null when unusable. */
async function readSweep(folder: string): Promise<SweepResult | null> {
  return (await readSweepFile(folder)).value;
}
