import type { CpuProfileNode } from './cpuProfileFormat';
import type { FunctionGroups } from './groupFunctions';
import type { InlinedLineCounts, InlinedLinePlacer } from './inlinedLines';

export interface CpuLineTime {
  url: string;
  /** 1-based. */
  line: number;
  selfUs: number;
}

export interface LineSelfTimes {
  lines: CpuLineTime[];
  /** What placing inlined code's ticks did; null when no placer was given (V8's lines as they are). */
  inlined: InlinedLineCounts | null;
}

/**
 * Self time per source line: each node's self time split over its `positionTicks` in proportion to
 * the ticks (used only as proportions: tick counts come from `hitCount`, not from the timed samples).
 * Lines of nodes without a url (VM frames, eval code) have nowhere to be shown and are skipped. With
 * a `placer`, a tick V8 gave a function on a line of code inlined into it goes to that code's own
 * script, or nowhere when that cannot be known (see inlinedLines.ts).
 *
 * Summed per function first, in a short flat list per function (a function has a handful of hot
 * lines, so a linear scan beats a Map), then merged per url: two functions can share a line
 * (`xs.map((x) => f(x))`). That keeps the Map work to one entry per function line, not per node.
 */
export function lineSelfTimes(
  nodes: readonly CpuProfileNode[],
  nodeSelfUs: Float64Array,
  groups: Pick<FunctionGroups, 'nodeFunction' | 'functionUrl' | 'urls'>,
  placer: InlinedLinePlacer | null = null,
): LineSelfTimes {
  const inlined: InlinedLineCounts | null = placer ? { movedUs: 0, droppedUs: 0, uncheckedUs: 0 } : null;
  // Per function: [line, µs, line, µs, …]; ticks placed in another url, per url.
  const perFunction: Array<number[] | undefined> = new Array(groups.functionUrl.length).fill(undefined);
  const elsewhere: Array<number[] | undefined> = new Array(groups.urls.length).fill(undefined);
  const add = (list: number[], line: number, us: number) => {
    let at = 0;
    while (at < list.length && list[at] !== line) at += 2;
    if (at < list.length) list[at + 1]! += us;
    else list.push(line, us);
  };
  for (let i = 0; i < nodes.length; i++) {
    const self = nodeSelfUs[i]!;
    const ticks = nodes[i]!.positionTicks;
    if (self <= 0 || ticks.length === 0) continue;
    const f = groups.nodeFunction[i]!;
    const url = groups.functionUrl[f]!;
    if (groups.urls[url] === '') continue;
    let tickSum = 0;
    for (let k = 0; k < ticks.length; k++) tickSum += ticks[k]!.ticks;
    if (tickSum <= 0) continue;
    let list = perFunction[f];
    if (!list) perFunction[f] = list = [];
    for (let k = 0; k < ticks.length; k++) {
      const tick = ticks[k]!;
      const share = (self * tick.ticks) / tickSum;
      const place = placer ? placer.place(i, tick.line) : { url, unchecked: false };
      if (place === null) {
        inlined!.droppedUs += share;
        continue;
      }
      if (place.unchecked) inlined!.uncheckedUs += share;
      if (place.url === url) {
        add(list, tick.line, share);
        continue;
      }
      inlined!.movedUs += share;
      add((elsewhere[place.url] ??= []), tick.line, share);
    }
  }

  const lines: CpuLineTime[] = [];
  const byUrl: Array<Map<number, CpuLineTime> | undefined> = new Array(groups.urls.length).fill(undefined);
  const merge = (urlIndex: number, list: number[]) => {
    let byLine = byUrl[urlIndex];
    if (!byLine) byUrl[urlIndex] = byLine = new Map();
    for (let at = 0; at < list.length; at += 2) {
      const line = list[at]!;
      const entry = byLine.get(line);
      if (entry) entry.selfUs += list[at + 1]!;
      else {
        const created = { url: groups.urls[urlIndex]!, line, selfUs: list[at + 1]! };
        byLine.set(line, created);
        lines.push(created);
      }
    }
  };
  for (let f = 0; f < perFunction.length; f++) if (perFunction[f]) merge(groups.functionUrl[f]!, perFunction[f]!);
  for (let u = 0; u < elsewhere.length; u++) if (elsewhere[u]) merge(u, elsewhere[u]!);
  return { lines, inlined };
}
