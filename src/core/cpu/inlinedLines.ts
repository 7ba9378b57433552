/**
 * Line ticks of inlined code, given back to their own file. When V8 (up to Node 24; Node 26 no longer
 * does, measured) runs optimized code with a function inlined into it, the sample's node is the outer
 * function's, but the line is the inlined function's, in the inlined function's script: `app.js:10`
 * shows the heat of `orders.js:10`. The profile has no inlining per tick, so the line's owner is
 * worked out from the sources (scriptOutline.ts):
 *  - a line that is the outer function's own stays;
 *  - a line outside it belongs to a function that could have been inlined there: first the functions
 *    that ran below the outer one in the profile (V8 inlines what a function called while it ran
 *    unoptimized); when none owns the line, any function that ran anywhere in the profile (a
 *    callee's callee may have been inlined before a sample saw it below this one); when none does,
 *    any function written in the profile's scripts, but only when every local module the outer
 *    function's script and its callees' scripts load is one of them: the profile lists only the
 *    scripts it sampled, and a helper module whose functions were always inlined is in no node
 *    (its line would otherwise land on whatever never-run function of a seen script has it).
 *    Never the outer function's enclosing functions, nor a top level. When the owners are in one
 *    script, the ticks go to that script's line; when they are in several, or none, or (no function
 *    that ran below owning it) one below could be in a script whose source cannot be read, they are
 *    dropped, and counted.
 * A function whose own source has no outline (not readable, not parseable) keeps V8's lines unchecked.
 */
import type { CpuProfile } from './cpuProfileFormat';
import type { FunctionGroups } from './groupFunctions';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { enclosesOrIs, functionAt, ownsLine, type ScriptOutline } from './scriptOutline';

/** What the line placement did, in µs of line time. */
export interface InlinedLineCounts {
  /** Placed at the inlined function's own script and line. */
  movedUs: number;
  /** Outside the function V8 gave them to, with no one script that could own them: in no line. */
  droppedUs: number;
  /** Of functions whose source has no outline: kept as V8 gave them. */
  uncheckedUs: number;
}

/**
 * Where a node's ticks at a line go: the url (index in `groups.urls`) whose line it is, `unchecked`
 * when its function's source has no outline (then the function's own url); null: nowhere.
 */
export type LinePlace = { url: number; unchecked: boolean } | null;

export interface InlinedLinePlacer {
  place(node: number, line: number): LinePlace;
}

/** The outline of a profile's script by url; null when its source cannot be read or parsed. */
export type OutlineOf = (url: string) => ScriptOutline | null;

/**
 * Whether a function of the script other than the top level and the functions holding `own` (which
 * cannot be inlined into it) has code on `line`.
 */
function ownedElsewhere(outline: ScriptOutline, own: number, line: number): boolean {
  if (outline.codeLines[line - 1] !== 1) return false;
  for (let h = 1; h < outline.functions.length; h++) {
    if (ownsLine(outline, h, line) && (own < 0 || !enclosesOrIs(outline, h, own))) return true;
  }
  return false;
}

/** The file path of a profile url (a file: URL or an absolute path); null when it is not a local file. */
export function filePathOf(url: string): string | null {
  if (url.startsWith('file:')) {
    try {
      return fileURLToPath(url);
    } catch {
      return null;
    }
  }
  return isAbsolute(url) ? url : null;
}

/** The files a relative specifier may load, as Node resolves it (a JSON file has no functions). */
const RESOLVED_SUFFIXES = ['', '.js', '.cjs', '.mjs', '/index.js', '/index.cjs', '/index.mjs'];

/** How deep below a function its inlined callees are looked for (V8 inlines a few levels at most). */
const INLINE_DEPTH = 8;

export function inlinedLinePlacer(profile: Pick<CpuProfile, 'nodes' | 'parents'>, groups: Pick<FunctionGroups, 'nodeFunction' | 'functionUrl' | 'urls'>, outlineOf: OutlineOf): InlinedLinePlacer {
  const { nodes, parents } = profile;
  const depth = new Int32Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) depth[i] = parents[i]! >= 0 ? depth[parents[i]!]! + 1 : 0;
  // Pre-order: a node's subtree is the nodes after it up to `subtreeEnd` (exclusive).
  const subtreeEnd = new Int32Array(nodes.length).fill(nodes.length);
  const open: number[] = [];
  for (let i = 0; i < nodes.length; i++) {
    while (open.length > 0 && depth[open[open.length - 1]!]! >= depth[i]!) subtreeEnd[open.pop()!] = i;
    open.push(i);
  }
  const nodesOf = new Map<number, number[]>();
  for (let i = 0; i < nodes.length; i++) {
    const f = groups.nodeFunction[i]!;
    const list = nodesOf.get(f);
    if (list) list.push(i);
    else nodesOf.set(f, [i]);
  }
  const profileFiles = new Set<string>();
  for (const name of groups.urls) {
    const path = filePathOf(name);
    if (path !== null) profileFiles.add(path);
  }
  /**
   * Whether every module a local script loads by a relative path is a script of the profile (a local
   * script without an outline: no). Node's own modules (not local files) load only Node's own.
   */
  const localImportsSeen = new Map<number, boolean>();
  const importsSeen = (u: number): boolean => {
    let seen = localImportsSeen.get(u);
    if (seen !== undefined) return seen;
    const path = filePathOf(groups.urls[u]!);
    if (path === null) return true;
    const outline = outlineOfUrl(u);
    seen = outline !== null;
    for (const specifier of outline ? outline.imports : []) {
      if (!specifier.startsWith('./') && !specifier.startsWith('../') && !specifier.startsWith('/')) continue;
      if (/\.json$/i.test(specifier)) continue;
      const base = resolve(dirname(path), specifier);
      if (!RESOLVED_SUFFIXES.some((suffix) => profileFiles.has(base + suffix))) {
        seen = false;
        break;
      }
    }
    localImportsSeen.set(u, seen);
    return seen;
  };
  const elsewhere = new Map<string, boolean>();
  /** Per (function, own outline function, line): the one url whose functions that ran own it; -1: several; null: none. */
  const ranAnywhere = new Map<string, number | null>();

  const outlines = new Map<number, ScriptOutline | null>();
  const outlineOfUrl = (url: number): ScriptOutline | null => {
    let outline = outlines.get(url);
    if (outline === undefined) {
      const name = groups.urls[url]!;
      outline = name === '' ? null : outlineOf(name);
      outlines.set(url, outline);
    }
    return outline;
  };
  /** The outline function of a node's call frame; -1 when unknown. */
  const ownFunction = (node: number, outline: ScriptOutline): number => {
    const frame = nodes[node]!.callFrame;
    return frame.line >= 1 ? functionAt(outline, frame.line - 1, Math.max(0, frame.column - 1)) : -1;
  };
  // Every function of a readable script that ran (a node of its own), but no top level (never inlined).
  let ran: Array<[number, number]> | null = null;
  const ranFunctions = (): Array<[number, number]> => {
    if (ran) return ran;
    const seen = new Set<string>();
    ran = [];
    for (const [f, list] of nodesOf) {
      const fUrl = groups.functionUrl[f]!;
      const outline = outlineOfUrl(fUrl);
      const g = outline ? ownFunction(list[0]!, outline) : -1;
      if (g <= 0 || seen.has(`${fUrl}:${g}`)) continue;
      seen.add(`${fUrl}:${g}`);
      ran.push([fUrl, g]);
    }
    return ran;
  };
  // Per profiled function: the nodes that ran below it (within INLINE_DEPTH), one per distinct function.
  const callees = new Map<number, number[]>();
  const calleesOf = (f: number): number[] => {
    let list = callees.get(f);
    if (list) return list;
    const seen = new Set<number>([f]);
    list = [];
    for (const i of nodesOf.get(f) ?? []) {
      for (let j = i + 1; j < subtreeEnd[i]!; ) {
        const g = groups.nodeFunction[j]!;
        if (!seen.has(g)) {
          seen.add(g);
          list.push(j);
        }
        // Past the depth V8 inlines to, the rest of j's subtree is skipped.
        j = depth[j]! - depth[i]! >= INLINE_DEPTH ? subtreeEnd[j]! : j + 1;
      }
    }
    callees.set(f, list);
    return list;
  };

  return {
    place(node, line) {
      const f = groups.nodeFunction[node]!;
      const url = groups.functionUrl[f]!;
      const outline = outlineOfUrl(url);
      const own = outline ? ownFunction(node, outline) : -1;
      if (!outline || own < 0) return { url, unchecked: true };
      if (ownsLine(outline, own, line)) return { url, unchecked: false };
      // First the functions that ran below it (V8 inlines what a function called while it ran
      // unoptimized), by their own lines. A function whose script cannot be read (Node's own, say)
      // could own any line from its start on: it makes the line unknown unless one of the others owns it.
      const ran = new Set<number>();
      let unreadable = false;
      for (const j of calleesOf(f)) {
        const gUrl = groups.functionUrl[groups.nodeFunction[j]!]!;
        const gOutline = outlineOfUrl(gUrl);
        const g = gOutline ? ownFunction(j, gOutline) : -1;
        if (gOutline && g >= 0) {
          if (g > 0 && ownsLine(gOutline, g, line)) ran.add(gUrl); // a top level is never inlined
        } else if (groups.urls[gUrl] !== '' && nodes[j]!.callFrame.line >= 1 && nodes[j]!.callFrame.line <= line) {
          unreadable = true;
        }
      }
      if (ran.size === 1) return { url: ran.values().next().value!, unchecked: false };
      if (ran.size > 1 || unreadable) return null;
      // Then any function that ran anywhere in the profile, but not the functions holding this one
      // (they cannot be inlined into it). A line that functions of two scripts own is unknown.
      const key = `${f}:${own}:${line}`;
      let owner = ranAnywhere.get(key);
      if (owner === undefined) {
        owner = null;
        for (const [gUrl, g] of ranFunctions()) {
          const gOutline = outlineOfUrl(gUrl)!;
          if (!ownsLine(gOutline, g, line) || (gUrl === url && enclosesOrIs(gOutline, g, own))) continue;
          if (owner !== null && owner !== gUrl) {
            owner = -1;
            break;
          }
          owner = gUrl;
        }
        ranAnywhere.set(key, owner);
      }
      if (owner !== null) return owner < 0 ? null : { url: owner, unchecked: false };
      // Last, any function written in the profile's scripts, when no local module the outer script
      // or its callees' scripts load is missing from them.
      if (!importsSeen(url) || calleesOf(f).some((j) => !importsSeen(groups.functionUrl[groups.nodeFunction[j]!]!))) return null;
      const written = new Set<number>();
      for (let u = 0; u < groups.urls.length; u++) {
        const o = outlineOfUrl(u);
        if (!o) continue;
        const key = `${u}:${u === url ? own : -1}:${line}`;
        let found = elsewhere.get(key);
        if (found === undefined) elsewhere.set(key, (found = ownedElsewhere(o, u === url ? own : -1, line)));
        if (found) written.add(u);
        if (written.size > 1) return null;
      }
      return written.size === 1 ? { url: written.values().next().value!, unchecked: false } : null;
    },
  };
}
