/**
 * What one report page draws is bounded, whatever the run folder holds: a crafted summary of 5,000
 * processes made a 199 MB page (921 MB to write) and 20,000 an "Invalid string length". The page
 * draws the busiest PAGE_PROCESSES processes (CPU time and GC pause; the first, the launched one,
 * always) and says how many more there are and what they add up to; the warnings list is cut the
 * same way. summary.json and `v8-lens report --json` keep everything.
 */
import type { ProcessSummary, Summary } from '../../shared/model/summary';
import type { ReportModel } from '../../shared/model/reportModel';

export const PAGE_PROCESSES = 100;
export const PAGE_WARNINGS = 50;

function weight(p: ProcessSummary): number {
  const cpu = p.cpu ? p.cpu.sampledMs * (1 - p.cpu.idleShare) : 0;
  return (Number.isFinite(cpu) ? cpu : 0) + (Number.isFinite(p.gc?.totalPauseMs) ? p.gc!.totalPauseMs : 0);
}

const count = (n: number) => n.toLocaleString('en-US');

/** The model as one page may draw it: at most PAGE_PROCESSES processes and PAGE_WARNINGS warnings, the rest summarised. */
export function boundForPage(model: ReportModel): ReportModel {
  // The standalone shell also carries other pages' models (the compare page's), which have no summary to bound.
  if ((model as Partial<ReportModel>).summary === undefined) return model;
  const all = model.summary.processes ?? [];
  let summary: Summary = model.summary;
  let bounded: ReportModel = model;
  if (all.length > PAGE_PROCESSES) {
    const ranked = all.map((p, i) => ({ p, i, w: i === 0 ? Number.POSITIVE_INFINITY : weight(p) })).sort((a, b) => b.w - a.w || a.i - b.i);
    const keptIds = new Set(ranked.slice(0, PAGE_PROCESSES).map((r) => r.p.id));
    const rest = all.filter((p) => !keptIds.has(p.id));
    const restCpuMs = rest.reduce((sum, p) => sum + (p.cpu ? p.cpu.sampledMs * (1 - p.cpu.idleShare) : 0), 0);
    const restGc = rest.reduce((sum, p) => sum + (p.gc?.eventCount ?? 0), 0);
    const note =
      `this page draws the ${count(PAGE_PROCESSES)} busiest of ${count(all.length)} processes and threads; the other ${count(rest.length)} ` +
      `(${count(Math.round(restCpuMs))} ms of CPU and ${count(restGc)} GC events in all) are counted in the run's totals but not drawn: summary.json and v8-lens report --json list every one`;
    summary = {
      ...summary,
      processes: all.filter((p) => keptIds.has(p.id)),
      deopts: summary.deopts.map((d) => (d.processes ? { ...d, processes: d.processes.filter((id) => keptIds.has(id.replace(/\/threads$/, ''))) } : d)),
      warnings: [note, ...summary.warnings],
    };
    const views = model.processes?.filter((v) => keptIds.has(v.id));
    const keptLabels = new Set(views?.map((v) => v.label));
    const trimRoot = <T extends { children?: { name: string }[] } | null | undefined>(root: T): T =>
      root && root.children && model.processes ? { ...root, children: root.children.filter((c) => keptLabels.has(c.name)) } : root;
    bounded = { ...model, flame: trimRoot(model.flame), allocFlame: trimRoot(model.allocFlame), ...(views ? { processes: views } : {}) };
  }
  if (summary.warnings.length > PAGE_WARNINGS) {
    const extra = summary.warnings.length - PAGE_WARNINGS;
    summary = { ...summary, warnings: [...summary.warnings.slice(0, PAGE_WARNINGS), `and ${count(extra)} more warning${extra === 1 ? '' : 's'}: v8-lens report lists them all`] };
  }
  return summary === model.summary ? bounded : { ...bounded, summary };
}
