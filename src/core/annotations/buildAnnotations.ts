/**
 * summary.json → what each source file shows: deopt sites and lenses, line heat, hot functions,
 * the functions that allocate a visible share.
 * Every position goes the same way: the url V8 recorded → a file on this machine → through its
 * source map to the original source when there is one (else it stays on the generated file).
 */
import { deoptEventCount } from '../../shared/deoptText';
import { tierEntryAt, tierNowText, tierSummaryText } from '../../shared/tierText';
import type { SourceMapResolver } from '../sourcemap/sourceMapResolver';
import type { AllocSummary, CpuFunctionSummary, DeoptFunctionSummary, DeoptSummaryEntry, SourcePosition, Summary } from '../../shared/model/summary';
import { explainDeoptReason } from './deoptReasons';
import { findFunctionStart } from './functionStart';
import {
  MAX_DEOPT_SITES_PER_FILE,
  MAX_LENSES_PER_FILE,
  type AllocFunctionLens,
  type AllocRunFacts,
  type AnnotationThresholds,
  type DeoptFunctionLens,
  type DeoptSite,
  type FileAnnotations,
  type FilePosition,
  type HeatLine,
  type ReasonTally,
  type RunAnnotations,
  type SurvivorFunctionLens,
} from './annotationTypes';
import { pathKey, resolveSourcePath } from './sourcePaths';
import { readRegularFileSync } from '../util/files';

/**
 * Source files are named by the profile (data from anywhere): read only when regular files, and not
 * beyond this size (a FIFO would block the editor, /dev/zero never end).
 */
const SOURCE_READ_LIMIT = { maxBytes: 32 * 1024 * 1024 };

export interface BuildAnnotationsOptions {
  source: string;
  capturedAt: number | null;
  /** Folders to find files under when the recorded path does not exist here (workspace folders). */
  roots: readonly string[];
  /** Null: positions stay where V8 saw them. */
  resolver: SourceMapResolver | null;
  thresholds: AnnotationThresholds;
  exists?: (path: string) => boolean;
  realpath?: (path: string) => string;
  /** Source text of a file (to find a function's first line); null when unreadable. */
  readText?: (path: string) => string | null;
}

interface Placed extends FilePosition {
  key: string;
  generated: FilePosition | null;
}

export async function buildAnnotations(summary: Summary, options: BuildAnnotationsOptions): Promise<RunAnnotations> {
  const placer = new Placer(options);
  const files = new Map<string, FileAnnotations>();
  const fileOf = (p: Placed): FileAnnotations => {
    let f = files.get(p.key);
    if (f === undefined) {
      f = { path: p.path, deoptFunctions: [], deoptSites: [], hiddenDeoptSites: 0, hiddenDeoptLenses: 0, heatLines: [], hotFunctions: [], optimizedFunctions: [], allocFunctions: [], survivorFunctions: [] };
      files.set(p.key, f);
    }
    return f;
  };

  await addDeopts(summary, placer, fileOf);
  await addHeat(summary, placer, fileOf, options.thresholds);
  await addOptimized(summary, placer, fileOf);
  await addAlloc(summary, placer, fileOf, options.thresholds);
  await addSurvivors(summary, placer, fileOf, options.thresholds);
  for (const f of files.values()) capFile(f);

  const warnings: string[] = [];
  if (placer.unplaced > 0) warnings.push(`${placer.unplaced} position(s) are in files not found here (another machine, or deleted since)`);
  warnings.push(...placer.mapProblems());
  return {
    source: options.source,
    capturedAt: options.capturedAt,
    profileMs: summary.cpu?.durationMs ?? 0,
    deoptEvents: deoptEventCount(summary),
    deoptCoverage: summary.deoptCoverage ?? (summary.deopts.length > 0 ? 'collected' : 'not-collected'),
    alloc: summary.alloc ? allocRunFacts(summary.alloc) : null,
    files,
    warnings,
  };
}

// -------------------------------------------------------------------------------------- positions

class Placer {
  unplaced = 0;
  private readonly paths = new Map<string, string | null>();
  private readonly keys = new Map<string, string>();
  private readonly mapFailures = new Map<string, string>();

  constructor(private readonly options: BuildAnnotationsOptions) {}

  private localPath(url: string): string | null {
    let path = this.paths.get(url);
    if (path === undefined) {
      path = resolveSourcePath(url, this.options.roots, this.options.exists);
      this.paths.set(url, path);
    }
    return path;
  }

  private key(path: string): string {
    let key = this.keys.get(path);
    if (key === undefined) {
      key = pathKey(path, this.options.realpath);
      this.keys.set(path, key);
    }
    return key;
  }

  /** column 0 = only the line is known (line heat): mapped line-wise. */
  async place(url: string, line: number, column: number): Promise<Placed | null> {
    if (line <= 0) return null;
    const path = this.localPath(url);
    if (path === null) {
      if (url !== '' && !url.startsWith('node:')) this.unplaced++;
      return null;
    }
    const resolver = this.options.resolver;
    if (resolver !== null) {
      const original = column > 0 ? await resolver.original(path, line, column) : await resolver.originalLine(path, line);
      const originalPath = original ? this.localPath(original.path) : null;
      if (original && originalPath !== null) {
        return { path: originalPath, line: original.line, column: original.column, key: this.key(originalPath), generated: { path, line, column } };
      }
      if (original) this.mapFailures.set(path, `${original.path} (the original of ${path}) is not here`);
      else {
        const problem = resolver.problem(path);
        // A file without any source map is the normal case: only a broken map is worth a line.
        if (problem !== null && !/^no sourceMappingURL/i.test(problem)) this.mapFailures.set(path, problem);
      }
    }
    return { path, line, column, key: this.key(path), generated: null };
  }

  private readonly texts = new Map<string, string | null>();

  text(path: string): string | null {
    if (!this.texts.has(path)) {
      const read = this.options.readText ?? ((p: string) => { try { return readRegularFileSync(p, SOURCE_READ_LIMIT); } catch { return null; } });
      this.texts.set(path, read(path));
    }
    return this.texts.get(path)!;
  }

  mapProblems(): string[] {
    return [...this.mapFailures].slice(0, 5).map(([path, problem]) => `source map of ${path}: ${problem}`);
  }
}

// ---------------------------------------------------------------------------------------- deopts

async function addDeopts(summary: Summary, placer: Placer, fileOf: (p: Placed) => FileAnnotations): Promise<void> {
  const cpuFunctions = indexProfileFunctions(summary.cpu?.functions ?? []);
  const lenses = new Map<string, DeoptFunctionLens & { file: FileAnnotations; reopt: Array<boolean | null> }>();
  for (const raw of summary.deopts) {
    const where = await placer.place(raw.url, raw.line, raw.column);
    if (where === null) continue;
    const site = await toSite(raw, where, placer);
    const file = fileOf(where);
    file.deoptSites.push(site);

    const start = raw.functionStart ?? functionStartFromProfile(cpuFunctions, raw);
    const history = start ? tierEntryAt(summary.tierHistory, start.url, start.line, start.column) : undefined;
    if (history) site.tiers = tierSummaryText(history);
    const startPlaced = start ? await placer.place(start.url, start.line, start.column) : null;
    let exact = startPlaced !== null && startPlaced.key === where.key && startPlaced.line <= where.line;
    let line = exact ? startPlaced!.line : where.line;
    const column = exact ? startPlaced!.column : 1;
    if (!exact) {
      const found = findFunctionStart(placer.text(where.path) ?? '', raw.function, where.line);
      if (found !== null) [line, exact] = [found, true];
    }
    const lensKey = `${where.key}\0${raw.function}\0${line}`;
    let lens = lenses.get(lensKey);
    if (lens === undefined) {
      lens = { name: raw.function, line, column, exact, count: 0, reasons: [], reoptimized: null, sites: [], file, reopt: [] };
      lenses.set(lensKey, lens);
    }
    lens.count += site.count;
    lens.sites.push(site);
    tally(lens.reasons, site);
    if (start) lens.reopt.push(reoptimizedOf(summary.deoptFunctions ?? [], raw.function, start));
  }
  for (const { file, reopt, ...lens } of lenses.values()) {
    // One function that stayed deoptimized is what matters; "reoptimized" only when all were.
    lens.reoptimized = reopt.includes(false) ? false : reopt.length > 0 && reopt.every((r) => r === true) ? true : null;
    lens.sites.sort(bySiteCount);
    lens.reasons.sort((a, b) => Number(a.harmless) - Number(b.harmless) || b.count - a.count);
    file.deoptFunctions.push(lens);
  }
}

async function toSite(d: DeoptSummaryEntry, where: Placed, placer: Placer): Promise<DeoptSite> {
  const info = explainDeoptReason(d.reason, d.kind);
  const inlinedAt: FilePosition[] = [];
  for (const p of d.inlinedAt) {
    const q = await placer.place(p.url, p.line, p.column);
    inlinedAt.push(q ? { path: q.path, line: q.line, column: q.column } : { path: p.url, line: p.line, column: p.column });
  }
  return {
    line: where.line,
    column: where.column,
    reason: d.reason,
    short: info.short,
    explanation: info.explanation,
    fix: info.fix,
    harmless: info.harmless,
    kind: d.kind,
    count: d.count,
    function: d.function,
    optimizedFunction: d.optimizedFunction,
    tier: d.tier,
    inlinedAt,
    firstMs: d.firstMs,
    lastMs: d.lastMs,
    generated: where.generated,
  };
}

/**
 * The function a deopt site is in, from the profile: same file and name, the closest start at or
 * above the site. Inlined functions that never ran on their own are not in the profile: null.
 */
function functionStartFromProfile(index: ProfileFunctionIndex, d: DeoptSummaryEntry): SourcePosition | null {
  // Anonymous functions are everywhere: "the closest one above" would be a guess.
  if (d.function === '(anonymous)') return null;
  let best: CpuFunctionSummary | null = null;
  for (const f of index.get(`${d.url}\0${d.function}`) ?? []) {
    if (f.line > 0 && f.line <= d.line && (best === null || f.line > best.line)) best = f;
  }
  return best && { url: best.url, line: best.line, column: best.column };
}

type ProfileFunctionIndex = Map<string, CpuFunctionSummary[]>;

function indexProfileFunctions(functions: readonly CpuFunctionSummary[]): ProfileFunctionIndex {
  const index: ProfileFunctionIndex = new Map();
  for (const f of functions) {
    const key = `${f.url}\0${f.name}`;
    const list = index.get(key);
    if (list) list.push(f);
    else index.set(key, [f]);
  }
  return index;
}

function reoptimizedOf(records: readonly DeoptFunctionSummary[], name: string, start: SourcePosition): boolean | null {
  const r = records.find((f) => f.url === start.url && f.line === start.line && f.function === name);
  return r ? r.reoptimized : null;
}

function tally(reasons: ReasonTally[], site: DeoptSite): void {
  const t = reasons.find((r) => r.short === site.short);
  if (t) t.count += site.count;
  else reasons.push({ short: site.short, count: site.count, harmless: site.harmless });
}

const bySiteCount = (a: DeoptSite, b: DeoptSite) => b.count - a.count || a.line - b.line || a.column - b.column;

// ------------------------------------------------------------------------------------- line heat

async function addHeat(summary: Summary, placer: Placer, fileOf: (p: Placed) => FileAnnotations, thresholds: AnnotationThresholds): Promise<void> {
  const cpu = summary.cpu;
  if (!cpu || cpu.durationMs <= 0) return;
  const tiersOf = (f: CpuFunctionSummary) => {
    const entry = tierEntryAt(summary.tierHistory, f.url, f.line, f.column);
    return entry ? { story: tierSummaryText(entry), now: tierNowText(entry) } : null;
  };
  // Shares are of the on-CPU time of the threads the code ran on: a busy worker's hot line is not
  // diluted by the main thread's idle time, nor a service's by its waiting pool (older summaries: the sampled time).
  const onCpuOf = (entry: { onCpuMs?: number }) => entry.onCpuMs ?? cpu.onCpuMs ?? cpu.durationMs;
  const perLine = new Map<FileAnnotations, Map<number, { selfMs: number; onCpuMs: number }>>();
  for (const l of cpu.lines) {
    if (l.selfMs <= 0) continue;
    const where = await placer.place(l.url, l.line, 0);
    if (where === null) continue;
    const file = fileOf(where);
    let lines = perLine.get(file);
    if (!lines) perLine.set(file, (lines = new Map()));
    const sum = lines.get(where.line) ?? { selfMs: 0, onCpuMs: 0 };
    lines.set(where.line, { selfMs: sum.selfMs + l.selfMs, onCpuMs: Math.max(sum.onCpuMs, onCpuOf(l)) });
  }
  for (const [file, lines] of perLine) {
    for (const [line, { selfMs, onCpuMs }] of lines) {
      if (onCpuMs <= 0) continue;
      const share = Math.min(1, selfMs / onCpuMs);
      const labeled = selfMs >= thresholds.heatMinMs && share * 100 >= thresholds.heatMinPercent;
      file.heatLines.push({ line, selfMs, share, level: heatLevel(share), labeled });
    }
    file.heatLines.sort((a, b) => a.line - b.line);
  }
  for (const f of cpu.functions) {
    const onCpuMs = onCpuOf(f);
    if (f.line <= 0 || onCpuMs <= 0 || (f.totalMs / onCpuMs) * 100 < thresholds.hotFunctionMinPercent) continue;
    // A module's own top level (the anonymous function at 1:1): its total is everything the file
    // started while loading, a lens on line 1 that says nothing about any function.
    if (f.line === 1 && f.column === 1 && (f.name === '' || f.name === '(anonymous)')) continue;
    const where = await placer.place(f.url, f.line, f.column);
    if (where === null) continue;
    fileOf(where).hotFunctions.push({
      name: f.name,
      line: where.line,
      column: where.column,
      selfMs: f.selfMs,
      totalMs: f.totalMs,
      selfShare: Math.min(1, f.selfMs / onCpuMs),
      // A total can hold a thread's waiting (a pool's task loop calls Atomics.wait): never above all its work.
      totalShare: Math.min(1, f.totalMs / onCpuMs),
      tiers: tiersOf(f),
    });
  }
}

/** Gutter level by share of its threads' on-CPU time, so a level means the same in every file. */
export function heatLevel(share: number): HeatLine['level'] {
  if (share >= 0.1) return 5;
  if (share >= 0.05) return 4;
  if (share >= 0.02) return 3;
  if (share >= 0.005) return 2;
  return 1;
}

// ------------------------------------------------------------------------ optimized, never deopted

async function addOptimized(summary: Summary, placer: Placer, fileOf: (p: Placed) => FileAnnotations): Promise<void> {
  for (const f of summary.optimizedFunctions ?? []) {
    const where = await placer.place(f.url, f.line, f.column);
    if (where === null) continue;
    fileOf(where).optimizedFunctions.push({ name: f.function, line: where.line, column: where.column, tiers: f.tiers });
  }
}

// ------------------------------------------------------------------------------------ allocations

/**
 * A lens above each function whose own allocations reach the threshold's share. Two entries that
 * land on the same function start (a source map folding generated functions together) are one lens.
 */
async function addAlloc(summary: Summary, placer: Placer, fileOf: (p: Placed) => FileAnnotations, thresholds: AnnotationThresholds): Promise<void> {
  const alloc = summary.alloc;
  if (!alloc) return;
  const lenses = new Map<string, AllocFunctionLens & { file: FileAnnotations }>();
  for (const f of alloc.functions) {
    if (f.line <= 0 || f.share * 100 < thresholds.allocMinPercent) continue;
    const where = await placer.place(f.url, f.line, f.column);
    if (where === null) continue;
    const estimate = f.youngGcPauseMsEstimate ?? null;
    const lensKey = `${where.key}\0${f.name}\0${where.line}`;
    const lens = lenses.get(lensKey);
    if (lens) {
      lens.selfBytes += f.selfBytes;
      lens.share += f.share;
      lens.youngGcPauseMsEstimate = lens.youngGcPauseMsEstimate === null || estimate === null ? null : lens.youngGcPauseMsEstimate + estimate;
    } else {
      lenses.set(lensKey, { name: f.name, line: where.line, column: where.column, selfBytes: f.selfBytes, share: f.share, bytesPerSecond: null, bytesPerRequest: null, youngGcPauseMsEstimate: estimate, file: fileOf(where) });
    }
  }
  for (const { file, ...lens } of lenses.values()) {
    // The run's rates split by the function's share: what it allocates per second and per request.
    lens.bytesPerSecond = alloc.bytesPerSecond === null ? null : alloc.bytesPerSecond * lens.share;
    lens.bytesPerRequest = alloc.bytesPerRequest === null ? null : alloc.bytesPerRequest * lens.share;
    file.allocFunctions.push(lens);
  }
}

/** A lens above each function whose survivors reach the allocation threshold's share of all survivors. */
async function addSurvivors(summary: Summary, placer: Placer, fileOf: (p: Placed) => FileAnnotations, thresholds: AnnotationThresholds): Promise<void> {
  for (const f of summary.survivors?.functions ?? []) {
    if (f.line <= 0 || f.share * 100 < thresholds.allocMinPercent) continue;
    const where = await placer.place(f.url, f.line, f.column);
    if (where === null) continue;
    const lens: SurvivorFunctionLens = { name: f.name, line: where.line, column: where.column, bytes: f.bytes, share: f.share, survivalRate: f.survivalRate, copyMsEstimate: f.copyMsEstimate };
    fileOf(where).survivorFunctions.push(lens);
  }
}

function allocRunFacts(alloc: AllocSummary): AllocRunFacts {
  return {
    samplingIntervalBytes: alloc.samplingIntervalBytes,
    totalBytes: alloc.totalBytes,
    bytesPerSecond: alloc.bytesPerSecond,
    youngGcs: alloc.gcLink?.youngGcs ?? null,
    youngGcPauseMs: alloc.gcLink?.youngGcPauseMs ?? null,
    inliningCaveat: alloc.inliningCaveat ?? null,
    exactSites: alloc.exactSites === true,
  };
}

// ------------------------------------------------------------------------------------------- caps

function capFile(f: FileAnnotations): void {
  f.deoptSites.sort(bySiteCount);
  if (f.deoptSites.length > MAX_DEOPT_SITES_PER_FILE) {
    f.hiddenDeoptSites = f.deoptSites.length - MAX_DEOPT_SITES_PER_FILE;
    f.deoptSites.length = MAX_DEOPT_SITES_PER_FILE;
  }
  f.deoptFunctions.sort((a, b) => b.count - a.count || a.line - b.line);
  if (f.deoptFunctions.length > MAX_LENSES_PER_FILE) {
    f.hiddenDeoptLenses = f.deoptFunctions.length - MAX_LENSES_PER_FILE;
    f.deoptFunctions.length = MAX_LENSES_PER_FILE;
  }
  f.hotFunctions.sort((a, b) => b.totalMs - a.totalMs);
  f.hotFunctions.length = Math.min(f.hotFunctions.length, MAX_LENSES_PER_FILE);
  f.optimizedFunctions.length = Math.min(f.optimizedFunctions.length, MAX_LENSES_PER_FILE);
  f.allocFunctions.sort((a, b) => b.selfBytes - a.selfBytes || a.line - b.line);
  f.allocFunctions.length = Math.min(f.allocFunctions.length, MAX_LENSES_PER_FILE);
  f.survivorFunctions.sort((a, b) => b.bytes - a.bytes || a.line - b.line);
  f.survivorFunctions.length = Math.min(f.survivorFunctions.length, MAX_LENSES_PER_FILE);
}
