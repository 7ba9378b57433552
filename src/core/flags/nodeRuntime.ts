import { childProcess } from '../util/lazyBuiltins';
import { UserError, isErrno } from '../util/errors';
import { parseNodeHelp, parseV8Options, type V8FlagInfo } from './optionLists';
import { EXIT } from '../util/exitCodes';
import { probeCachePath, readProbeCache, writeProbeCache } from './probeCache';

/** What we know about the Node binary that will run the target (never the editor's own Node). */
export interface NodeRuntime {
  /** As given by the user or `node` (looked up on PATH by the OS). */
  command: string;
  /** The absolute path the binary reports for itself. */
  execPath: string;
  version: string;
  major: number;
  v8Version: string;
  v8Flags: Map<string, V8FlagInfo>;
  nodeFlags: Set<string>;
  /** Flags Node accepts in NODE_OPTIONS (`process.allowedNodeEnvironmentFlags`), without `--`. */
  allowedInNodeOptions: Set<string>;
}

const PROBE = 'process.stdout.write(JSON.stringify({execPath:process.execPath,version:process.version,v8:process.versions.v8,allowed:[...process.allowedNodeEnvironmentFlags]}))';

const cache = new Map<string, Promise<NodeRuntime>>();

/**
 * Asks the binary about itself once per command per process (three quick child processes), or
 * reads what the same binary answered before (probeCache.ts).
 */
export function probeNodeRuntime(command: string, env: NodeJS.ProcessEnv = process.env): Promise<NodeRuntime> {
  let pending = cache.get(command);
  if (!pending) {
    pending = probe(command, env);
    pending.catch(() => cache.delete(command));
    cache.set(command, pending);
  }
  return pending;
}

async function probe(command: string, env: NodeJS.ProcessEnv): Promise<NodeRuntime> {
  // NODE_OPTIONS from the user's shell would change what the probe reports (or make it fail).
  const cleanEnv = { ...env };
  delete cleanEnv.NODE_OPTIONS;
  const cachePath = probeCachePath(command, env);
  let cached = readProbeCache(cachePath);
  if (cached && infoOf(cached.info) === null) cached = null; // a damaged entry: ask the binary again
  const [info, v8Text, helpText] = cached
    ? [cached.info, cached.v8Options, cached.help]
    : await Promise.all([run(command, ['-e', PROBE], cleanEnv), run(command, ['--v8-options'], cleanEnv), run(command, ['--help'], cleanEnv)]);
  const parsed = infoOf(info);
  if (parsed === null) throw new UserError(`'${command}' did not answer like Node.js (is it a Node binary?)`);
  if (!cached) writeProbeCache(cachePath, { info, v8Options: v8Text, help: helpText });
  const major = Number(/^v(\d+)/.exec(parsed.version)?.[1] ?? NaN);
  return {
    command,
    execPath: parsed.execPath,
    version: parsed.version,
    major,
    v8Version: parsed.v8,
    v8Flags: parseV8Options(v8Text),
    nodeFlags: parseNodeHelp(helpText),
    allowedInNodeOptions: new Set(parsed.allowed.map((f) => f.replace(/^-+/, ''))),
  };
}

function infoOf(text: string): { execPath: string; version: string; v8: string; allowed: string[] } | null {
  try {
    const value = JSON.parse(text) as { execPath?: unknown; version?: unknown; v8?: unknown; allowed?: unknown };
    if (typeof value.execPath !== 'string' || typeof value.version !== 'string' || typeof value.v8 !== 'string' || !Array.isArray(value.allowed)) return null;
    return value as { execPath: string; version: string; v8: string; allowed: string[] };
  } catch {
    return null;
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    childProcess().execFile(command, args, { env, timeout: 20_000, maxBuffer: 16 * 1024 * 1024, windowsHide: true }, (err, stdout) => {
      if (!err) return resolve(stdout);
      if (isErrno(err, 'ENOENT')) reject(new UserError(`Node.js not found: '${command}' (install Node, or give its path: --node in the CLI, the v8Lens.nodePath setting in the editor)`, EXIT.usage));
      else if (isErrno(err, 'EACCES')) reject(new UserError(`'${command}' is not executable`, EXIT.usage));
      else if ((err as { killed?: boolean }).killed) reject(new UserError(`'${command}' did not answer within 20 s`, EXIT.usage));
      else reject(new UserError(`'${command} ${args[0]}' failed: ${err.message.split('\n')[0]}`, EXIT.usage));
    });
  });
}
