/**
 * The survivors pass beside its run (capture/survivorsPass.ts): the same target run once more, its
 * allocation sampler keeping only what outlived a young GC. V8 runs one sampling heap profiler per
 * isolate, in one mode, so "what a function allocated" and "what of it survived" come from two runs;
 * a function's survival rate holds them against each other per unit of the same work: per request
 * under load, or the whole run when both ran a script to its end. The copy cost is V8's own account
 * of the pass's young GCs (`--trace-gc-nvp`: bytes kept young and promoted, the pause), shared out
 * by each function's part of the survivors.
 */
import { lstat } from 'node:fs/promises';
import { relative } from 'node:path';
import type { SessionRecord } from '../../shared/model/session';
import type { AllocFunctionSummary, Summary, SurvivorFunction, SurvivorsSummary } from '../../shared/model/summary';
import { round } from '../util/stats';
import { urlToPath } from '../v8log/sourcePosition';
import type { RunLayout } from './runLayout';
import { readSessionRecord, readSummaryRecord } from './runRecords';

/** Functions kept in the summary, most surviving bytes first. */
export const MAX_SURVIVOR_FUNCTIONS = 50;

/** What the survivors are and what they are not: said on the page and by the CLI. */
export const SURVIVORS_MEANING =
  'Survivors: what no young GC freed (the scavenger copied it, and promoted it to the old generation when it survived a second one), ' +
  "sampled in a second run of the same program with V8's sampling heap profiler keeping no young garbage. " +
  'Its limits: what was allocated after the last young GC of that run counts as surviving, as does what a full GC freed later, so the figures lean high for a short run; ' +
  'what V8 pretenured (allocated straight into the old generation, see Pretenuring) never met a young GC, so it counts as surviving too; ' +
  'and V8 drops the sample of an object that one scavenge copied and a later one freed, so data that lives about as long as the time between two scavenges leans low.';

type Work = { by: 'requests' | 'fixed work'; main: number; pass: number } | { by: null; why: string };

/** The survivors beside `main` (the run's own summary); null when the run has no survivors pass (`warnings` says why one is unusable). */
export async function readSurvivorsPass(layout: RunLayout, main: Pick<Summary, 'alloc' | 'load'>, mainSession: SessionRecord | null, warnings: string[]): Promise<SurvivorsSummary | null> {
  const info = await lstat(layout.survivorsDir).catch(() => null);
  if (info === null) return null;
  if (!info.isDirectory()) {
    warnings.push('survivors: the survivors folder is not a folder of this run (a link or a file), so it was not read');
    return null;
  }
  const [summary, session] = await Promise.all([readSummaryRecord(layout.survivorsDir), readSessionRecord(layout.survivorsDir)]);
  if (summary.problem) warnings.push(`survivors: ${summary.problem}`);
  const pass = summary.value;
  if (pass === null) {
    if (!summary.problem) warnings.push('survivors: the survivors pass wrote no summary (it was stopped before it ended)');
    return null;
  }
  const alloc = pass.alloc;
  if (!alloc || alloc.mode !== 'survivors') {
    warnings.push('survivors: the survivors pass has no survivors sampled (see its own report: v8-lens report <run>/survivors)');
    return null;
  }
  const work = workOf(main, mainSession, pass, session.value);
  const link = alloc.gcLink ?? null;
  const copying = link && link.copiedBytes !== undefined ? link.copiedBytes + (link.promotedBytes ?? 0) : null;
  const allocated = link?.nvpAllocatedBytes ?? link?.traceAllocatedBytes ?? null;
  const mainBytes = new Map((main.alloc && !main.alloc.mode ? main.alloc.functions : []).map((f) => [placeKey(f), f.selfBytes] as const));
  const functions: SurvivorFunction[] = alloc.functions.filter((f) => f.selfBytes > 0).slice(0, MAX_SURVIVOR_FUNCTIONS).map((f) => {
    const share = alloc.totalBytes > 0 ? f.selfBytes / alloc.totalBytes : 0;
    const allocatedInRun = mainBytes.get(placeKey(f));
    return {
      name: f.name,
      url: f.url,
      line: f.line,
      column: f.column,
      bytes: f.selfBytes,
      share: round(share, 6),
      survivalRate: work.by !== null && allocatedInRun !== undefined && allocatedInRun > 0 ? round(f.selfBytes / work.pass / (allocatedInRun / work.main), 4) : null,
      copiedBytesEstimate: copying === null ? null : Math.round(share * copying),
      copyMsEstimate: link ? round(share * link.youngGcPauseMs, 3) : null,
    };
  });
  return {
    dir: relative(layout.dir, layout.survivorsDir) || '.',
    samplingIntervalBytes: alloc.samplingIntervalBytes,
    totalBytes: alloc.totalBytes,
    bytesPerRequest: alloc.bytesPerRequest,
    survivalShare: allocated !== null && allocated > 0 ? round(Math.min(1, alloc.totalBytes / allocated), 4) : null,
    youngGc: {
      count: link?.youngGcs ?? 0,
      pauseMs: link?.youngGcPauseMs ?? 0,
      copiedBytes: link?.copiedBytes ?? null,
      promotedBytes: link?.promotedBytes ?? null,
    },
    comparedBy: work.by,
    notComparable: work.by === null ? work.why : null,
    functions,
    meaning: SURVIVORS_MEANING,
  };
}

/** How much of the same work each run did, for a function's survival rate; or why the two cannot be compared. */
function workOf(main: Pick<Summary, 'alloc' | 'load'>, mainSession: SessionRecord | null, pass: Summary, passSession: SessionRecord | null): Work {
  if (!main.alloc || main.alloc.mode === 'survivors') return { by: null, why: 'the run did not sample all its allocations (a preset with allocations does), so what each function allocated is unknown' };
  const mainRequests = main.load?.figures?.requests ?? null;
  const passRequests = pass.load?.figures?.requests ?? null;
  if (main.load || pass.load) {
    if (mainRequests && passRequests && main.alloc.bytesPerRequest !== null) return { by: 'requests', main: mainRequests, pass: passRequests };
    return { by: null, why: 'one of the two runs measured no requests under load, so their work cannot be compared' };
  }
  const ranToEnd = (s: SessionRecord | null) => s !== null && s.status === 'finished' && s.exit?.code === 0 && s.exit.requested === null;
  if (ranToEnd(mainSession) && ranToEnd(passSession)) return { by: 'fixed work', main: 1, pass: 1 };
  return { by: null, why: 'the two runs did not both run the program to its end (a server stopped by hand does different work each time): profile it under load, or a script that ends' };
}

/** A function's place in either run: the same script may be named by its path in one CPU profile and by its file:// URL in the other (Node 24 writes either). */
function placeKey(f: Pick<AllocFunctionSummary, 'name' | 'url' | 'line' | 'column'>): string {
  return `${f.name}\u0000${urlToPath(f.url)}\u0000${f.line}\u0000${f.column}`;
}
