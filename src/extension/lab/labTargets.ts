/**
 * What the lab can sweep: targets it can start directly with its own flags (--trace-gc and the
 * size must be on Node's command line): `node` launch configurations, npm scripts that run
 * `node <script>`, and the workspace's JS files that the user has open.
 */
import { basename, extname, join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { isNodeLaunchConfig, resolveLaunchConfig, type NodeLaunchConfig } from '../../core/targets/launchConfig';
import { nodeScriptOf } from '../../core/targets/nodeCommand';
import { readNpmScripts } from '../../core/targets/npmScripts';
import type { SweepTarget } from '../../shared/model/sweep';
import { UserError } from '../../core/util/errors';
import type { LabTarget } from '../../shared/labProtocol';
import { readSetting } from '../contract';
import { targetEnvironment } from '../profile/targetPicker';

/** Where Apply writes the chosen size. */
export type ApplyPlace =
  | { kind: 'launch'; folder: string; name: string }
  | { kind: 'npm'; folder: string; script: string }
  | { kind: 'none' };

export interface ResolvableLabTarget extends LabTarget {
  resolve(): SweepTarget;
  applyTo: ApplyPlace;
}

const JS_EXTENSIONS = new Set(['.js', '.mjs', '.cjs']);

export async function listLabTargets(): Promise<ResolvableLabTarget[]> {
  const out: ResolvableLabTarget[] = [];
  const node = readSetting('nodePath') || 'node';
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const root = folder.uri.fsPath;
    const configs = vscode.workspace.getConfiguration('launch', folder.uri).get<NodeLaunchConfig[]>('configurations') ?? [];
    for (const config of configs.filter(isNodeLaunchConfig)) {
      if (!config.program || (config.runtimeExecutable && basename(config.runtimeExecutable).replace(/\.exe$/, '') !== 'node')) continue;
      const name = config.name ?? '(unnamed)';
      out.push({
        id: `launch:${root}:${name}`,
        label: `Launch config: ${name}`,
        detail: config.program,
        applyTo: { kind: 'launch', folder: root, name },
        resolve: () => {
          const base = targetEnvironment();
          const r = resolveLaunchConfig(config, { workspaceFolder: root, env: base });
          if (r.target.kind !== 'script') throw new UserError(`'${name}' does not start a script with node`);
          // Only what the configuration sets: sweep.json keeps this, and the editor's environment
          // (tokens and all) must not end up in a file.
          return { label: name, node, script: r.target.script, args: r.target.args, cwd: r.cwd, env: changedEnv(base, r.env), nodeArgs: r.extraFlags };
        },
      });
    }
    for (const script of await readNpmScripts(root)) {
      const direct = nodeScriptOf(script.command);
      if (!direct) continue;
      out.push({
        id: `npm:${root}:${script.name}`,
        label: `npm script: ${script.name}`,
        detail: script.command,
        applyTo: { kind: 'npm', folder: root, script: script.name },
        resolve: () => ({ label: `npm run ${script.name}`, node, script: resolve(root, direct.script), args: direct.args, cwd: root, env: {}, nodeArgs: direct.nodeArgs }),
      });
    }
  }
  for (const doc of vscode.workspace.textDocuments) {
    const path = doc.uri.fsPath;
    if (doc.uri.scheme !== 'file' || !JS_EXTENSIONS.has(extname(path))) continue;
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri)?.uri.fsPath ?? join(path, '..');
    out.push({
      id: `file:${path}`,
      label: `File: ${vscode.workspace.asRelativePath(path)}`,
      detail: 'an open file',
      applyTo: { kind: 'none' },
      resolve: () => ({ label: basename(path), node, script: path, args: [], cwd: folder, env: {}, nodeArgs: [] }),
    });
  }
  return out;
}

function changedEnv(base: NodeJS.ProcessEnv, env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && base[k] !== v) out[k] = v;
  return out;
}
