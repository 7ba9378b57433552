/**
 * The `v8-lens` bin: loads the command line (cli-main.js beside it) with a V8 code cache. A CLI
 * run is short, and compiling its bundle and then each function it calls was a third of the CPU
 * time of profiling a script that does nothing. The cache holds what V8 compiled during the run
 * that made it, so the next run parses and compiles (almost) nothing. It is written once per
 * bundle and Node version, under the temporary folder (as Node's own compile cache is), and any
 * problem with it only means compiling as usual. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 *
 * Node built-ins only, and nothing else: this file is evaluated before any cache helps.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { TOOL_VERSION } from './core/util/version';

const mainPath = join(__dirname, 'cli-main.js');

function cacheFileFor(path: string): string | null {
  if (process.env.NODE_DISABLE_COMPILE_CACHE === '1') return null;
  try {
    const { size, mtimeMs } = statSync(path);
    let user = 'user';
    try {
      user = String(userInfo().uid);
    } catch {
      // no passwd entry (a container's arbitrary uid): one folder for all is still correct
    }
    // V8 checks its own version and flags (cachedDataRejected), but of the source only its length:
    // the name holds V8 Lens's version and the bundle's size and time (npm gives every installed
    // file the same time), so another build never meets this one's cache. One per Node version, so
    // two do not overwrite each other's, and one per command: `--version` compiles little, `profile` much.
    const command = /^[a-z][a-z-]{0,20}$/.test(process.argv[2] ?? '') ? process.argv[2] : 'other';
    return join(tmpdir(), `v8-lens-compile-cache-${user}`, `${command}-${process.version}-${process.arch}-${TOOL_VERSION}-${size}-${Math.floor(mtimeMs)}.bin`);
  } catch {
    return null;
  }
}

function load(): void {
  const source = readFileSync(mainPath, 'utf8');
  const cacheFile = cacheFileFor(mainPath);
  let cachedData: Buffer | undefined;
  if (cacheFile) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  // The module wrapper Node itself puts around a CommonJS file, so the bundle runs as if required
  // (cli-main.js has no #! line: only this launcher is the bin).
  const wrapper = (Module as unknown as { wrap(code: string): string }).wrap(source);
  const script = new Script(wrapper, { filename: mainPath, cachedData });
  if (cacheFile && (!cachedData || script.cachedDataRejected)) {
    // At exit: the cache then holds every function the run compiled, not only the top level.
    process.once('exit', () => {
      try {
        mkdirSync(dirname(cacheFile), { recursive: true, mode: 0o700 });
        const partial = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(partial, script.createCachedData());
        renameSync(partial, cacheFile);
      } catch {
        // a read-only or full temporary folder: the next run compiles as this one did
      }
    });
  }
  const main = new Module(mainPath, module);
  main.filename = mainPath;
  main.paths = (Module as unknown as { _nodeModulePaths(from: string): string[] })._nodeModulePaths(__dirname);
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  run.call(main.exports, main.exports, createRequire(mainPath), main, mainPath, __dirname);
}

load();
