/**
 * Loading a bundle with a V8 code cache: what V8 compiled during an earlier run of it, so this run
 * parses and compiles (almost) nothing of it. Used by the `v8-lens` bin (src/cliLauncher.ts) and by
 * the extension's entry (src/extension/extensionLauncher.ts), where compiling the bundle was most of
 * what they cost before doing anything.
 *
 * The cache is code this process will run, so it is read only from a folder that is the user's own:
 * `$XDG_CACHE_HOME/v8-lens/code-cache` (else ~/.cache/…), owned by this user and writable by no one
 * else, and only files of this user's that no one else can write. (A file under a shared /tmp could
 * be planted by another user: V8 checks a cache's version, flags and source length, not its
 * bytes.) Any problem means compiling as usual, never a failure. NODE_DISABLE_COMPILE_CACHE=1
 * turns it off, as it does Node's own.
 *
 * Node built-ins only, and nothing that needs more: this runs before any cache helps.
 */
import { lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { userCacheDir } from './userCacheDir';
import { TOOL_VERSION } from './version';

export interface CachedLoad {
  /** The bundle's `module.exports`. */
  exports: unknown;
  /**
   * Writes the cache if there was none or V8 rejected it, once. Done at the process's exit anyway;
   * call it sooner in a process that lives long (the extension host), once what it runs is compiled.
   */
  save(): void;
}

/**
 * Runs `mainPath` (a CommonJS bundle) as Node would require it, compiled from the cache of `kind`
 * (a command: `--version` compiles little, `profile` much) when there is a good one.
 */
export function loadWithCodeCache(mainPath: string, kind: string): CachedLoad {
  const source = readFileSync(mainPath, 'utf8');
  const cache = cacheFileFor(mainPath, kind);
  const file = cache?.file ?? null;
  const cachedData = file ? readOwnFile(file) : undefined;
  // The wrapper Node itself puts around a CommonJS file, so the bundle runs as if required.
  const wrapper = (Module as unknown as { wrap(code: string): string }).wrap(source);
  const script = new Script(wrapper, { filename: mainPath, cachedData });
  let pending = file !== null && (!cachedData || script.cachedDataRejected === true);
  const save = () => {
    if (!pending || !cache) return;
    pending = false;
    writeOwnFile(cache.file, cache.sameKind, script.createCachedData());
  };
  // Before the bundle runs: it may end the process at once (`--version`).
  if (pending) process.once('exit', save);
  const main = new Module(mainPath, module);
  main.filename = mainPath;
  main.paths = (Module as unknown as { _nodeModulePaths(from: string): string[] })._nodeModulePaths(dirname(mainPath));
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  run.call(main.exports, main.exports, createRequire(mainPath), main, mainPath, dirname(mainPath));
  return { exports: main.exports, save };
}

/**
 * One file per bundle, kind and Node (`sameKind`, the start of its name), and per V8 Lens version
 * and bundle (its size and time: npm gives every installed file the same time).
 */
function cacheFileFor(mainPath: string, kind: string): { file: string; sameKind: string } | null {
  if (process.env.NODE_DISABLE_COMPILE_CACHE === '1') return null;
  try {
    const { size, mtimeMs } = statSync(mainPath);
    const safeKind = /^[a-z][a-z-]{0,20}$/.test(kind) ? kind : 'other';
    const sameKind = `${basename(mainPath, '.js')}-${safeKind}-${process.version}-${process.arch}-`;
    return { file: join(userCacheDir(), 'code-cache', `${sameKind}${TOOL_VERSION}-${size}-${Math.floor(mtimeMs)}.bin`), sameKind };
  } catch {
    return null;
  }
}

function readOwnFile(file: string): Buffer | undefined {
  try {
    if (!isOwnAndPrivate(dirname(file), 'dir') || !isOwnAndPrivate(file, 'file')) return undefined;
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function writeOwnFile(file: string, sameKind: string, data: Buffer): void {
  const dir = dirname(file);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!isOwnAndPrivate(dir, 'dir')) return;
    // Whole, then renamed: a concurrent reader sees the old file or the new one.
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, data, { mode: 0o600 });
    renameSync(partial, file);
    removeOlderBuilds(dir, basename(file), sameKind);
  } catch {
    // A read-only or full disk: the next run compiles as this one did.
  }
}

/** The same kind for the same Node, from a bundle that is no longer there (an upgrade, a rebuild). */
function removeOlderBuilds(dir: string, kept: string, sameKind: string): void {
  for (const name of readdirSync(dir)) {
    if (name !== kept && name.startsWith(sameKind) && name.endsWith('.bin')) {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // another process's, or gone already
      }
    }
  }
}

function isOwnAndPrivate(path: string, kind: 'dir' | 'file'): boolean {
  const s = lstatSync(path);
  if (kind === 'dir' ? !s.isDirectory() : !s.isFile()) return false;
  if (process.platform === 'win32') return true; // a per-user profile folder; no POSIX modes to check
  return s.uid === process.getuid?.() && (s.mode & 0o022) === 0;
}
