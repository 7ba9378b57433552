/**
 * From what a profile or V8 log names (a path, a `file://` URL with percent-encoding, a Windows
 * path recorded elsewhere) to a file on this machine, and one key per file so that annotations and
 * editor documents meet even through symlinked folders or a differently cased drive letter.
 */
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, join, posix, win32 } from 'node:path';
import { urlToPath } from '../v8log/sourcePosition';

/** URLs that never name a file of the user's: Node internals, `evalmachine`, remote scripts. */
export function isAnnotatableUrl(url: string): boolean {
  return url !== '' && !url.startsWith('node:') && !/^(https?|data|wasm|evalmachine\.\w*):/i.test(url) && !url.startsWith('evalmachine.');
}

const WINDOWS_PATH = /^[A-Za-z]:[\\/]/;

/**
 * The file a profile's url names here: as recorded when it exists, else the longest tail of it that
 * exists under one of `roots` (a profile made in CI names /ci/build/app/src/x.js; here it is
 * <workspace>/src/x.js). Null when nothing matches.
 */
export function resolveSourcePath(url: string, roots: readonly string[], exists: (path: string) => boolean = existsSync): string | null {
  if (!isAnnotatableUrl(url)) return null;
  const path = urlToPath(url);
  const windows = WINDOWS_PATH.test(path);
  if ((isAbsolute(path) || windows) && exists(path)) return path;
  const segments = path.split(windows ? /[\\/]+/ : /\/+/).filter(Boolean);
  if (windows) segments.shift(); // the drive
  for (let start = 0; start < segments.length; start++) {
    for (const root of roots) {
      const candidate = join(root, ...segments.slice(start));
      if (exists(candidate)) return candidate;
    }
  }
  return null;
}

/**
 * The key a file is known by: its real path (symlinks resolved), with Windows drive letters and
 * separators made uniform. Paths that do not exist keep their spelling.
 */
export function pathKey(path: string, realpath: (p: string) => string = realpathOrSelf): string {
  const real = realpath(path);
  if (WINDOWS_PATH.test(real)) return win32.normalize(real).replace(/^[A-Z]/, (d) => d.toLowerCase()).replace(/\\/g, '/');
  return posix.normalize(real);
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}
