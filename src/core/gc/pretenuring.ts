/*
 * V8's allocation-site pretenuring, from `--trace-pretenuring-statistics`. At each scavenge V8 weighs
 * every allocation site that made enough allocation mementos since the last one: the share of its
 * objects still alive ("found" / "created"). A site whose objects survive at 85% or more is
 * *tenured*: its objects are then allocated straight in the old generation, which saves scavenges
 * and costs Mark-Compacts. The decision depends on where the first scavenges fall, so the same
 * program can land in either regime from one run to the next (design-notes.md: 109 vs 335
 * scavenges per 1k requests, 120 vs 0 Mark-Compacts). Lines, the same on Node 20–26, printed just
 * before the GC line of the scavenge that weighed them:
 *
 *   [pid:isolate] pretenuring: AllocationSite(0x1a2c…): (created, found, ratio) (2933, 2933, 1.000000) undecided => tenure
 *   [pid:isolate] pretenuring: [threshold=0.85 ]deopt_maybe_tenured=0 visited_sites=1 active_sites=1 mementos=2933 tenured=1 not_tenured=0
 */
import type { PretenuredSite, PretenuringSummary } from '../../shared/model/summary';
import { readIsolatePrefix } from './isolatePrefix';

const MARKER = ' pretenuring: ';
const SITE_LINE = /^AllocationSite\((0x[0-9a-fA-F]+|[0-9A-Fa-f]+)\): \(created, found, ratio\) \((\d+), (\d+), (\d+(?:\.\d+)?)\) ([a-z' ]+?) => ([a-z' ]+?)\s*$/;
/** Sites kept in the summary at most: the tenured ones come first. */
const MAX_SITES_LISTED = 50;

export type PretenureDecision = 'undecided' | "don't tenure" | 'maybe tenure' | 'tenure' | 'zombie';

export interface SiteWeighing {
  pid: number;
  isolate: string;
  site: string;
  created: number;
  found: number;
  ratio: number;
  from: string;
  to: string;
}

/** Whether a stdout line is one of V8's pretenuring lines at all (cheap: called for V8 lines only). */
export function isPretenuringLine(line: string): boolean {
  if (line.charCodeAt(0) !== 91 /* [ */) return false;
  const close = line.indexOf(']');
  if (close < 0 || !line.startsWith(MARKER, close + 1)) return false;
  return readIsolatePrefix(line)?.end === close + 1;
}

/** A site line, or null for the per-scavenge totals line (and anything else). */
export function parseSiteWeighing(line: string): SiteWeighing | null {
  const prefix = readIsolatePrefix(line);
  if (prefix === null || !line.startsWith(MARKER, prefix.end)) return null;
  const m = SITE_LINE.exec(line.slice(prefix.end + MARKER.length));
  if (m === null) return null;
  return { pid: prefix.pid, isolate: prefix.isolate, site: m[1]!, created: Number(m[2]), found: Number(m[3]), ratio: Number(m[4]), from: m[5]!, to: m[6]! };
}

interface SiteState {
  pid: number;
  isolate: string;
  site: string;
  weighings: number;
  created: number;
  found: number;
  decision: string;
  /** ms on its isolate's clock (the GC that weighed it) when first tenured; NaN until then, or when no GC line followed. */
  firstTenuredMs: number;
  tenuredRatio: number;
  timesTenured: number;
  timesUntenured: number;
}

/**
 * Reads the pretenuring lines of a run as they come, beside its GC lines: a decision gets the time
 * of the GC line that follows it on the same isolate (V8 prints the weighing first).
 */
export class PretenuringCollector {
  private readonly sites = new Map<string, SiteState>();
  /** Per isolate, sites tenured since its last GC line, waiting for that GC's time. */
  private readonly waiting = new Map<string, SiteState[]>();
  private seen = 0;
  private read = 0;

  /** Takes the line when it is a pretenuring line; returns whether it was. */
  addLine(line: string): boolean {
    if (!isPretenuringLine(line)) return false;
    this.seen++;
    if (line.includes('AllocationSite(')) {
      const w = parseSiteWeighing(line);
      if (w !== null) {
        this.read++;
        this.weigh(w);
      }
    } else {
      this.read++; // the per-scavenge totals line: nothing in it that the site lines do not say
    }
    return true;
  }

  /** Whether a decision waits for the next GC line's time (most of the time none does). */
  get waitingForGc(): boolean {
    return this.waiting.size > 0;
  }

  /** Called for every GC event, in order: dates the decisions printed before it. */
  noteGc(pid: number, isolate: string, timeMs: number): void {
    if (this.waiting.size === 0) return;
    const key = `${pid}:${isolate}`;
    const list = this.waiting.get(key);
    if (list === undefined) return;
    for (const s of list) if (Number.isNaN(s.firstTenuredMs)) s.firstTenuredMs = timeMs;
    this.waiting.delete(key);
  }

  summary(): PretenuringSummary {
    const all = [...this.sites.values()];
    const everTenured = all.filter((s) => s.timesTenured > 0);
    const listed: PretenuredSite[] = everTenured
      .sort((a, b) => b.created - a.created)
      .slice(0, MAX_SITES_LISTED)
      .map((s) => ({
        pid: s.pid,
        isolate: s.isolate,
        site: s.site,
        firstTenuredMs: Number.isNaN(s.firstTenuredMs) ? null : s.firstTenuredMs,
        survivalAtTenure: s.tenuredRatio,
        endedTenured: s.decision === 'tenure',
        timesTenured: s.timesTenured,
        timesUntenured: s.timesUntenured,
        weighings: s.weighings,
        mementosCreated: s.created,
        mementosFound: s.found,
      }));
    return {
      linesSeen: this.seen,
      linesRead: this.read,
      sitesWeighed: all.length,
      sitesTenured: everTenured.length,
      sitesEndedTenured: everTenured.filter((s) => s.decision === 'tenure').length,
      untenured: everTenured.reduce((n, s) => n + s.timesUntenured, 0),
      tenured: listed,
    };
  }

  private weigh(w: SiteWeighing): void {
    const key = `${w.pid}:${w.isolate}:${w.site}`;
    let s = this.sites.get(key);
    if (s === undefined) {
      s = { pid: w.pid, isolate: w.isolate, site: w.site, weighings: 0, created: 0, found: 0, decision: w.from, firstTenuredMs: Number.NaN, tenuredRatio: Number.NaN, timesTenured: 0, timesUntenured: 0 };
      this.sites.set(key, s);
    }
    s.weighings++;
    s.created += w.created;
    s.found += w.found;
    // V8 can send every tenured site back (its "low survival rate in the old generation" reset)
    // without a line: the weighing's own "from" tells.
    if (s.decision === 'tenure' && w.from !== 'tenure') s.timesUntenured++;
    const wasTenured = w.from === 'tenure';
    if (w.to === 'tenure' && !wasTenured) {
      s.timesTenured++;
      if (s.timesTenured === 1) {
        s.tenuredRatio = w.ratio;
        const isolateKey = `${w.pid}:${w.isolate}`;
        const list = this.waiting.get(isolateKey);
        if (list) list.push(s);
        else this.waiting.set(isolateKey, [s]);
      }
    } else if (wasTenured && w.to !== 'tenure') {
      s.timesUntenured++;
    }
    s.decision = w.to;
  }
}
