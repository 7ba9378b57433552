import { fileURLToPath } from 'node:url';
import { isAbsolute, relative, sep } from 'node:path';

/** A frame as V8 Lens holds it: 1-based line and column, 0 = none. */
export interface PprofFrame {
  name: string;
  url: string;
  line: number;
  column: number;
}

/**
 * A frame's function name in pprof. Readers of pprof (`go tool pprof -top`, Pyroscope, Parca) group
 * by name alone, so every anonymous function would be one "(anonymous)", and every CommonJS module's
 * top level one "(anonymous:L#1:C#1)" whatever its file. They are named by their place the way
 * Node's own agents (`@datadog/pprof`) name them, with their file in front:
 * `(anonymous:server.js:L#12:C#20)`. The original ('' included) is kept as the system name.
 *
 * `root` (the run's working folder) shortens the file: a path under it is shown relative to it, a
 * dependency from its package on (`express/lib/router/index.js`), `node:` modules as Node names
 * them; any other file by its whole path, so two files never share a name. Stable from run to run
 * of the same program, which is what a continuous profiler compares.
 */
export function pprofFunctionName(frame: PprofFrame, root: string | null = null): string {
  if (frame.name !== '' && frame.name !== '(anonymous)') return frame.name;
  if (frame.line <= 0) return '(anonymous)';
  const file = shortFile(frame.url, root);
  return `(anonymous:${file === '' ? '' : `${file}:`}L#${frame.line}:C#${frame.column})`;
}

/** The name V8 Lens shows for a frame read from pprof: the `(anonymous:[file:]L#…)` forms back to '(anonymous)'. */
export function v8LensFunctionName(pprofName: string): string {
  return /^\(anonymous:(?:.*:)?L#\d+:C#\d+\)$/s.test(pprofName) ? '(anonymous)' : pprofName;
}

function shortFile(url: string, root: string | null): string {
  if (url === '') return '';
  let path = url;
  if (url.startsWith('file://')) {
    try {
      path = fileURLToPath(url);
    } catch {
      return url;
    }
  }
  if (!isAbsolute(path)) return path; // node:events, an eval's name
  const modules = path.lastIndexOf(`${sep}node_modules${sep}`);
  if (modules >= 0) return toSlashes(path.slice(modules + `${sep}node_modules${sep}`.length));
  if (root !== null) {
    const inside = relative(root, path);
    if (inside !== '' && !inside.startsWith('..') && !isAbsolute(inside)) return toSlashes(inside);
  }
  return path;
}

function toSlashes(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
