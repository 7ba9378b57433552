/**
 * Which function of run A is which function of run B. A profile knows a function by its name, its
 * file and where it starts; the start moves whenever a line above it is added or removed, so the
 * position cannot be part of its identity. Functions are matched by name and file first:
 *
 * - one function of that name in the file on each side: the same function, wherever it starts
 *   (it moved when its position changed);
 * - several (anonymous functions, methods of the same name in two classes): paired one-to-one in
 *   source order, as many pairs as possible, then the nearest lines. "Nearest" is after the shift
 *   the file's uniquely named functions show around that line, so a block of anonymous functions
 *   under an edit pairs with the same block one line lower. Two starts further apart than
 *   MAX_DRIFT_LINES after that shift are never paired.
 *
 * Whatever is left is new in B or gone in B. A renamed function is a new name: gone + new.
 * Files are the same when their URLs are, or when both lie at the same path under their run's
 * working folder (the same project in two checkouts). In files known to be the same in both runs
 * (Node's own, when both ran the same Node) nothing can have moved: there, two functions are the
 * same only at the same position (a file has many `get`s, and each run samples other ones).
 */
import type { CompareSide } from '../../shared/model/compareModel';

/** What a function is known by in a profile; lines and columns 1-based, 0 = no position. */
export interface FunctionRef {
  name: string;
  url: string;
  line: number;
  column: number;
}

/** A function found in both runs at different positions. */
export interface FunctionMove {
  base: FunctionRef;
  other: FunctionRef;
}

export interface FunctionMatch {
  /** The same string for a function of A and its counterpart in B; a function without one has its own. */
  identity(side: CompareSide, f: FunctionRef): string;
  /** The function's counterpart in the other run, or null (new or gone). */
  counterpart(side: CompareSide, f: FunctionRef): FunctionRef | null;
  /** Matched functions whose start line or column changed, in B's source order. */
  moves(): FunctionMove[];
}

export interface MatchOptions {
  /** The runs' working folders: a file under one is the same file as that path under the other. */
  base?: string | null;
  other?: string | null;
  /** Whether the file at this URL is the same in both runs, so its functions cannot have moved. */
  unchanged?: (url: string) => boolean;
}

/** Same-named functions whose starts differ by more than this (after the local shift) are not paired. */
export const MAX_DRIFT_LINES = 200;

/** Larger groups of same-named functions (n × m) are paired by a cheaper walk (alignLarge). 4,000 × 4,000 takes ~0.2 s. */
const MAX_ALIGN_CELLS = 16_000_000;

export function functionKey(f: FunctionRef): string {
  return `${f.name}\u0000${f.url}\u0000${f.line}\u0000${f.column}`;
}

export function samePosition(a: FunctionRef, b: FunctionRef): boolean {
  return a.line === b.line && a.column === b.column;
}

export function matchFunctions(base: Iterable<FunctionRef>, other: Iterable<FunctionRef>, options: MatchOptions = {}): FunctionMatch {
  const sides = { base: distinct(base), other: distinct(other) };
  const fileOf = { base: fileKeyFor(options.base ?? null), other: fileKeyFor(options.other ?? null) };
  const unchanged = options.unchanged ?? (() => false);

  // name + file (+ position in an unchanged file) → the functions of each side
  const groups = new Map<string, { base: FunctionRef[]; other: FunctionRef[] }>();
  for (const side of ['base', 'other'] as const) {
    for (const f of sides[side]) {
      const key = `${f.name}\u0000${fileOf[side](f.url)}${unchanged(f.url) ? `\u0000${f.line}:${f.column}` : ''}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { base: [], other: [] }));
      g[side].push(f);
    }
  }

  const pairs: [FunctionRef, FunctionRef][] = [];
  // Uniquely named functions first: they are matched outright and tell each file's line shifts.
  const shifts = new Map<string, { line: number; shift: number }[]>();
  const crowded: { base: FunctionRef[]; other: FunctionRef[] }[] = [];
  for (const g of groups.values()) {
    if (g.base.length === 0 || g.other.length === 0) continue;
    if (g.base.length === 1 && g.other.length === 1) {
      const [a, b] = [g.base[0]!, g.other[0]!];
      pairs.push([a, b]);
      if (a.url !== '' && a.line > 0 && b.line > 0) {
        const file = fileOf.base(a.url);
        let list = shifts.get(file);
        if (!list) shifts.set(file, (list = []));
        list.push({ line: a.line, shift: b.line - a.line });
      }
    } else {
      crowded.push(g);
    }
  }
  for (const list of shifts.values()) list.sort((x, y) => x.line - y.line);
  for (const g of crowded) {
    const byPosition = (x: FunctionRef, y: FunctionRef) => x.line - y.line || x.column - y.column;
    const a = [...g.base].sort(byPosition);
    const b = [...g.other].sort(byPosition);
    const anchors = shifts.get(fileOf.base(a[0]!.url)) ?? [];
    for (const [i, j] of alignByPosition(a, b, (f) => f.line + shiftAt(anchors, f.line))) pairs.push([a[i]!, b[j]!]);
  }

  const identities = { base: new Map<string, string>(), other: new Map<string, string>() };
  const partners = { base: new Map<string, FunctionRef>(), other: new Map<string, FunctionRef>() };
  for (const [a, b] of pairs) {
    const id = `=${functionKey(a)}`;
    identities.base.set(functionKey(a), id);
    identities.other.set(functionKey(b), id);
    partners.base.set(functionKey(a), b);
    partners.other.set(functionKey(b), a);
  }
  const own = (side: CompareSide, f: FunctionRef) => `${side === 'base' ? 'A' : 'B'}${functionKey(f)}`;
  return {
    identity: (side, f) => identities[side].get(functionKey(f)) ?? own(side, f),
    counterpart: (side, f) => partners[side].get(functionKey(f)) ?? null,
    moves: () =>
      pairs
        .filter(([a, b]) => !samePosition(a, b))
        .map(([a, b]) => ({ base: a, other: b }))
        .sort((x, y) => x.other.url.localeCompare(y.other.url) || x.other.line - y.other.line || x.other.column - y.other.column || x.other.name.localeCompare(y.other.name)),
  };
}

function distinct(list: Iterable<FunctionRef>): FunctionRef[] {
  const seen = new Map<string, FunctionRef>();
  for (const f of list) if (!seen.has(functionKey(f))) seen.set(functionKey(f), { name: f.name, url: f.url, line: f.line, column: f.column });
  return [...seen.values()];
}

/** A file's identity across runs: its path under the run's working folder, else its URL. */
function fileKeyFor(cwd: string | null): (url: string) => string {
  const root = cwd ? cwd.replace(/[\\/]+$/, '') : null;
  return (url) => {
    if (!root) return url;
    const path = urlPath(url);
    if (path.startsWith(`${root}/`) || path.startsWith(`${root}\\`)) return `./${path.slice(root.length + 1).replace(/\\/g, '/')}`;
    return url;
  };
}

function urlPath(url: string): string {
  if (!url.startsWith('file://')) return url;
  try {
    return decodeURIComponent(new URL(url).pathname).replace(/^\/([A-Za-z]:\/)/, '$1');
  } catch {
    return url;
  }
}

/** The line shift of the uniquely named function nearest to `line` (0 when the file has none). */
function shiftAt(anchors: readonly { line: number; shift: number }[], line: number): number {
  if (anchors.length === 0) return 0;
  let lo = 0;
  let hi = anchors.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (anchors[mid]!.line < line) lo = mid + 1;
    else hi = mid;
  }
  const after = anchors[lo];
  const before = anchors[lo - 1];
  if (!before) return after!.shift;
  if (!after) return before.shift;
  return line - before.line <= after.line - line ? before.shift : after.shift;
}

/**
 * Pairs two position-sorted lists of same-named functions: order-preserving (no two pairs cross),
 * the most pairs, then the least drift (|B line − A's expected line|, then column distance).
 * A dynamic programme over the n × m grid; beyond MAX_ALIGN_CELLS a linear walk (alignLarge).
 */
export function alignByPosition(a: readonly FunctionRef[], b: readonly FunctionRef[], expectedLine: (f: FunctionRef) => number): [number, number][] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return [];
  const expected = a.map(expectedLine);
  if (n * m > MAX_ALIGN_CELLS) return alignLarge(a, b, expected);
  const drift = (i: number, j: number) => Math.abs(b[j]!.line - expected[i]!);

  // score = pairs × PAIR − Σ cost, cost = drift × 1000 + column distance (capped): maximised.
  const PAIR = 2e9;
  const cost = (i: number, j: number) => Math.min(drift(i, j), 1e6) * 1000 + Math.min(Math.abs(b[j]!.column - a[i]!.column), 999);
  const width = m + 1;
  const from = new Uint8Array((n + 1) * width); // 1: pair, 2: skip a[i-1], 3: skip b[j-1]
  let prev = new Float64Array(width);
  let row = new Float64Array(width);
  for (let j = 1; j <= m; j++) from[j] = 3;
  for (let i = 1; i <= n; i++) {
    row[0] = 0;
    from[i * width] = 2;
    for (let j = 1; j <= m; j++) {
      let best = prev[j]!;
      let how = 2;
      if (row[j - 1]! > best) {
        best = row[j - 1]!;
        how = 3;
      }
      if (drift(i - 1, j - 1) <= MAX_DRIFT_LINES) {
        const paired = prev[j - 1]! + PAIR - cost(i - 1, j - 1);
        if (paired >= best) {
          best = paired;
          how = 1;
        }
      }
      row[j] = best;
      from[i * width + j] = how;
    }
    [prev, row] = [row, prev];
  }
  const pairs: [number, number][] = [];
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    const how = from[i * width + j];
    if (how === 1) pairs.push([--i, --j]);
    else if (how === 2) i--;
    else j--;
  }
  return pairs.reverse();
}

/**
 * A walk through both lists in source order for groups too large for the programme: each function
 * pairs with the next one of the other side unless the one after it is nearer (then that one is
 * skipped as new or gone), within the drift limit. Linear; right for shifts and single insertions
 * or deletions, approximate when functions a few lines apart are reordered.
 */
function alignLarge(a: readonly FunctionRef[], b: readonly FunctionRef[], expected: readonly number[]): [number, number][] {
  const pairs: [number, number][] = [];
  const gap = (i: number, j: number) => Math.abs(b[j]!.line - expected[i]!);
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const d = gap(i, j);
    if (i + 1 < a.length && gap(i + 1, j) < d) i++;
    else if (j + 1 < b.length && gap(i, j + 1) < d) j++;
    else if (d <= MAX_DRIFT_LINES) pairs.push([i++, j++]);
    else if (b[j]!.line > expected[i]!) i++;
    else j++;
  }
  return pairs;
}
