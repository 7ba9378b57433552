import { accessSync, closeSync, constants, mkdirSync, openSync, readFileSync, readSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { userCacheDir } from '../util/userCacheDir';

/**
 * The answers a Node binary gave to the runtime probe (`-e`, `--v8-options`, `--help`), kept per
 * user in ~/.cache/v8-lens (or $XDG_CACHE_HOME) under the binary's real path, size, inode and
 * modification time: three Node start-ups cost every CLI run ~100 ms on a 2-core machine, and the
 * answers change only when the binary does. Only a real Node executable is cached: a version
 * manager's shim (nvm, asdf, Volta) is a script or a small binary that runs a different Node per
 * project, so its answers are asked for every time. Any problem (no home, an unreadable or damaged
 * entry) means no cache, never a failure.
 */
export interface ProbeAnswers {
  info: string;
  v8Options: string;
  help: string;
}

/** Bumped when what the probe asks changes. */
const FORMAT = 2;
/** Node's own executables are 40 MB and more (Node 20: ~95 MB); shims are far smaller. */
const MIN_NODE_BYTES = 30 * 2 ** 20;
/** ELF, and Mach-O 64-bit (either byte order): an executable, not a script. */
const EXECUTABLE_MAGIC = ['7f454c46', 'cffaedfe', 'feedfacf'];

/** The cache entry's path for `command` as `env`'s PATH finds it; null when it cannot be pinned to a file. */
export function probeCachePath(command: string, env: NodeJS.ProcessEnv): string | null {
  if (process.platform === 'win32') return null;
  try {
    const file = realpathSync(locate(command, env) ?? '');
    const s = statSync(file);
    if (!s.isFile() || s.size < MIN_NODE_BYTES || !isExecutable(file)) return null;
    const key = fnv1a64Hex(JSON.stringify([FORMAT, file, s.size, s.ino, s.dev, s.mtimeMs, s.ctimeMs]));
    return join(userCacheDir(env), `node-probe-${key}.json`);
  } catch {
    return null;
  }
}

export function readProbeCache(path: string | null): ProbeAnswers | null {
  if (!path) return null;
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<ProbeAnswers>;
    if (typeof value.info !== 'string' || typeof value.v8Options !== 'string' || typeof value.help !== 'string') return null;
    return { info: value.info, v8Options: value.v8Options, help: value.help };
  } catch {
    return null;
  }
}

export function writeProbeCache(path: string | null, answers: ProbeAnswers): void {
  if (!path) return;
  try {
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
    // Written whole, then renamed: a concurrent reader sees the old entry or the new one.
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(answers), { mode: 0o600 });
    renameSync(temp, path);
  } catch {
    // No cache this time.
  }
}

function isExecutable(file: string): boolean {
  const head = Buffer.alloc(4);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 4, 0);
  } finally {
    closeSync(fd);
  }
  return EXECUTABLE_MAGIC.includes(head.toString('hex'));
}

/** The file `command` runs: itself when it has a slash, else the first executable of that name on PATH. */
function locate(command: string, env: NodeJS.ProcessEnv): string | null {
  if (command.includes('/')) return resolve(command);
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * A 64-bit FNV-1a of the text, as 16 hex digits: a cache entry's name in the user's own folder, for
 * the few Node executables one user has (a collision among them is a 2^-64 chance; node:crypto's
 * sha256 cost 4-5 ms of loading in every command).
 */
function fnv1a64Hex(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) h = BigInt.asUintN(64, (h ^ BigInt(text.charCodeAt(i))) * 0x100000001b3n);
  return h.toString(16).padStart(16, '0');
}
