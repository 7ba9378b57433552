/**
 * The report view's model: built in the extension host (reportModel.ts), rendered by the webview.
 * Types only, with no Node imports, so the webview bundle can share them.
 */
import type { SessionRecord } from './session';
import type { CpuSummary, DeoptSummaryEntry, GcSummary, ProcessSummary, Summary } from './summary';
import type { FrameCategory } from '../frameCategory';
import type { TimeProfile } from './timeProfile';

/**
 * A call tree for the flame graph, in the shape d3-flame-graph reads (`name`, `value`, `children`)
 * with `selfValue(true)`: `value` is the frame's self time in ms; the library sums totals.
 */
export interface FlameNode {
  name: string;
  /** Self time, ms. */
  value: number;
  children: FlameNode[];
  category: FrameCategory;
  url: string;
  /** 1-based function start; 0 = no position. */
  line: number;
  column: number;
}

/** One GC event on the timeline: what the chart needs, nothing more. */
export interface GcPoint {
  /** ms since the isolate started (V8's own clock, printed at GC end). */
  timeMs: number;
  pauseMs: number;
  type: string;
  reason: string;
  heapBeforeMB: number;
  heapAfterMB: number;
  /** GC time on V8's helper threads (its `background.*` phases), ms; absent when not traced (no --trace-gc-nvp). */
  helperMs?: number;
  /** A young GC's copying, bytes: kept in the young generation (`new_space_survived`) and moved to the old one (`promoted`); absent when not traced. */
  survivedBytes?: number;
  promotedBytes?: number;
}

/** Everything the report view shows for one run or file. */
export interface ReportModel {
  title: string;
  /** The run folder or file it came from. */
  source: string;
  summary: Summary;
  session: SessionRecord | null;
  /** With several processes: one root frame per process and thread under "all". */
  flame: FlameNode | null;
  /**
   * Where the bytes were allocated (sampling heap profiles): `value` is self bytes. With several
   * processes one root per process, like `flame`. Null or absent when the run has no allocations.
   */
  allocFlame?: FlameNode | null;
  /**
   * What outlived a young GC, in bytes (the survivors pass's heap profiles, the whole run: one root
   * per process of the pass). Absent or null without a survivors pass.
   */
  survivorsFlame?: FlameNode | null;
  /**
   * The CPU profile in time order, for the flame chart and for narrowing the views to a time range;
   * on the GC events' clock when it could be lined up. With several processes, null for "all" (each
   * ProcessView has its own). When present, the page builds its flame graph from it and `flame` may be null.
   */
  timeProfile?: TimeProfile | null;
  /**
   * Under load: the warm-up and the measured window on the GC events' clock (ms), for the timeline's
   * bands; null without load or without the clock record to place them.
   */
  loadWindow?: { warmupFromMs: number; fromMs: number; toMs: number; rps?: [number, number][] } | null;
  /** GC events in time order: of the one isolate, or with several processes of all of them. */
  gcEvents: GcPoint[];
  /**
   * 'isolate': `GcPoint.timeMs` counts from the isolate's start (V8's own clock); 'run': from the
   * run's start (several processes, each clock shifted by its process's start). Absent: 'isolate'.
   */
  gcClock?: 'isolate' | 'run';
  /** Each process and thread on its own, for the report's selector; absent or empty for one process. */
  processes?: ProcessView[];
}

/** One process or thread of a multi-process run: what the report shows when it is selected. */
export interface ProcessView {
  id: string;
  /** "worker · pid 4121", "worker thread 1 · pid 4120". */
  label: string;
  process: ProcessSummary;
  flame: FlameNode | null;
  /** Its allocation flame graph (bytes); null or absent without allocations. */
  allocFlame?: FlameNode | null;
  cpu: CpuSummary | null;
  /** Its CPU profile in time order, on its own isolate's clock (see ReportModel.timeProfile). */
  timeProfile?: TimeProfile | null;
  gc: GcSummary | null;
  /** Its own GC events, on its isolate's clock. */
  gcEvents: GcPoint[];
  deopts: DeoptSummaryEntry[];
  /** The load's warm-up and measured window on its isolate's clock (see ReportModel.loadWindow); null or absent without load. */
  loadWindow?: ReportModel['loadWindow'];
}

/** The counters the live banner shows while V8 Lens is attached to a process. */
export interface LiveAttachStatus {
  pid: number | null;
  elapsedSeconds: number;
  gcEvents: number;
  scavenges: number;
  /** Scavenges in the last second. */
  scavengesPerSecond: number;
  /** Heap used after the last GC, MB; null before the first. */
  heapUsedMB: number | null;
  state: 'profiling' | 'saving';
}
