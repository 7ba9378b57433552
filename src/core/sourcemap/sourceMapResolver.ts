/**
 * Maps positions in the generated JavaScript V8 ran (CPU profile frames and position ticks, deopt
 * sites) back to the original sources (TypeScript, pre-bundle modules) through source maps, with
 * @jridgewell/trace-mapping. One resolver per report: it keeps every map it loaded.
 */
import { basename, dirname, resolve as resolvePath, win32 } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FlattenMap, TraceMap, decodedMappings, traceSegment } from '@jridgewell/trace-mapping';
import type { SectionedSourceMapInput, SourceMapSegment } from '@jridgewell/trace-mapping';
import { errorMessage, oneLine } from '../util/errors';
import { readRegularFile } from '../util/files';
import { URL_SCHEME, WINDOWS_DRIVE_PATH, fileUrlToPath, findSourceMappingUrl, percentDecode, readDataUrl } from './sourceMapUrl';

export interface OriginalPosition {
  /** Absolute file path of the original source (a URL only when the map names a non-file URL). */
  path: string;
  /** 1-based. */ line: number;
  /** 1-based; 0 when unknown (line-only mapping). */ column: number;
  /** The `names` entry of the mapping, when present. */ name: string | null;
}

export interface SourceMapResolverOptions {
  /** Reads a file as UTF-8; null when it does not exist or cannot be read. Default: fs.promises.readFile. Injected for tests and for the editor (unsaved buffers are not used). */
  readFile?: (path: string) => Promise<string | null>;
}

/** A generated file's map, ready for lookups. */
interface LoadedMap {
  map: TraceMap;
  /** The decoded mappings: per generated line (0-based), segments sorted by generated column. */
  lines: readonly (readonly SourceMapSegment[])[];
  /** The map file's directory (the generated file's for an inline map): `webpack://` sources are tried against it. */
  mapDir: string;
  /** Lines in the generated file; null when it could not be read (the map came from the `.map` fallback). */
  generatedLines: number | null;
  /** Per source index, where the source is; looked up on first use, since a bundle may name hundreds. */
  sources: (Promise<SourceTarget> | undefined)[];
}

/** A usable source (a file path, or a URL we keep), or why a mapping into it is not usable (null: it just has none). */
type SourceTarget = { path: string } | { problem: string | null };

type LoadResult = { ok: true; map: LoadedMap } | { ok: false; problem: string };

/** Source map schemes whose sources are never files next to the map. */
const REMOTE_SCHEME = /^(?:https?|data|blob):/i;

export class SourceMapResolver {
  private readonly readFileOption: (path: string) => Promise<string | null>;
  /** Per generated path: its map, loaded once; failures are cached too. */
  private readonly maps = new Map<string, Promise<LoadResult>>();
  /** Per generated path: why its last lookup failed. */
  private readonly problems = new Map<string, string | null>();
  /** Per original source path: whether it exists (shared by all maps). */
  private readonly existing = new Map<string, Promise<boolean>>();

  constructor(options: SourceMapResolverOptions = {}) {
    this.readFileOption = options.readFile ?? defaultReadFile;
  }

  /** 1-based line and column in the generated file at `generatedPath` (absolute path). Null when the file has no usable source map or the position has no mapping: the caller keeps the generated position then. Never throws. */
  async original(generatedPath: string, line: number, column: number): Promise<OriginalPosition | null> {
    return this.lookup(generatedPath, line, (map) => {
      // Columns before the first one (0, unknown) read as the start of the line.
      const column0 = Number.isFinite(column) && column >= 1 ? Math.floor(column) - 1 : 0;
      return traceSegment(map.map, line - 1, column0);
    }, true);
  }

  /** Line-only mapping (for per-line self time, which has no column): the original line of the first mapping on that generated line that has a source; column 0. Null as above. */
  async originalLine(generatedPath: string, line: number): Promise<OriginalPosition | null> {
    return this.lookup(
      generatedPath,
      line,
      (map) => map.lines[line - 1]?.find((segment) => segment.length >= 4 && typeof map.map.sources[segment[1] ?? -1] === 'string') ?? null,
      false,
    );
  }

  /**
   * Why the last lookup for that file failed ("no sourceMappingURL", "map not found: x.js.map", "invalid map JSON", ...), for a one-line warning; null when it has a map.
   * Also null before the first lookup finished, and after a lookup that found a map but no mapping
   * at that position; a map whose original file is missing gives "source not found: …", a line
   * past the end of the generated file "line N is past the end of x.js (M lines)".
   */
  problem(generatedPath: string): string | null {
    return this.problems.get(generatedKey(generatedPath)) ?? null;
  }

  private async lookup(
    generatedPath: string,
    line: number,
    find: (map: LoadedMap) => Readonly<SourceMapSegment> | null,
    withColumn: boolean,
  ): Promise<OriginalPosition | null> {
    const key = generatedKey(generatedPath);
    try {
      const loaded = await this.load(key);
      if (!loaded.ok) return this.fail(key, loaded.problem);
      const map = loaded.map;
      // Not a position (an unknown line read as 0, NaN): nothing to report about the map.
      if (!Number.isInteger(line) || line < 1) return this.fail(key, null);
      if (map.generatedLines !== null && line > map.generatedLines) {
        return this.fail(key, `line ${line} is past the end of ${basename(key)} (${map.generatedLines} lines)`);
      }
      return await this.toOriginal(key, map, find(map), withColumn);
    } catch (err) {
      // Nothing above is meant to throw; if it does (a map that fools the decoder), it is this map's problem.
      return this.fail(key, `cannot use the source map: ${oneLine(errorMessage(err))}`);
    }
  }

  private async toOriginal(
    key: string,
    map: LoadedMap,
    segment: Readonly<SourceMapSegment> | null,
    withColumn: boolean,
  ): Promise<OriginalPosition | null> {
    if (segment === null || segment.length < 4) return this.fail(key, null);
    const [, sourceIndex, sourceLine, sourceColumn] = segment;
    if (!isIndex(sourceIndex) || sourceIndex >= map.map.sources.length || !isIndex(sourceLine) || !isIndex(sourceColumn)) {
      return this.fail(key, 'invalid mapping in the source map');
    }
    const target = await this.source(map, sourceIndex);
    if (!('path' in target)) return this.fail(key, target.problem);
    let name: string | null = null;
    if (withColumn && segment.length === 5) {
      const candidate: unknown = map.map.names[segment[4]];
      if (typeof candidate === 'string') name = candidate;
    }
    this.problems.set(key, null);
    return { path: target.path, line: sourceLine + 1, column: withColumn ? sourceColumn + 1 : 0, name };
  }

  private fail(key: string, problem: string | null): null {
    this.problems.set(key, problem);
    return null;
  }

  private load(key: string): Promise<LoadResult> {
    let pending = this.maps.get(key);
    if (pending === undefined) {
      pending = this.loadMap(key).catch((err: unknown): LoadResult => ({
        ok: false,
        problem: `cannot load the source map: ${oneLine(errorMessage(err))}`,
      }));
      this.maps.set(key, pending);
    }
    return pending;
  }

  private async loadMap(generatedPath: string): Promise<LoadResult> {
    const code = await this.read(generatedPath);
    const generatedLines = code === null ? null : countLines(code);
    const url = code === null ? null : findSourceMappingUrl(code);

    let mapText: string;
    let mapPath: string; // where `sources` are relative to
    if (url === null) {
      // No comment (or the generated file is unreadable): the conventional `<file>.map` next to it.
      mapPath = `${generatedPath}.map`;
      const text = await this.read(mapPath);
      if (text === null) return { ok: false, problem: code === null ? `cannot read ${basename(generatedPath)}` : 'no sourceMappingURL' };
      mapText = text;
    } else if (/^data:/i.test(url)) {
      const text = readDataUrl(url);
      if (text === null) return { ok: false, problem: 'invalid inline source map (data: URL)' };
      mapText = text;
      mapPath = generatedPath;
    } else {
      const located = mapFileFromUrl(url, generatedPath);
      if ('problem' in located) return { ok: false, problem: located.problem };
      const text = await this.read(located.path);
      if (text === null) return { ok: false, problem: `map not found: ${shorten(url)}` };
      mapText = text;
      mapPath = located.path;
    }

    const parsed = parseMap(mapText, safeFileUrl(mapPath));
    if (typeof parsed === 'string') return { ok: false, problem: parsed };
    return {
      ok: true,
      map: { map: parsed.map, lines: parsed.lines, mapDir: dirname(mapPath), generatedLines, sources: [] },
    };
  }

  private source(map: LoadedMap, index: number): Promise<SourceTarget> {
    let pending = map.sources[index];
    if (pending === undefined) {
      pending = this.locateSource(map, index).catch((): SourceTarget => ({ problem: null }));
      map.sources[index] = pending;
    }
    return pending;
  }

  /** Where source `index` of a map is: an existing file, a URL we keep, or a problem. */
  private async locateSource(map: LoadedMap, index: number): Promise<SourceTarget> {
    const raw = map.map.sources[index];
    if (typeof raw !== 'string') return { problem: null }; // a null source: mapped to nothing
    const root = typeof map.map.sourceRoot === 'string' ? map.map.sourceRoot : '';
    let file: string;
    if (WINDOWS_DRIVE_PATH.test(raw)) {
      file = win32.normalize(raw);
    } else if (WINDOWS_DRIVE_PATH.test(root)) {
      file = win32.join(root, percentDecode(raw));
    } else {
      const resolved = map.map.resolvedSources[index] ?? raw;
      if (/^file:/i.test(resolved)) {
        file = fileUrlToPath(resolved);
      } else if (URL_SCHEME.test(resolved)) {
        return { path: await this.guessSchemeSource(map, resolved) };
      } else {
        file = resolvePath(map.mapDir, percentDecode(resolved));
      }
    }
    return (await this.exists(file)) ? { path: file } : { problem: `source not found: ${shorten(raw)}` };
  }

  /**
   * A `webpack://app/./src/x.ts`-style source: the path after the scheme and namespace, relative to
   * the map's directory (or absolute), when that file exists; otherwise the URL as it is.
   */
  private async guessSchemeSource(map: LoadedMap, url: string): Promise<string> {
    if (REMOTE_SCHEME.test(url)) return url;
    const rest = url.replace(/^[A-Za-z][A-Za-z0-9+.-]*:(?:\/\/[^/]*)?/, '').replace(/[?#].*$/s, '');
    const relative = percentDecode(rest.replace(/^\/+/, ''));
    if (relative === '') return url;
    for (const candidate of [resolvePath(map.mapDir, relative), resolvePath('/', relative)]) {
      if (await this.exists(candidate)) return candidate;
    }
    return url;
  }

  private exists(path: string): Promise<boolean> {
    let pending = this.existing.get(path);
    if (pending === undefined) {
      pending = this.read(path).then((text) => text !== null);
      this.existing.set(path, pending);
    }
    return pending;
  }

  /** The injected readFile, made total: anything but a string (a rejection, too) is "cannot read". */
  private async read(path: string): Promise<string | null> {
    try {
      const text = await this.readFileOption(path);
      return typeof text === 'string' ? text : null;
    } catch {
      return null;
    }
  }
}

/**
 * Generated files and maps are named by profiles and by `sourceMappingURL` comments: read only when
 * regular files (a FIFO would block, /dev/zero never end) and not beyond this size.
 */
const MAP_READ_LIMIT = { maxBytes: 256 * 1024 * 1024 };

async function defaultReadFile(path: string): Promise<string | null> {
  try {
    return await readRegularFile(path, MAP_READ_LIMIT);
  } catch {
    return null;
  }
}

/** The cache key of a generated file: its path (a `file://` URL, as ESM frames carry, becomes one). */
function generatedKey(generatedPath: string): string {
  return /^file:/i.test(generatedPath) ? fileUrlToPath(generatedPath) : generatedPath;
}

/** Where an external map's URL points, relative to the generated file. */
function mapFileFromUrl(url: string, generatedPath: string): { path: string } | { problem: string } {
  if (WINDOWS_DRIVE_PATH.test(url)) return { path: url };
  if (URL_SCHEME.test(url) && !/^file:/i.test(url)) {
    return { problem: `${REMOTE_SCHEME.test(url) ? 'remote source map not supported' : 'unsupported sourceMappingURL'}: ${shorten(url)}` };
  }
  try {
    const resolved = new URL(url, pathToFileURL(generatedPath));
    if (resolved.protocol !== 'file:') return { problem: `unsupported sourceMappingURL: ${shorten(url)}` };
    // Query and fragment (`app.js.map?v=3`) are not part of the file name.
    return { path: fileUrlToPath(`file://${resolved.host}${resolved.pathname}`) };
  } catch {
    return { problem: `invalid sourceMappingURL: ${shorten(url)}` };
  }
}

/** The map's own URL, which trace-mapping resolves `sourceRoot` and `sources` against. */
function safeFileUrl(path: string): string {
  try {
    return pathToFileURL(path).href;
  } catch {
    return `file://${path.startsWith('/') ? '' : '/'}${path}`;
  }
}

/** Parses and decodes a map; a string says why it is not usable. */
function parseMap(text: string, mapUrl: string): { map: TraceMap; lines: readonly (readonly SourceMapSegment[])[] } | string {
  let json: unknown;
  try {
    // A BOM, and the `)]}'` line some servers prefix against XSSI, are allowed before the JSON.
    json = JSON.parse(text.replace(/^\uFEFF/, '').replace(/^\)\]\}'[^\n]*\n/, ''));
  } catch {
    return 'invalid map JSON';
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return 'invalid map JSON';
  const raw = json as Record<string, unknown>;
  try {
    let map: TraceMap;
    if (Array.isArray(raw.sections)) {
      if (!raw.sections.every((s: unknown) => typeof s === 'object' && s !== null && typeof (s as { map?: unknown }).map === 'object')) {
        return 'index map sections without an inline "map" are not supported';
      }
      map = new FlattenMap(raw as unknown as SectionedSourceMapInput, mapUrl);
    } else {
      if (typeof raw.mappings !== 'string') return 'not a source map (no "mappings")';
      if (!Array.isArray(raw.sources)) return 'not a source map (no "sources")';
      // Only the fields lookups need, each of the right type, so trace-mapping never sees junk.
      map = new TraceMap(
        {
          version: 3,
          file: typeof raw.file === 'string' ? raw.file : null,
          names: Array.isArray(raw.names) ? raw.names.map((n) => (typeof n === 'string' ? n : '')) : [],
          sourceRoot: typeof raw.sourceRoot === 'string' ? raw.sourceRoot : undefined,
          sources: raw.sources.map((s) => (typeof s === 'string' ? s : null)),
          mappings: raw.mappings,
        },
        mapUrl,
      );
    }
    return { map, lines: decodedMappings(map) };
  } catch (err) {
    return `invalid source map: ${shorten(oneLine(errorMessage(err)))}`;
  }
}

/** Lines as V8 counts them (`\n`, `\r\n`, a lone `\r`, U+2028, U+2029 each end one). */
function countLines(code: string): number {
  let lines = 1;
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i);
    if (c === 0x0a || c === 0x2028 || c === 0x2029) lines++;
    else if (c === 0x0d) {
      lines++;
      if (code.charCodeAt(i + 1) === 0x0a) i++;
    }
  }
  return lines;
}

function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** Keeps a one-line warning short: inline maps and odd URLs can be long. */
function shorten(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
