/**
 * What V8's pretenuring decisions mean for the run, in one sentence that the CLI, the report page
 * and the lab share. Tenuring a site changes the GC regime: its objects skip the young generation
 * (fewer, cheaper scavenges) and fill the old one (more Mark-Compacts).
 */
import type { PretenuredSite, PretenuringSummary, SiteCostSpan } from './model/summary';

export function pretenuringText(p: PretenuringSummary | null | undefined): string {
  if (p === undefined || p === null) return 'pretenuring: not recorded';
  const unread = p.linesSeen > p.linesRead ? ` (${p.linesSeen - p.linesRead} of V8's ${p.linesSeen} pretenuring lines could not be read)` : '';
  if (p.sitesTenured === 0) {
    return p.sitesWeighed === 0
      ? `V8 weighed no allocation site for pretenuring: every object started young${unread}`
      : `V8 weighed ${p.sitesWeighed} allocation site${s(p.sitesWeighed)} and tenured none: every object started young${unread}`;
  }
  const still = p.sitesEndedTenured === p.sitesTenured ? '' : `, ${p.sitesEndedTenured} still at the end (V8 sent ${p.untenured === 1 ? 'one' : p.untenured} back)`;
  return (
    `V8 tenured ${p.sitesTenured} allocation site${s(p.sitesTenured)}${still}: their objects are allocated straight in the old generation, ` +
    `skipping scavenges but filling the old generation (more Mark-Compacts); a run where V8 decides otherwise is in another GC regime${unread}`
  );
}

function s(n: number): string {
  return n === 1 ? '' : 's';
}

/** A time on an isolate's GC clock in seconds: "0.21 s". */
function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** "build (server.js:8), estimated: the function …"; "function unknown" without an owner. */
export function siteOwnerText(site: PretenuredSite, place: (url: string, line: number, column: number) => string = (u, l) => `${u}:${l}`): string {
  const o = site.owner;
  if (!o) return 'its function is unknown (no allocations were sampled in that process)';
  const inlined = o.inlinedCandidates?.length ? `, or ${o.inlinedCandidates.join(' or ')}, which ran under it and which V8 may have inlined into it` : '';
  return `${o.name} (${place(o.url, o.line, o.column)})${inlined}, estimated: ${o.why}`;
}

/** "build() or (anonymous)()": the names a site's function may have, the likeliest inlined one first. */
export function siteOwnerNames(site: PretenuredSite): string {
  const o = site.owner;
  if (!o) return `site ${site.site}`;
  return [...(o.inlinedCandidates ?? []).slice(0, 1), o.name].map((n) => `${n}()`).join(' or ');
}

/** "after it, 27 Mark-Compacts in 2.90 s (92.1 ms of pause, 9.3 per s), the heap grew 148 MB between them; before, in 0.21 s: none". */
export function siteCostText(site: PretenuredSite): string | null {
  const c = site.cost;
  if (!c) return null;
  const span = (x: SiteCostSpan, when: string) => {
    if (x.spanMs <= 0) return `${when}: no time`;
    const mc = x.markCompacts === 0 ? 'no Mark-Compact' : `${x.markCompacts} Mark-Compact${s(x.markCompacts)} (${x.markCompactMs.toFixed(1)} ms of pause, ${((x.markCompacts * 1000) / x.spanMs).toFixed(1)} per s)`;
    return `${when}, in ${seconds(x.spanMs)}: ${mc}, the old generation grew ${x.oldGrowthMB.toFixed(1)} MB`;
  };
  // Decided in the first second (often at the first scavenges): nothing before it to compare with.
  const before = c.before.spanMs < 1000 ? 'nothing before it to compare with: the lab runs --no-allocation-site-pretenuring against the default' : span(c.before, 'before');
  return `tenured at ${seconds(c.atMs)} of its isolate; ${span(c.after, 'after')}; ${before}`;
}
