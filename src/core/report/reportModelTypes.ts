/**
 * The report view's model: built in the extension host (reportModel.ts), rendered by the webview.
 * Types only, with no Node imports, so the webview bundle can share them.
 */
import type { SessionRecord } from '../run/session';
import type { Summary } from '../summary/types';
import type { FrameCategory } from './frameCategory';

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
}

/** Everything the report view shows for one run or file. */
export interface ReportModel {
  title: string;
  /** The run folder or file it came from. */
  source: string;
  summary: Summary;
  session: SessionRecord | null;
  flame: FlameNode | null;
  /** The main isolate's GC events, in time order. */
  gcEvents: GcPoint[];
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
