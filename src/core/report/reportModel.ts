import { readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { buildCpuModel } from '../cpu/cpuModel';
import { parseCpuProfile } from '../cpu/cpuProfileFormat';
import { buildFlameTree, type FlameNode } from '../cpu/flameTree';
import type { GcEvent } from '../gc/gcEvent';
import { readGcTraceFile } from '../run/analyzeRun';
import { runLayout } from '../run/runLayout';
import { sessionMode, type SessionRecord } from '../run/session';
import { attachedToGcEvents, readAttachedGcEvents } from '../attach/gcEventsFile';
import { sessionWindow, splitByWindow } from '../attach/attachWindow';
import type { Summary } from '../summary/types';
import type { GcPoint, ReportModel } from './reportModelTypes';

export type { GcPoint, ReportModel };
import { errorMessage } from '../util/errors';
import { loadReport, sniffArtifact } from './loadReport';


export async function buildReportModel(target: string): Promise<ReportModel> {
  const summary = await loadReport(target);
  const info = await stat(target);
  if (info.isDirectory()) return buildRunModel(target, summary);

  const kind = await sniffArtifact(target);
  const model: ReportModel = { title: basename(target), source: target, summary, session: null, flame: null, gcEvents: [] };
  if (kind === 'cpuprofile') model.flame = await flameFromFile(target, summary);
  if (kind === 'gc-trace') model.gcEvents = await gcPointsFromFile(target, summary);
  return model;
}

async function buildRunModel(dir: string, summary: Summary): Promise<ReportModel> {
  const layout = runLayout(dir);
  const session = await readFile(layout.session, 'utf8').then(
    (text) => JSON.parse(text) as SessionRecord,
    () => null,
  );
  const title = session ? `${basename(session.target.program)}${session.mode === 'attach' ? ' (attached)' : ''} · ${new Date(session.startedAt).toLocaleString('en-GB')}` : basename(dir);
  const model: ReportModel = { title, source: dir, summary, session, flame: null, gcEvents: [] };
  if (summary.cpu) model.flame = await flameFromFile(join(layout.cpuDir, summary.cpu.profile), summary);
  if (session && sessionMode(session) === 'attach') {
    // Attached runs have the observer's events instead of a --trace-gc log.
    model.gcEvents = await readAttachedGcEvents(layout.gcEvents).then(
      ({ events }) => attachedToGcEvents(splitByWindow(events, sessionWindow(session.attach)).inside, session.pid ?? 0).map(toPoint),
      () => [],
    );
  } else {
    model.gcEvents = await gcPointsFromFile(layout.gcTrace, summary).catch(() => []);
  }
  return model;
}

async function flameFromFile(path: string, summary: Summary): Promise<FlameNode | null> {
  try {
    return buildFlameTree(buildCpuModel(parseCpuProfile(await readFile(path, 'utf8'), basename(path))));
  } catch (err) {
    summary.warnings.push(`flame graph: ${errorMessage(err)}`);
    return null;
  }
}

async function gcPointsFromFile(path: string, summary: Summary): Promise<GcPoint[]> {
  const { events } = await readGcTraceFile(path, []);
  const main = summary.gc?.isolate;
  return events.filter((e) => !main || (e.pid === main.pid && e.isolate === main.isolate)).map(toPoint);
}

function toPoint(e: GcEvent): GcPoint {
  return { timeMs: e.timeMs, pauseMs: e.pauseMs, type: e.type, reason: e.reason, heapBeforeMB: e.heapBeforeMB, heapAfterMB: e.heapAfterMB };
}
