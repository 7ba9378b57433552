import * as vscode from 'vscode';
import type { RunLoadOptions } from '../../core/capture/runLoad';
import { ProfileRun, type AppOutput, type ProfileRequest, type RunResult } from '../../core/capture/profileRun';
import { noSurvivorsPassReason, startSurvivorsPass, survivorsPassRequest, withSurvivors } from '../../core/capture/survivorsPass';
import { UserError, errorMessage } from '../../core/util/errors';
import { selfCheckGaps } from '../../shared/selfCheckText';
import { Commands, ContextKeys, StatusBarIds, readSetting, setContext } from '../contract';
import type { PickedFlags } from './flagPicker';
import { applyRetention, newRunDir, runsFolderFor } from './runsFolder';
import type { PickedTarget } from './targetPicker';

/**
 * Runs one profiled target at a time: progress with elapsed time and live GC counts, the app's own
 * output in the output channel unchanged, Stop & Collect (graceful, keeps the profile) and Cancel.
 */
export class RunController implements vscode.Disposable {
  private current: ProfileRun | null = null;
  /** The user stopped or cancelled the current run (then a load cut short is no surprise). */
  private stopAsked = false;
  private readonly status = vscode.window.createStatusBarItem(StatusBarIds.Run, vscode.StatusBarAlignment.Left, 100);
  private readonly changed = new vscode.EventEmitter<void>();
  /** A run started or ended (the Sessions view shows running runs too). */
  readonly onDidChangeRuns = this.changed.event;

  constructor(private readonly output: vscode.OutputChannel) {
    this.status.name = 'V8 Lens run';
    this.status.command = Commands.StopRun;
  }

  get running(): boolean {
    return this.current !== null;
  }

  stop(): void {
    if (this.current) this.stopAsked = true;
    this.current?.stop();
  }

  cancel(): void {
    if (this.current) this.stopAsked = true;
    this.current?.cancel();
  }

  /** Resolves with the finished run, or undefined when it could not start (the reason was shown). */
  async run(target: PickedTarget, flags: PickedFlags, folder: vscode.WorkspaceFolder | undefined, load?: RunLoadOptions): Promise<RunResult | undefined> {
    if (this.current) {
      void vscode.window.showWarningMessage('V8 Lens is already profiling a program: stop it first (V8 Lens: Stop & Collect).');
      return undefined;
    }
    const runsFolder = runsFolderFor(folder?.uri.fsPath ?? target.cwd, folder);
    const runDir = newRunDir(runsFolder, target.label);
    this.output.appendLine(`[V8 Lens] profiling ${target.label} (${flags.preset}) into ${runDir}`);
    let run: ProfileRun;
    const request: ProfileRequest = {
      target: target.target,
      cwd: target.cwd,
      env: target.env,
      node: readSetting('nodePath', folder),
      preset: flags.preset,
      // The target's own flags (launch.json runtimeArgs) are already in them: pickFlags shows them.
      options: flags.options,
      runDir,
      timeoutS: null,
      stopGraceMs: readSetting('stopGraceSeconds', folder) * 1000,
      load,
      name: target.label,
    };
    const appOutput: AppOutput = {
      stdout: (text) => {
        this.output.append(text);
        return true; // the output channel buffers in the renderer; there is no backpressure to give
      },
      whenDrained: async () => undefined,
      stderr: (text) => this.output.append(text),
    };
    // Survivors take a second run of the same program (V8 runs one sampling profiler per process).
    const survivors = flags.options.capture.alloc && readSetting('allocations.survivors', folder);
    try {
      run = await ProfileRun.start(request, appOutput);
    } catch (err) {
      this.showFailure(err instanceof UserError ? err.message : `could not start: ${errorMessage(err)}`);
      return undefined;
    }

    this.current = run;
    this.stopAsked = false;
    void setContext(ContextKeys.Running, true);
    this.status.show();
    this.changed.fire();
    try {
      return await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `V8 Lens: profiling ${target.label}`, cancellable: true },
        async (progress, token) => {
          token.onCancellationRequested(() => this.cancel());
          let pass = '';
          const tick = () => {
            const text = `${pass}${describeProgress(this.current ?? run)}`;
            // The toast's own button is Cancel; the graceful stop lives in the status bar and the palette.
            progress.report({ message: `${text} · Cancel kills it; Stop & Collect in the status bar stops it and keeps the profile` });
            this.status.text = `$(debug-stop) V8 Lens: ${text}`;
            this.status.tooltip = 'Stop & Collect: stop the program gracefully and open its report';
          };
          tick();
          const timer = setInterval(tick, 1000);
          try {
            let result = await run.done;
            if (survivors) {
              pass = 'survivors pass · ';
              result = await this.survivorsPass(request, result, appOutput);
            }
            await applyRetention(runsFolder, readSetting('retention', folder)).catch(() => undefined);
            this.report(result);
            return result;
          } finally {
            clearInterval(timer);
          }
        },
      );
    } finally {
      this.current = null;
      this.status.hide();
      void setContext(ContextKeys.Running, false);
      this.changed.fire();
    }
  }

  /** The survivors pass after `first` (capture/survivorsPass.ts): Stop & Collect and Cancel act on it as on the run. */
  private async survivorsPass(request: ProfileRequest, first: RunResult, output: AppOutput): Promise<RunResult> {
    const passRequest = survivorsPassRequest(request, first);
    if (passRequest === null) return withSurvivors(first, null, noSurvivorsPassReason(first));
    this.output.appendLine(`[V8 Lens] survivors pass: running ${request.name ?? 'the program'} again, sampling only what no young GC frees, into ${passRequest.runDir}`);
    let pass: ProfileRun;
    try {
      pass = await startSurvivorsPass(passRequest, output);
    } catch (err) {
      return withSurvivors(first, null, `survivors: the survivors pass could not start: ${err instanceof UserError ? err.message : errorMessage(err)}`);
    }
    this.current = pass;
    this.stopAsked = false;
    return withSurvivors(first, await pass.done, null);
  }

  private report(result: RunResult): void {
    this.output.appendLine(`[V8 Lens] run ${result.outcome}: ${result.layout.dir}`);
    for (const w of result.summary.warnings) this.output.appendLine(`[V8 Lens] note: ${w}`);
    const load = result.summary.load;
    if (result.problem) {
      const tail = result.session.stderrTail.filter((l) => !/^\s+at /.test(l)).slice(-1)[0];
      this.showFailure(`${result.problem}${tail ? `: ${tail.trim()}` : ''}. What was collected is shown.`);
    } else if (load && !load.figures && !this.stopAsked) {
      // E.g. a URL that answered 404 to every warm-up request: the run stopped before measuring.
      this.showFailure(`load: ${load.error ?? 'nothing was measured'}. What was collected is shown.`);
    }
    // What V8 wrote that V8 Lens could not read: the figures are short, and the user must know.
    const gaps = selfCheckGaps(result.summary.selfCheck);
    for (const gap of gaps) this.output.appendLine(`[V8 Lens] WARNING: ${gap.text}`);
    if (gaps.length > 0) {
      void vscode.window.showWarningMessage(`V8 Lens: ${gaps.map((g) => g.text).join('. ')}. The report's figures leave out what was not read.`, 'Show Output').then((choice) => {
        if (choice) this.output.show(true);
      });
    }
  }

  private showFailure(message: string): void {
    void vscode.window.showErrorMessage(`V8 Lens: ${message}`, 'Show Output').then((choice) => {
      if (choice) this.output.show(true);
    });
  }

  dispose(): void {
    this.current?.cancel();
    this.status.dispose();
    this.changed.dispose();
  }
}

function describeProgress(run: ProfileRun): string {
  const { elapsedMs, gcCounts, gcPauseMs, gcUnread, loadRps } = run.progress();
  const seconds = Math.floor(elapsedMs / 1000);
  const clock = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  const counts = Object.entries(gcCounts)
    .map(([type, n]) => `${n} ${type === 'Scavenge' ? 'scavenges' : type}`)
    .join(', ');
  const load = loadRps !== null ? ` · ${Math.round(loadRps).toLocaleString('en-US')} req/s` : '';
  // Lines V8 printed that could not be read: the counts beside them are short.
  const unread = gcUnread > 0 ? ` · ⚠ ${gcUnread} GC lines not read` : '';
  return `${clock}${load} · ${counts || 'no GC yet'}${gcPauseMs > 0 ? ` · ${gcPauseMs.toFixed(0)} ms paused` : ''}${unread}`;
}
