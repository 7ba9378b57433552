/**
 * What a target started through npm (or any command that starts Node itself) can collect, said
 * before it starts; and, when the npm script only runs `node [flags] file.js`, the direct launch of
 * that file, which collects deopts too.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { CaptureSet } from '../flags/presets';
import { nodeScriptOf } from './nodeCommand';
import { readNpmScripts } from './npmScripts';

/** `npm run <name> [-- args]`, `npm run-script <name>`, `npm start|test|stop|restart [-- args]`. */
export interface NpmScriptCall {
  name: string;
  /** What npm appends to the script (after `--`). */
  extraArgs: string[];
}

const LIFECYCLE_SCRIPTS = new Set(['start', 'test', 't', 'stop', 'restart']);

export function npmScriptCall(command: string, args: readonly string[]): NpmScriptCall | null {
  if (basename(command).replace(/\.(cmd|exe)$/i, '') !== 'npm') return null;
  const dashDash = args.indexOf('--');
  const own = dashDash === -1 ? [...args] : args.slice(0, dashDash);
  const extraArgs = dashDash === -1 ? [] : args.slice(dashDash + 1);
  // npm's own options (--silent, --prefix=x) may come anywhere before `--`; a script name never starts with '-'.
  const words = own.filter((w) => !w.startsWith('-'));
  const [verb, name] = words;
  if (verb === 'run' || verb === 'run-script') return name ? { name, extraArgs } : null;
  if (verb !== undefined && LIFECYCLE_SCRIPTS.has(verb)) return { name: verb === 't' ? 'test' : verb, extraArgs };
  return null;
}

/** The file an npm script runs with plain `node`, ready for a direct launch. */
export interface DirectLaunchOfScript {
  /** The npm script's name and its command, as in package.json. */
  scriptName: string;
  scriptCommand: string;
  /** Absolute path of the file. */
  script: string;
  args: string[];
  /** Node's own flags from the script (`node --max-old-space-size=512 app.js`): kept for the direct launch. */
  nodeArgs: string[];
  /** The folder of the package.json (npm runs its scripts there). */
  folder: string;
}

/**
 * When the npm script is `node [flags] file.js [args]`, that file's direct launch; null for anything
 * else (a framework CLI, `&&`, environment assignments). npm looks for package.json from `cwd` up.
 */
export async function directLaunchOfNpmScript(cwd: string, call: NpmScriptCall): Promise<DirectLaunchOfScript | null> {
  const folder = packageFolder(cwd);
  if (folder === null) return null;
  const script = (await readNpmScripts(folder)).find((s) => s.name === call.name);
  return script ? directLaunchOf(script.name, script.command, folder, call.extraArgs) : null;
}

/** The same for a script already read from package.json (the editor lists them). */
export function directLaunchOf(scriptName: string, scriptCommand: string, folder: string, extraArgs: readonly string[] = []): DirectLaunchOfScript | null {
  const parsed = nodeScriptOf(scriptCommand);
  if (!parsed) return null;
  return { scriptName, scriptCommand, script: resolve(folder, parsed.script), args: [...parsed.args, ...extraArgs], nodeArgs: parsed.nodeArgs, folder };
}

function packageFolder(from: string): string | null {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** "the CPU profile, the GC trace and the allocations" for what a NODE_OPTIONS launch of this capture set collects. */
export function collectedThroughNodeOptions(capture: CaptureSet): string {
  const parts = [capture.cpu ? 'the CPU profile' : '', capture.gc ? 'the GC trace' : '', capture.alloc ? 'the allocations' : ''].filter(Boolean);
  if (parts.length === 0) return 'nothing';
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/**
 * One line before a NODE_OPTIONS launch starts: what it collects (in every thread: the agent takes
 * each worker's CPU profile in-process), what it misses, and that deopts need a direct launch when
 * they were asked for. `what` names the target ("npm run start").
 */
export function nodeOptionsLaunchNotice(what: string, capture: CaptureSet): string {
  const collected = collectedThroughNodeOptions(capture);
  const collects = `this run collects ${collected}${collected === 'nothing' ? '' : ' of every thread'}`;
  // An in-process profile is written by the thread's agent; a worker the app terminates gives it no
  // chance (at the process's exit or a stop, V8 Lens has the workers write theirs first).
  const terminated = capture.cpu ? ', except the CPU profile of a worker thread the app terminates before it stops (a direct launch keeps it)' : '';
  const deopts = capture.deopts ? '; deopts need a direct launch (Node refuses --log-deopt in NODE_OPTIONS)' : '';
  return `${what} starts Node itself, so the flags go through NODE_OPTIONS: ${collects}${terminated}${deopts}`;
}

/**
 * For a preset picked for a NODE_OPTIONS launch: what it will not collect there, or null when it
 * collects all it says ("CPU + GC trace + deopts" through npm collects CPU + GC only).
 */
export function presetCaveatThroughNodeOptions(capture: CaptureSet): string | null {
  if (!capture.deopts) return null;
  const rest = collectedThroughNodeOptions(capture);
  return rest === 'nothing' ? 'collects nothing through npm: deopts need a direct launch' : `no deopts through npm (they need a direct launch): collects ${rest} only`;
}

/** The CLI's hint: the same file launched directly, which collects deopts too. Paths relative to `cwd`. */
export function directLaunchHint(what: string, direct: DirectLaunchOfScript, cwd: string): string {
  const rel = relative(cwd, direct.script);
  const script = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : direct.script;
  const words = ['v8-lens', 'profile', ...direct.nodeArgs.map((f) => `--v8-flag=${f}`), '--', script, ...direct.args];
  const line = words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : JSON.stringify(w))).join(' ');
  return `${what} runs "${direct.scriptCommand}": to collect deopts too, profile the file directly: ${line}`;
}
