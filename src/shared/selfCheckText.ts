/**
 * The run's self-check in words (see `Summary.selfCheck`): one sentence per kind of record where what
 * V8 wrote and what V8 Lens read differ. The report's header, the CLI and the status bar all say it
 * the same way. Pure, so the webviews and the host share it.
 */
import type { SelfCheck, SelfCheckCount } from './model/summary';

export const FORMAT_NOT_UNDERSTOOD = 'this Node’s trace format is not fully understood';

export interface SelfCheckGap {
  kind: keyof SelfCheck;
  seen: number;
  read: number;
  /** "V8 printed 41 GC events, V8 Lens read 9: this Node’s trace format is not fully understood". */
  text: string;
}

const WHAT: Record<keyof SelfCheck, (n: string) => string> = {
  gcLines: (n) => `V8 printed ${n} GC events`,
  deopts: (n) => `V8 traced ${n} deopts`,
  optimizations: (n) => `V8 traced ${n} optimizations`,
  nvpAllocated: (n) => `V8 printed the allocated bytes of ${n} GCs`,
};

/** Every count that does not match, in a fixed order; [] when all match or nothing was checked. */
export function selfCheckGaps(check: SelfCheck | null | undefined): SelfCheckGap[] {
  if (!check) return [];
  const gaps: SelfCheckGap[] = [];
  for (const kind of Object.keys(WHAT) as (keyof SelfCheck)[]) {
    const count: SelfCheckCount | undefined = check[kind];
    if (!count || count.seen === count.read) continue;
    gaps.push({ kind, seen: count.seen, read: count.read, text: `${WHAT[kind](fmtCount(count.seen))}, V8 Lens read ${fmtCount(count.read)}: ${FORMAT_NOT_UNDERSTOOD}` });
  }
  return gaps;
}

/** True when V8 wrote records of this kind that V8 Lens could not read: its figure is short, never "none". */
export function hasGap(check: SelfCheck | null | undefined, kind: keyof SelfCheck): boolean {
  const count = check?.[kind];
  return count !== undefined && count.seen !== count.read;
}

function fmtCount(n: number): string {
  return n.toLocaleString('en-US');
}
