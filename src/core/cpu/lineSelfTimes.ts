import type { CpuProfileNode } from './cpuProfileFormat';
import type { FunctionGroups } from './groupFunctions';

export interface CpuLineTime {
  url: string;
  /** 1-based. */
  line: number;
  selfUs: number;
}

/**
 * Self time per source line: each node's self time split over its `positionTicks` in proportion to
 * the ticks (used only as proportions: tick counts come from `hitCount`, not from the timed samples).
 * Lines of nodes without a url (VM frames, eval code) have nowhere to be shown and are skipped.
 *
 * Summed per function first, in a short flat list per function (a function has a handful of hot
 * lines, so a linear scan beats a Map), then merged per url: two functions can share a line
 * (`xs.map((x) => f(x))`). That keeps the Map work to one entry per function line, not per node.
 */
export function lineSelfTimes(
  nodes: readonly CpuProfileNode[],
  nodeSelfUs: Float64Array,
  groups: Pick<FunctionGroups, 'nodeFunction' | 'functionUrl' | 'urls'>,
): CpuLineTime[] {
  // Per function: [line, µs, line, µs, …].
  const perFunction: Array<number[] | undefined> = new Array(groups.functionUrl.length).fill(undefined);
  for (let i = 0; i < nodes.length; i++) {
    const self = nodeSelfUs[i]!;
    const ticks = nodes[i]!.positionTicks;
    if (self <= 0 || ticks.length === 0) continue;
    const f = groups.nodeFunction[i]!;
    if (groups.urls[groups.functionUrl[f]!] === '') continue;
    let tickSum = 0;
    for (let k = 0; k < ticks.length; k++) tickSum += ticks[k]!.ticks;
    if (tickSum <= 0) continue;
    let list = perFunction[f];
    if (!list) perFunction[f] = list = [];
    for (let k = 0; k < ticks.length; k++) {
      const tick = ticks[k]!;
      const share = (self * tick.ticks) / tickSum;
      let at = 0;
      while (at < list.length && list[at] !== tick.line) at += 2;
      if (at < list.length) list[at + 1]! += share;
      else list.push(tick.line, share);
    }
  }

  const lines: CpuLineTime[] = [];
  const byUrl: Array<Map<number, CpuLineTime> | undefined> = new Array(groups.urls.length).fill(undefined);
  for (let f = 0; f < perFunction.length; f++) {
    const list = perFunction[f];
    if (!list) continue;
    const urlIndex = groups.functionUrl[f]!;
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
  }
  return lines;
}
