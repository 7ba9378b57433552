/**
 * "V8 Lens: Attach and Profile…": pick a running Node process (or a debug session, or an inspector
 * address), profile it over the inspector for a while, watch its GC live in the report panel, and
 * keep the run folder like a launched run. One attachment at a time.
 */
import { basename, dirname } from 'node:path';
import * as vscode from 'vscode';
import { attachAndProfile, type AttachHandle, type AttachedGcEvent } from '../../core/attach/attachRun';
import { parseInspectorAddress, type InspectorAddress } from '../../core/attach/inspectorAddress';
import { resolveInspector, type ResolvedInspector } from '../../core/attach/inspectorDiscovery';
import { ExposedInspectorError } from '../../core/attach/inspectorExposure';
import { listLocalNodeProcesses, type LocalNodeProcess } from '../../core/attach/localNodeProcesses';
import { liveAttachModel, liveAttachStatus } from '../../core/report/liveAttachModel';
import { UserError, errorMessage } from '../../core/util/errors';
import { TOOL_VERSION } from '../../core/util/version';
import { Commands, ContextKeys, StatusBarIds, readSetting, setContext } from '../contract';
import { newRunDir, runsFolderFor } from '../profile/runsFolder';
import type { ReportPanels } from '../report/reportPanel';

type Source =
  | { kind: 'process'; process: LocalNodeProcess }
  | { kind: 'address'; address: InspectorAddress; label: string }
  | { kind: 'debugSession'; session: vscode.DebugSession };

const NODE_DEBUG_TYPES = new Set(['pwa-node', 'node', 'node-terminal', 'pwa-extensionHost']);

export class AttachController implements vscode.Disposable {
  private current: { handle: AttachHandle; timer: NodeJS.Timeout } | null = null;
  private readonly status = vscode.window.createStatusBarItem(StatusBarIds.Attach, vscode.StatusBarAlignment.Left, 100);
  private readonly sessions = new Set<vscode.DebugSession>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly panels: ReportPanels,
    private readonly output: vscode.OutputChannel,
  ) {
    this.status.name = 'V8 Lens attach';
    this.disposables.push(
      vscode.debug.onDidStartDebugSession((s) => this.sessions.add(s)),
      vscode.debug.onDidTerminateDebugSession((s) => this.sessions.delete(s)),
    );
    if (vscode.debug.activeDebugSession) this.sessions.add(vscode.debug.activeDebugSession);
  }

  get attached(): boolean {
    return this.current !== null;
  }

  /** Stop & Collect while attached: stop profiling now and keep everything. */
  stop(): boolean {
    if (!this.current) return false;
    this.current.handle.stop();
    return true;
  }

  async attach(): Promise<void> {
    if (this.current) throw new UserError('already attached: Stop & Collect first');
    const source = await this.pickSource();
    if (!source) return;
    const duration = await pickDuration();
    if (duration === undefined) return;

    const allowRemote = readSetting('attach.allowRemote');
    let webSocketUrl: string;
    let pid: number | null = null;
    let openedBySignal = false;
    let label: string;
    if (source.kind === 'debugSession') {
      const proxy = (await vscode.commands.executeCommand('extension.js-debug.requestCDPProxy', source.session.id)) as { host: string; port: number; path?: string } | undefined;
      if (!proxy) throw new UserError(`the debug session '${source.session.name}' did not give a CDP connection (is it a Node session of VS Code's JavaScript debugger?)`);
      const host = proxy.host.includes(':') ? `[${proxy.host}]` : proxy.host;
      webSocketUrl = `ws://${host}:${proxy.port}${proxy.path ?? ''}`;
      label = `debug session ${source.session.name}`;
    } else {
      const address: InspectorAddress = source.kind === 'process' ? { kind: 'pid', pid: source.process.pid } : source.address;
      let openWithSignal = false;
      if (source.kind === 'process' && source.process.inspectorPort === null) {
        openWithSignal = await confirmSignal(source.process);
        if (!openWithSignal) return;
      }
      const resolved = await resolveWithConsent(address, { allowRemote, openWithSignal });
      if (!resolved) return;
      webSocketUrl = resolved.webSocketUrl;
      pid = resolved.pid;
      openedBySignal = resolved.openedBySignal;
      label = source.kind === 'process' ? `pid ${source.process.pid}` : source.label;
    }

    const folder = vscode.workspace.workspaceFolders?.[0];
    const runDir = newRunDir(runsFolderFor(folder?.uri.fsPath, folder), `attach-${pid ?? 'session'}`);
    const events: AttachedGcEvent[] = [];
    const handle = await attachAndProfile(webSocketUrl, {
      outDir: runDir,
      durationMs: duration,
      samplingIntervalUs: readSetting('samplingIntervalUs'),
      // As the default preset does; the sampler is removed from the target when V8 Lens detaches.
      allocSamplingBytes: readSetting('allocations.samplingIntervalBytes'),
      toolVersion: TOOL_VERSION,
      viaDebugProxy: source.kind === 'debugSession',
      openedInspector: openedBySignal,
      onGcEvent: (e) => events.push(e),
    });
    pid ??= handle.pid;
    const live = this.panels.openLive(runDir, `attached to ${label}`);
    this.output.appendLine(`[V8 Lens] attached to ${label}${openedBySignal ? ' (inspector opened with SIGUSR1; it stays open until the process ends)' : ''}; run folder ${runDir}`);
    const showLive = (state: 'profiling' | 'saving') => {
      const window = { window: handle.window, elapsedMs: handle.windowElapsedMs() };
      const status = liveAttachStatus(pid, events, window, state);
      if (!live.closed) live.update(liveAttachModel(runDir, `attached to ${label}`, events, window), status);
      return status;
    };
    const tick = () => {
      const status = showLive('profiling');
      this.status.text = `$(debug-disconnect) V8 Lens: ${label} · ${status.gcEvents} GC · Stop & Collect`;
    };
    const timer = setInterval(tick, 1000);
    tick();
    this.current = { handle, timer };
    this.status.command = Commands.StopRun;
    this.status.tooltip = 'Stop profiling the attached process and open its report (the process keeps running)';
    this.status.show();
    await setContext(ContextKeys.Running, true);
    try {
      const result = await handle.done;
      clearInterval(timer);
      showLive('saving');
      await live.finish();
      if (result.status !== 'finished') {
        void vscode.window.showWarningMessage(`V8 Lens: ${result.reason ?? result.status}. What was collected is in the report.`);
      } else if (openedBySignal) {
        void vscode.window.showInformationMessage(`V8 Lens: detached from ${label}. The inspector V8 Lens opened stays open until the process ends (Node cannot close it from outside).`);
      }
    } finally {
      clearInterval(timer);
      this.current = null;
      this.status.hide();
      await setContext(ContextKeys.Running, false);
    }
  }

  private async pickSource(): Promise<Source | undefined> {
    type Item = vscode.QuickPickItem & { source?: Source; address?: true };
    const items: Item[] = [];
    for (const session of this.sessions) {
      if (!NODE_DEBUG_TYPES.has(session.type)) continue;
      items.push({ label: `$(debug) Debug session: ${session.name}`, description: 'reuses its connection', source: { kind: 'debugSession', session } });
    }
    let processes: LocalNodeProcess[] = [];
    const hidden: string[] = [];
    try {
      // Editors' helpers (tsserver, language servers) and V8 Lens's own load generator are not the app.
      processes = await listLocalNodeProcesses({ onHidden: (pid, why) => hidden.push(`${pid} (${why})`) });
      if (hidden.length > 0) this.output.appendLine(`[V8 Lens] attach: not offered, not the user's programs: ${hidden.join(', ')}`);
    } catch (err) {
      this.output.appendLine(`[V8 Lens] could not list Node processes: ${errorMessage(err)}`);
    }
    for (const p of processes.filter((proc) => !isEditorProcess(proc))) {
      items.push({
        label: `$(server-process) ${basename(p.commandLine.split(' ').find((w, i) => i > 0 && !w.startsWith('-')) ?? p.commandLine)}`,
        description: `pid ${p.pid} · ${p.inspectorPort !== null ? `inspector on port ${p.inspectorPort}` : 'no inspector (V8 Lens can open one)'}`,
        detail: p.commandLine,
        source: { kind: 'process', process: p },
      });
    }
    items.push({ label: '$(plug) Inspector address…', description: 'host:port or a ws:// URL', address: true });
    const picked = await vscode.window.showQuickPick(items, { title: 'V8 Lens: Attach to which Node process?', placeHolder: 'A process, a debug session or an address', matchOnDescription: true, matchOnDetail: true });
    if (!picked) return undefined;
    if (picked.source) return picked.source;
    const text = await vscode.window.showInputBox({
      title: 'V8 Lens: Inspector address',
      prompt: 'host:port (e.g. 127.0.0.1:9229) or the ws:// URL Node printed ("Debugger listening on …")',
      placeHolder: '127.0.0.1:9229',
      validateInput: (value) => {
        try {
          parseInspectorAddress(value);
          return undefined;
        } catch (err) {
          return err instanceof UserError ? err.message : errorMessage(err);
        }
      },
    });
    if (!text) return undefined;
    return { kind: 'address', address: parseInspectorAddress(text), label: text.trim() };
  }

  /**
   * Stops an attached run and waits (at most `timeoutMs`) until the observer is out of the target:
   * the extension host is going away. What it cannot finish, the observer's own watchdog does.
   */
  async detach(timeoutMs: number): Promise<void> {
    const current = this.current;
    if (!current) return;
    current.handle.stop();
    await Promise.race([current.handle.done.catch(() => undefined), new Promise((r) => setTimeout(r, timeoutMs))]);
  }

  dispose(): void {
    this.current?.handle.stop();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.status.dispose();
  }
}

/**
 * The editor's own Node processes (code-server, language servers, the debugger's watchdog, the
 * extension host) are not what a user profiles: leave them out of the list.
 */
function isEditorProcess(p: LocalNodeProcess): boolean {
  if (p.pid === process.pid || p.pid === process.ppid) return true;
  const roots = [vscode.env.appRoot];
  // code-server: appRoot is <code-server>/lib/vscode; its server runs from <code-server>/out.
  if (/[\\/]lib[\\/]vscode$/.test(vscode.env.appRoot)) roots.push(dirname(dirname(vscode.env.appRoot)));
  return roots.some((root) => root.length > 1 && p.commandLine.includes(root));
}

async function pickDuration(): Promise<number | null | undefined> {
  const items: Array<vscode.QuickPickItem & { ms: number | null }> = [
    { label: 'Until I stop', description: 'V8 Lens: Stop & Collect (status bar or palette)', ms: null },
    { label: '10 seconds', ms: 10_000 },
    { label: '30 seconds', ms: 30_000 },
    { label: '60 seconds', ms: 60_000 },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: 'V8 Lens: Profile for how long?' });
  return picked ? picked.ms : undefined;
}

/** SIGUSR1 opens Node's inspector, as VS Code's debugger does; it cannot be closed again from outside. */
/**
 * resolveInspector, and when the inspector is (or would be) reachable from other machines, the
 * user's explicit consent instead of the setting; undefined when they decline.
 */
async function resolveWithConsent(address: InspectorAddress, options: { allowRemote: boolean; openWithSignal: boolean }): Promise<ResolvedInspector | undefined> {
  try {
    return await resolveInspector(address, options);
  } catch (err) {
    if (!(err instanceof ExposedInspectorError) || err.when === 'opened') throw err;
    const anyway = 'Attach anyway';
    const where = err.when === 'configured' ? `would open its inspector on ${err.listening}` : `has its inspector on ${err.listening}`;
    const answer = await vscode.window.showWarningMessage(
      `${err.pid === null ? 'The target' : `pid ${err.pid}`} ${where}, not on loopback: every machine that can reach this one could run code in it.`,
      { modal: true, detail: 'The inspector has no authentication. Safer: restart it with --inspect=127.0.0.1:<port>.' },
      anyway,
    );
    return answer === anyway ? resolveInspector(address, { ...options, allowRemote: true }) : undefined;
  }
}

async function confirmSignal(p: LocalNodeProcess): Promise<boolean> {
  // The placeholder is one short question; what opening costs is on the item, where it is not cut off.
  const open = {
    label: '$(debug-start) Open its inspector (SIGUSR1) and attach',
    description: `pid ${p.pid}`,
    detail: 'It listens on loopback only, and stays open until the process ends: Node cannot close it from outside.',
  };
  const cancel = { label: '$(close) Cancel' };
  const picked = await vscode.window.showQuickPick([open, cancel], {
    title: `V8 Lens: pid ${p.pid} has no inspector open`,
    placeHolder: 'Open its inspector?',
  });
  return picked === open;
}
