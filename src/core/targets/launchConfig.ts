import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import type { ProfileTarget } from './profileTarget';
import { UserError } from '../util/errors';

/** The fields of a `.vscode/launch.json` Node configuration that say how to start the program. */
export interface NodeLaunchConfig {
  type?: string;
  request?: string;
  name?: string;
  program?: string;
  args?: string[] | string;
  runtimeArgs?: string[];
  runtimeExecutable?: string;
  cwd?: string;
  env?: Record<string, string | null>;
}

export interface LaunchConfigContext {
  workspaceFolder: string;
  /** The active editor's file, for `${file}`. */
  file?: string;
  env: NodeJS.ProcessEnv;
}

export interface ResolvedLaunch {
  target: ProfileTarget;
  cwd: string;
  /** The environment for the target: ours plus the configuration's (`null` removes a variable). */
  env: NodeJS.ProcessEnv;
  /** `runtimeArgs` of a plain `node` launch: V8/Node flags, validated like any extra flag. */
  extraFlags: string[];
}

export function isNodeLaunchConfig(config: NodeLaunchConfig): boolean {
  return (config.type === 'node' || config.type === 'pwa-node') && config.request === 'launch';
}

/**
 * Turns a launch configuration into what V8 Lens starts. `program` with the default runtime is a
 * direct launch; a `runtimeExecutable` such as `npm` is started as a command with the flags in
 * NODE_OPTIONS (its runtimeArgs are then its arguments, e.g. `run start`).
 */
export function resolveLaunchConfig(config: NodeLaunchConfig, context: LaunchConfigContext): ResolvedLaunch {
  const name = config.name ?? 'launch configuration';
  if (!isNodeLaunchConfig(config)) throw new UserError(`'${name}' is not a Node launch configuration (type "node", request "launch")`);
  const sub = (value: string) => substituteVariables(value, context, name);
  const cwd = config.cwd ? resolve(context.workspaceFolder, sub(config.cwd)) : context.workspaceFolder;
  const args = (typeof config.args === 'string' ? config.args.split(/\s+/).filter(Boolean) : config.args ?? []).map(sub);
  const runtimeArgs = (config.runtimeArgs ?? []).map(sub);
  const env: NodeJS.ProcessEnv = { ...context.env };
  for (const [key, value] of Object.entries(config.env ?? {})) {
    if (value === null) delete env[key];
    else env[key] = sub(value);
  }

  const runtime = config.runtimeExecutable ? sub(config.runtimeExecutable) : 'node';
  if (basename(runtime).replace(/\.exe$/, '') !== 'node') {
    return { target: { kind: 'command', command: runtime, args: [...runtimeArgs, ...(config.program ? [resolve(cwd, sub(config.program))] : []), ...args] }, cwd, env, extraFlags: [] };
  }
  if (!config.program) throw new UserError(`'${name}' has no "program" to profile`);
  const program = sub(config.program);
  return { target: { kind: 'script', script: isAbsolute(program) ? program : resolve(cwd, program), args }, cwd, env, extraFlags: runtimeArgs };
}

const VARIABLE = /\$\{([^}]+)\}/g;

/** The launch.json variables a profile target needs; anything else is named in a clear error. */
export function substituteVariables(value: string, context: LaunchConfigContext, configName: string): string {
  return value.replace(VARIABLE, (whole, variable: string) => {
    if (variable === 'workspaceFolder' || variable === 'workspaceRoot') return context.workspaceFolder;
    if (variable === 'workspaceFolderBasename') return basename(context.workspaceFolder);
    if (variable === 'userHome') return homedir();
    if (variable === 'pathSeparator' || variable === '/') return process.platform === 'win32' ? '\\' : '/';
    if (variable.startsWith('env:')) return context.env[variable.slice(4)] ?? '';
    if (variable === 'file' || variable === 'fileDirname' || variable === 'fileBasename' || variable === 'relativeFile') {
      if (!context.file) throw new UserError(`'${configName}' uses ${whole}, but no file is open`);
      if (variable === 'file') return context.file;
      if (variable === 'fileDirname') return dirname(context.file);
      if (variable === 'fileBasename') return basename(context.file);
      return context.file.startsWith(context.workspaceFolder) ? context.file.slice(context.workspaceFolder.length + 1) : context.file;
    }
    throw new UserError(`'${configName}' uses ${whole}, which V8 Lens cannot resolve; use a plain path there`);
  });
}
