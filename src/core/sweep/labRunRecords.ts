/**
 * A lab run's folder as a run folder like any other: session.json (how it was launched, with the
 * swept flag's value in its title), load.json (the measured window's figures) and summary.json
 * (the same analysis a profile gets: its CPU profile, GC trace and allocations). So a lab run opens
 * as a report, appears in Sessions under its sweep, and two settings compare with Compare Runs.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import type { LoadSummary } from '../../shared/model/summary';
import type { SessionRecord } from '../../shared/model/session';
import { sweepFlag, type SweepConfig, type SweepRun } from '../../shared/model/sweep';
import { flagArg, sweepFlagInfo } from '../../shared/sweepFlags';
import type { LaunchCommand } from '../flags/launchPlan';
import type { TargetExit } from '../launcher/launchTarget';
import type { AgentRecord } from '../preload/agentRecord';
import { summarizeRunFolder, writeRunJson } from '../run/runFolderWriter';
import { runLayout } from '../run/runLayout';
import { TOOL_VERSION } from '../util/version';
import { DEFAULT_ALLOC_SAMPLING_BYTES, DEFAULT_SAMPLING_INTERVAL_US } from '../flags/presets';

export interface LabRunFacts {
  dir: string;
  config: SweepConfig;
  script: string;
  cwd: string;
  launch: LaunchCommand;
  /** null for a measured run: it has the GC trace alone (see runLaunch). */
  cpuSamplingUs: number | null;
  allocSamplingBytes: number | null;
  run: SweepRun;
  pid: number | null;
  exit: TargetExit | null;
  record: AgentRecord | null;
  /** The measured window, epoch ms; null when the run never reached it. */
  window: { start: number; end: number } | null;
  stderrTail: string[];
}

/** "server.js · max-semi-space-size=64 MB · round 1": what Sessions and the report call the run. */
export function labRunName(config: SweepConfig, run: Pick<SweepRun, 'value' | 'round' | 'purpose'>): string {
  const flag = sweepFlag(config);
  const unit = sweepFlagInfo(flag).unit;
  const which = run.purpose === 'profile' ? 'profiling run' : run.purpose === 'survivors' ? 'survivors run' : `round ${run.round}`;
  return `${config.target.label} · ${flag}=${run.value}${unit ? ` ${unit}` : ''} · ${which}`;
}

export async function writeLabRunRecords(facts: LabRunFacts): Promise<void> {
  const layout = runLayout(facts.dir);
  const { run, config, record, exit } = facts;
  const endedAt = new Date();
  const session: SessionRecord = {
    schemaVersion: 1,
    tool: { name: 'v8-lens', version: TOOL_VERSION },
    status: run.status === 'ok' ? 'finished' : run.status === 'cancelled' ? 'cancelled' : exit && exit.requested === null ? 'crashed' : 'failed',
    mode: 'launch',
    node: { command: facts.launch.command, execPath: record?.argv[0] ?? facts.launch.command, version: record?.nodeVersion ?? 'unknown', v8Version: record?.v8Version ?? 'unknown' },
    target: { kind: 'script', program: facts.script, args: config.target.args, cwd: facts.cwd, name: labRunName(config, run) },
    launch: { mode: 'direct', command: facts.launch.command, argv: facts.launch.args, env: facts.launch.env, limitations: run.reason ? [`lab run: ${run.reason}`] : [] },
    flags: {
      preset: 'lab',
      capture: { cpu: facts.cpuSamplingUs !== null, gc: true, deopts: false, alloc: facts.allocSamplingBytes !== null },
      samplingIntervalUs: facts.cpuSamplingUs ?? DEFAULT_SAMPLING_INTERVAL_US,
      semiSpaceMB: run.semiSpaceMB,
      stableDeopts: false,
      extra: [...config.target.nodeArgs, ...(run.semiSpaceMB === null ? [flagArg(run.flag, run.value)] : [])],
      allocSamplingBytes: facts.allocSamplingBytes ?? DEFAULT_ALLOC_SAMPLING_BYTES,
      exactAllocSites: false,
      ...(run.purpose === 'survivors' ? { allocMode: 'survivors' as const } : {}),
      ...(run.purpose !== undefined && run.purpose !== 'measure' ? { gcPhases: true } : {}),
      inheritedNodeOptions: null,
      timeoutS: null,
    },
    pid: facts.pid,
    startedAt: run.startedAt,
    endedAt: endedAt.toISOString(),
    durationMs: exit?.durationMs ?? endedAt.getTime() - Date.parse(run.startedAt),
    exit: exit ? { code: exit.code, signal: exit.signal, requested: exit.requested, hardKilled: exit.hardKilled } : null,
    stderrTail: facts.stderrTail,
    machine: { platform: process.platform, cpus: cpus().length, loadavg: loadavg(), totalMemMB: Math.round(totalmem() / 2 ** 20) },
  };
  await writeRunJson(layout.session, session);
  const { load: settings, request } = config;
  const gc = run.gc;
  const load: LoadSummary = {
    url: request.url,
    connections: settings.connections,
    rate: settings.rate,
    warmupSeconds: settings.warmupSeconds,
    durationSeconds: settings.durationSeconds,
    figures: run.load,
    failedRequests: run.failedRequests ?? 0,
    error: run.load ? null : run.reason,
    gcInWindow: gc ? { events: gc.scavenges + gc.markCompacts, scavenges: gc.scavenges, markCompacts: gc.markCompacts, pauseMs: gc.totalPauseMs, wallShare: run.gcWallShare ?? 0 } : null,
    windowEpochMs: facts.window,
    codeTraceBytes: null,
  };
  await writeRunJson(layout.load, load);
  await writeRunJson(layout.summary, await summarizeRunFolder(layout, session));
}
