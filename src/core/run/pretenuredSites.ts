/**
 * The sites V8 tenured, named and priced. V8 names a site only by its AllocationSite's address, which
 * no profile carries (a heap profile has functions, not sites; `--trace-creation-allocation-sites`
 * prints the address without its function). So the function is an estimate, and says so: a tenured
 * site's objects survive young GCs at 85% or more, so it is the function whose objects survive most
 * in that process (the survivors pass, where there is one), else the JavaScript function that
 * allocates most there. What it cost is read from the same isolate's GC trace: the Mark-Compacts and
 * the old generation's growth after V8 tenured it, beside the time before.
 */
import type { AllocFunctionSummary, AllocSummary, PretenuredSite, PretenuringSummary, SiteCost, SiteOwner, SurvivorsSummary } from '../../shared/model/summary';
import { isFullGc, type GcEvent } from '../gc/gcEvent';
import type { IsolateEvents } from '../gc/gcSummary';
import { round } from '../util/stats';

export interface SiteSources {
  isolates: readonly IsolateEvents[];
  /** Each process's own allocations (`ProcessSummary.alloc`), by pid and isolate. */
  allocOf(pid: number, isolate: string): AllocSummary | null;
  /** The survivors pass (another run of the same program: its functions by name and place); null without one. */
  survivors: SurvivorsSummary | null;
  /**
   * The app's functions the CPU profile saw running under a function (V8 gives an inlined function's
   * allocations to its caller, so the site may be in one of them); [] with exact sites (inlining off).
   */
  calleesOf(f: { url: string; line: number; column: number }): readonly string[];
}

/** The summary with each tenured site's likely function and what tenuring it cost. */
export function namePretenuredSites(p: PretenuringSummary, sources: SiteSources): PretenuringSummary {
  if (p.tenured.length === 0) return p;
  return {
    ...p,
    tenured: p.tenured.map((site) => {
      const events = sources.isolates.find((i) => i.pid === site.pid && i.isolate === site.isolate)?.events ?? [];
      return { ...site, owner: ownerOf(site, sources), cost: costOf(site, events) };
    }),
  };
}

function ownerOf(site: PretenuredSite, sources: SiteSources): SiteOwner | null {
  const js = (f: Pick<AllocFunctionSummary, 'url' | 'line'>) => f.url !== '' && !f.url.startsWith('node:') && f.line > 0;
  // With the survivors pass: the function of the app whose objects outlive young GCs most (a tenured
  // site's objects were alive at V8's weighings; over the run the function may keep less).
  const survivor = (sources.survivors?.functions ?? []).find((f) => js(f) && f.bytes > 0);
  if (survivor) {
    const rate = survivor.survivalRate === null ? '' : `, keeping ${Math.round(Math.min(1, survivor.survivalRate) * 100)}% of what it allocates`;
    const why = `the function of your code whose objects outlive young GCs most (${Math.round(survivor.share * 100)}% of the survivors${rate}; V8 tenured the site with ${Math.round(site.survivalAtTenure * 100)}% of its objects alive)`;
    return withCallees({ name: survivor.name, url: survivor.url, line: survivor.line, column: survivor.column, basis: 'survivors', why }, sources);
  }
  const alloc = sources.allocOf(site.pid, site.isolate);
  const top = alloc?.functions.find((f) => js(f) && f.selfBytes > 0);
  if (!alloc || !top) return null;
  return withCallees({ name: top.name, url: top.url, line: top.line, column: top.column, basis: 'allocations', why: `the function of your code that allocates most in that process (${Math.round(top.share * 100)}% of its bytes)` }, sources);
}

/** The owner with the functions V8 may have inlined into it (the site may be one of theirs). */
function withCallees(owner: SiteOwner, sources: SiteSources): SiteOwner {
  const inlined = sources.calleesOf(owner).filter((name) => name !== owner.name).slice(0, 3);
  return inlined.length > 0 ? { ...owner, inlinedCandidates: inlined } : owner;
}

/** The isolate's full GCs and old-generation growth before and after the site was first tenured; null when its time is unknown. */
function costOf(site: PretenuredSite, events: readonly GcEvent[]): SiteCost | null {
  const at = site.firstTenuredMs;
  if (at === null || events.length === 0) return null;
  const start = events[0]!.timeMs - events[0]!.pauseMs;
  const end = events[events.length - 1]!.timeMs;
  return { atMs: at, before: spanFigures(events, start, at), after: spanFigures(events, at, end) };
}

/**
 * Full GCs in (from, to] on the isolate's clock, their pause, and how much the old generation grew:
 * the heap's growth from each Mark-Compact's end to the next one's start (what survived and what was
 * allocated straight in the old generation), plus from the last one to the span's end. It starts from
 * the heap after the last GC before the span (young generation just emptied), not from the heap
 * before the first GC in it, which holds a full young generation: at a 1 MB semi-space that filled
 * young space hid a growth of up to ~1 MB (Node 26 reported 0 for a site it had just tenured).
 */
function spanFigures(events: readonly GcEvent[], fromMs: number, toMs: number): SiteCost['before'] {
  let markCompacts = 0;
  let pauseMs = 0;
  let grownMB = 0;
  let base: number | null = null;
  let last: GcEvent | null = null;
  for (const e of events) {
    if (e.timeMs <= fromMs) base = e.heapAfterMB;
    if (e.timeMs <= fromMs || e.timeMs > toMs) continue;
    base ??= e.heapBeforeMB;
    last = e;
    if (!isFullGc(e.type)) continue;
    markCompacts++;
    pauseMs += e.pauseMs;
    grownMB += Math.max(0, e.heapBeforeMB - base);
    base = e.heapAfterMB;
  }
  if (last !== null && base !== null) grownMB += Math.max(0, last.heapAfterMB - base);
  const spanMs = Math.max(0, toMs - fromMs);
  return { spanMs: round(spanMs, 1), markCompacts, markCompactMs: round(pauseMs, 3), oldGrowthMB: round(grownMB, 2) };
}
