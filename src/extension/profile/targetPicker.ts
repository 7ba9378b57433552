import { existsSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import * as vscode from 'vscode';
import type { ProfileTarget } from '../../core/targets/profileTarget';
import { isNodeLaunchConfig, resolveLaunchConfig, type NodeLaunchConfig } from '../../core/targets/launchConfig';
import { splitCommandLine } from '../../core/targets/commandLine';
import { directLaunchOf } from '../../core/targets/npmLaunch';
import { readNpmScripts, type NpmScript } from '../../core/targets/npmScripts';
import { StateKeys } from '../contract';

/** What the user chose to profile, resolved to what the engine starts. */
export interface PickedTarget {
  label: string;
  target: ProfileTarget;
  cwd: string;
  env: NodeJS.ProcessEnv;
  extraFlags: string[];
  /** How to find the same choice again next time. */
  memento: TargetMemento;
}

type TargetMemento =
  | { kind: 'file'; path: string }
  | { kind: 'npm'; folder: string; script: string }
  | { kind: 'launch'; folder: string; name: string }
  | { kind: 'command'; folder: string; line: string };

interface TargetItem extends vscode.QuickPickItem {
  resolve(): Promise<PickedTarget | undefined>;
  memento?: TargetMemento;
}

const JS_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts']);

/** "What to profile": the active file, npm scripts, Node launch configurations, or a command line. */
export async function pickTarget(state: vscode.Memento): Promise<PickedTarget | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const items: TargetItem[] = [];
  const editor = vscode.window.activeTextEditor?.document;
  if (editor && editor.uri.scheme === 'file' && JS_EXTENSIONS.has(extname(editor.uri.fsPath))) {
    const path = editor.uri.fsPath;
    const memento: TargetMemento = { kind: 'file', path };
    items.push({ label: `$(file-code) Active file: ${basename(path)}`, description: vscode.workspace.asRelativePath(path), memento, resolve: async () => fileTarget(path, memento) });
  }
  for (const folder of folders) {
    for (const script of await readNpmScripts(folder.uri.fsPath)) {
      const memento: TargetMemento = { kind: 'npm', folder: folder.uri.fsPath, script: script.name };
      // Said before anything starts: npm starts Node itself, so deopts (which need flags NODE_OPTIONS refuses) are out of reach.
      const runsAFile = directLaunchOf(script.name, script.command, script.folder) !== null;
      const caveat = runsAFile ? 'runs a file: V8 Lens can start it directly, with deopts' : 'through npm: CPU, GC and allocations of every thread; deopts need a direct launch';
      items.push({
        label: `$(package) npm script: ${script.name}`,
        description: script.command,
        detail: folders.length > 1 ? `${folder.name} · ${caveat}` : caveat,
        memento,
        resolve: () => npmTarget(script, memento),
      });
    }
    const configs = vscode.workspace.getConfiguration('launch', folder.uri).get<NodeLaunchConfig[]>('configurations') ?? [];
    for (const config of configs.filter(isNodeLaunchConfig)) {
      const name = config.name ?? '(unnamed)';
      const memento: TargetMemento = { kind: 'launch', folder: folder.uri.fsPath, name };
      items.push({ label: `$(debug-alt) Launch config: ${name}`, description: config.program ?? config.runtimeExecutable ?? '', memento, resolve: async () => launchTarget(config, folder.uri.fsPath, memento) });
    }
  }
  items.push({ label: '$(terminal) Command line…', description: 'a script and its arguments, or any command that starts Node', resolve: () => commandLineTarget(folders[0]?.uri.fsPath) });

  // The last choice first, so profiling the same thing again is two Enters.
  const last = state.get<TargetMemento>(StateKeys.LastTarget);
  const lastIndex = last ? items.findIndex((i) => i.memento && JSON.stringify(i.memento) === JSON.stringify(last)) : -1;
  if (lastIndex > 0) items.unshift(...items.splice(lastIndex, 1));
  if (lastIndex >= 0) items[0]!.detail = 'last used';

  const picked = await vscode.window.showQuickPick(items, { title: 'V8 Lens: What to profile', placeHolder: 'A file, npm script, launch configuration or command', matchOnDescription: true });
  if (!picked) return undefined;
  const resolved = await picked.resolve();
  if (resolved) await state.update(StateKeys.LastTarget, resolved.memento);
  return resolved;
}

/**
 * An npm script. When it only runs `node [flags] file.js`, offer to start that file directly (CPU,
 * GC and deopts) instead of through npm (CPU and GC: NODE_OPTIONS refuses the deopt flags).
 */
async function npmTarget(script: NpmScript, memento: TargetMemento): Promise<PickedTarget | undefined> {
  const throughNpm: PickedTarget = { label: `npm run ${script.name}`, target: { kind: 'command', command: 'npm', args: ['run', script.name] }, cwd: script.folder, env: targetEnvironment(), extraFlags: [], memento };
  const direct = directLaunchOf(script.name, script.command, script.folder);
  if (!direct) return throughNpm;
  const file = vscode.workspace.asRelativePath(direct.script);
  const items: Array<vscode.QuickPickItem & { target: PickedTarget }> = [
    {
      label: `$(file-code) node ${file} directly`,
      description: 'CPU profile, GC trace and deopts',
      detail: `The file the script runs, started by V8 Lens${direct.nodeArgs.length > 0 ? ` with the script's flags ${direct.nodeArgs.join(' ')}` : ''} in ${basename(script.folder)}`,
      target: { label: basename(direct.script), target: { kind: 'script', script: direct.script, args: direct.args }, cwd: script.folder, env: targetEnvironment(), extraFlags: direct.nodeArgs, memento },
    },
    { label: `$(package) npm run ${script.name}`, description: 'through npm: CPU profile and GC trace; deopts need a direct launch', target: throughNpm },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: `V8 Lens: "npm run ${script.name}" runs "${script.command}"`,
    placeHolder: 'Deopts need a direct launch: start the file directly?',
  });
  return picked?.target;
}

function fileTarget(path: string, memento: TargetMemento): PickedTarget {
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(path))?.uri.fsPath ?? join(path, '..');
  return { label: basename(path), target: { kind: 'script', script: path, args: [] }, cwd: folder, env: targetEnvironment(), extraFlags: [], memento };
}

function launchTarget(config: NodeLaunchConfig, folder: string, memento: TargetMemento): PickedTarget {
  const active = vscode.window.activeTextEditor?.document.uri;
  const resolved = resolveLaunchConfig(config, { workspaceFolder: folder, file: active?.scheme === 'file' ? active.fsPath : undefined, env: targetEnvironment() });
  return { label: config.name ?? 'launch configuration', ...resolved, memento };
}

async function commandLineTarget(folder: string | undefined): Promise<PickedTarget | undefined> {
  const line = await vscode.window.showInputBox({
    title: 'V8 Lens: Command line to profile',
    prompt: 'A script with its arguments (app.js --port 3000), or a command that starts Node (npm run start). No shell: quotes group words, nothing else is interpreted.',
    placeHolder: 'app.js --port 3000',
    validateInput: (text) => (splitCommandLine(text).length === 0 ? 'Type a script or a command' : undefined),
  });
  if (!line) return undefined;
  const [first, ...args] = splitCommandLine(line);
  const cwd = folder ?? process.cwd();
  const memento: TargetMemento = { kind: 'command', folder: cwd, line };
  const isScript = JS_EXTENSIONS.has(extname(first!)) || existsSync(join(cwd, first!));
  const target: ProfileTarget = isScript ? { kind: 'script', script: first!, args } : { kind: 'command', command: first!, args };
  return { label: line, target, cwd, env: targetEnvironment(), extraFlags: [], memento };
}

/**
 * The editor's environment minus what belongs to the editor itself (VS Code's IPC hooks, Electron's
 * run-as-Node switch), which would otherwise leak into the user's program and its children.
 */
export function targetEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('VSCODE_') || key.startsWith('ELECTRON_')) delete env[key];
  return env;
}
