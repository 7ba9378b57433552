/**
 * Two runs under load, compared per request. A run that served 40% more requests had more GC
 * events in total; whether it was worse is a question per request: GC ms and scavenges per 1,000
 * requests, CPU per request, beside req/s, latency and the requests it lost. Every figure comes from
 * the measured window (summary.load): the load generator counts requests only there, and
 * `gcInWindow` is the GC of the same window.
 *
 * CPU per request is the exception: the CPU profile covers the whole run (start-up, warm-up,
 * window, shutdown) and nothing records where the window lies in it, so its busy time over the
 * window's requests overstates a request's cost. With the same warm-up and window lengths it
 * overstates alike in both runs (warm-up requests scale with the window's), so it is shown only
 * then, and says so.
 */
import type { LoadSummary, Summary } from '../../shared/model/summary';
import { round } from '../util/stats';
import type { CompareSide, LoadComparison } from '../../shared/model/compareModel';
import { metricRow, rowCollector } from './metricRow';

/** Busy (not idle) sampled time of each whole profile, ms; null without a profile. */
export interface BusyMs {
  base: number | null;
  other: number | null;
}

const LETTER: Record<CompareSide, string> = { base: 'A', other: 'B' };

/** null when neither run was under load. */
export function compareLoad(a: Summary, b: Summary, busy: BusyMs): LoadComparison | null {
  const la = a.load ?? null;
  const lb = b.load ?? null;
  if (!la && !lb) return null;
  const fa = la?.figures ?? null;
  const fb = lb?.figures ?? null;
  const underLoad = { base: fa !== null, other: fb !== null };
  if (!fa || !fb) return { underLoad, notes: oneSidedNotes({ base: la, other: lb }), rows: [] };

  const rows = rowCollector();
  const add = rows.add;
  const per1k = (n: number | undefined, requests: number) => (n !== undefined && requests > 0 ? round((n / requests) * 1000, 4) : null);
  const ga = la!.gcInWindow;
  const gb = lb!.gcInWindow;

  add(metricRow('load.requests', 'Requests served', 'load', 'count', 'neutral', fa.requests, fb.requests, { hint: 'Answered in the measured window (warm-up not counted): how much work each run did.' }));
  add(metricRow('load.window', 'Measured window', 'load', 'duration', 'neutral', fa.durationSeconds * 1000, fb.durationSeconds * 1000));
  add(metricRow('load.rps', 'Requests per second', 'load', 'req/s', 'higher', fa.rps, fb.rps, { hint: 'Mean throughput in the measured window.' }));
  add(metricRow('load.p50', 'Latency p50', 'load', 'ms', 'lower', fa.p50Ms, fb.p50Ms, { hint: 'Median latency (the load generator measures whole milliseconds).' }));
  add(metricRow('load.p99', 'Latency p99', 'load', 'ms', 'lower', fa.p99Ms, fb.p99Ms));
  add(
    metricRow('load.failed', 'Failed requests', 'load', 'count', 'lower', la!.failedRequests, lb!.failedRequests, {
      hint: `Errors + timeouts + non-2xx answers. A: ${failedParts(fa)}; B: ${failedParts(fb)}.`,
    }),
  );
  add(metricRow('load.gcMsPer1k', 'GC pause per 1,000 requests', 'load', 'ms', 'lower', per1k(ga?.pauseMs, fa.requests), per1k(gb?.pauseMs, fb.requests), { hint: 'GC pause in the measured window × 1,000 / requests served in it.' }));
  add(metricRow('load.scavengesPer1k', 'Scavenges per 1,000 requests', 'load', 'count', 'lower', per1k(ga?.scavenges, fa.requests), per1k(gb?.scavenges, fb.requests), { hint: 'Young-generation GCs in the measured window × 1,000 / requests served in it.' }));
  if ((ga?.markCompacts ?? 0) > 0 || (gb?.markCompacts ?? 0) > 0) {
    add(metricRow('load.markCompactsPer1k', 'Mark-Compacts per 1,000 requests', 'load', 'count', 'lower', per1k(ga?.markCompacts, fa.requests), per1k(gb?.markCompacts, fb.requests)));
  }
  const allocA = a.alloc?.bytesPerRequest ?? null;
  const allocB = b.alloc?.bytesPerRequest ?? null;
  if (a.alloc || b.alloc) {
    add(
      metricRow('load.allocPerRequest', 'Allocated per request', 'load', 'bytes', 'lower', allocA, allocB, {
        hint: 'Bytes allocated in the measured window (sampled, garbage included) / requests served in it: what the code allocates, whatever the GC settings.',
        ...(a.alloc ? {} : { baseText: 'not collected' }),
        ...(b.alloc ? {} : { otherText: 'not collected' }),
      }),
    );
  }
  add(metricRow('load.gcShare', 'GC share of the window', 'load', 'share', 'lower', ga?.wallShare ?? null, gb?.wallShare ?? null, { hint: 'GC pause in the measured window / its wall time; the change is in percentage points.' }));

  const notes = [
    'Per request, in each run’s measured window: req/s, latency and failed requests from the load generator, GC from the trace lines of the same window. More requests in total means more GC in total; these figures say whether each request cost more.',
  ];
  const differs = settingsDiffer(la!, lb!);
  if (differs) notes.push(`The loads differ (${differs}): per-request figures still compare, but req/s and latency depend on the load.`);
  for (const [side, load] of [['base', la!], ['other', lb!]] as const) {
    if (load.failedRequests > 0) notes.push(`${LETTER[side]} lost ${fmtCount(load.failedRequests)} request(s) (${failedParts(load.figures!)}): a run that fails requests is not faster for it.`);
  }

  if (busy.base !== null && busy.other !== null) {
    // The settings, not the measured lengths (those differ by a few ms in any two runs).
    const sameWindows = la!.warmupSeconds === lb!.warmupSeconds && la!.durationSeconds === lb!.durationSeconds;
    if (sameWindows) {
      const perRequest = (ms: number, requests: number) => (requests > 0 ? round(ms / requests, 4) : null);
      add(
        metricRow('load.cpuMsPerRequest', 'CPU per request (whole profile)', 'load', 'ms', 'lower', perRequest(busy.base, fa.requests), perRequest(busy.other, fb.requests), {
          hint: 'Busy (not idle) time of the whole CPU profile / requests in the window: includes start-up, warm-up and shutdown, so it overstates; comparable here because both runs had the same warm-up and window.',
        }),
      );
      notes.push('CPU per request is the whole profile’s busy time over the window’s requests: it includes start-up, warm-up and shutdown, so it overstates a request’s cost, alike in both runs (same warm-up and window).');
    } else {
      notes.push(
        'No CPU per request: the profile covers the whole run but requests are counted in the window only, and with different warm-up or window lengths the share of the profile outside the window differs between the runs.',
      );
    }
  }
  return { underLoad, notes, rows: rows.rows };
}

/** What to say when only one run (or neither) has load figures. */
function oneSidedNotes(loads: Record<CompareSide, LoadSummary | null>): string[] {
  const withFigures = (['base', 'other'] as const).filter((s) => loads[s]?.figures);
  const describe = (side: CompareSide) => {
    const load = loads[side];
    if (!load) return `${LETTER[side]} did not run under load`;
    return `${LETTER[side]}’s load did not run (${load.error ?? 'no figures'})`;
  };
  if (withFigures.length === 1) {
    const side = withFigures[0]!;
    const missing: CompareSide = side === 'base' ? 'other' : 'base';
    const f = loads[side]!.figures!;
    return [
      `Only ${LETTER[side]} ran under load (${fmtCount(Math.round(f.rps))} req/s in a ${fmtNum(f.durationSeconds, 1)} s window); ${describe(missing)}. ` +
        'There is nothing to compare per request, and the whole-run totals below compare different work: they are shown without a verdict.',
    ];
  }
  return [`Neither run has load figures: ${describe('base')}; ${describe('other')}.`];
}

function settingsDiffer(a: LoadSummary, b: LoadSummary): string | null {
  const parts: string[] = [];
  const path = (url: string) => {
    try {
      const u = new URL(url);
      return u.pathname + u.search;
    } catch {
      return url;
    }
  };
  if (path(a.url) !== path(b.url)) parts.push(`URL ${path(a.url)} vs ${path(b.url)}`);
  if (a.connections !== b.connections) parts.push(`${a.connections} vs ${b.connections} connections`);
  if (a.rate !== b.rate) parts.push(`${a.rate === null ? 'as fast as it answers' : `${fmtCount(a.rate)} req/s`} vs ${b.rate === null ? 'as fast as it answers' : `${fmtCount(b.rate)} req/s`}`);
  if (a.warmupSeconds !== b.warmupSeconds) parts.push(`warm-up ${fmtNum(a.warmupSeconds, 1)} vs ${fmtNum(b.warmupSeconds, 1)} s`);
  if (a.durationSeconds !== b.durationSeconds) parts.push(`window ${fmtNum(a.durationSeconds, 1)} vs ${fmtNum(b.durationSeconds, 1)} s`);
  return parts.length > 0 ? `A vs B: ${parts.join(', ')}` : null;
}

function failedParts(f: { errors: number; timeouts: number; non2xx: number }): string {
  return `${fmtCount(f.errors)} errors, ${fmtCount(f.timeouts)} timeouts, ${fmtCount(f.non2xx)} non-2xx`;
}

/**
 * What a total of the whole run should say instead of a verdict, when the runs' load makes totals
 * a measure of how much work was done rather than how well; null when totals can be judged.
 */
export function totalsVerdictNote(load: LoadComparison | null): string | null {
  if (!load) return null;
  if (load.underLoad.base && load.underLoad.other) return 'total · judge per request';
  if (load.underLoad.base || load.underLoad.other) return `not comparable · only ${load.underLoad.base ? 'A' : 'B'} ran under load`;
  return null;
}

function fmtCount(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 0 });
}

function fmtNum(n: number, decimals: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: decimals });
}
