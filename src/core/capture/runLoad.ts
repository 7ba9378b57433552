/**
 * "Profile under load": once the target is ready, drive it with the lab's forked load generator
 * for the chosen time, note the GC of the measured window, then ask the run to stop and collect.
 * The URL may be left to the app: the first loopback URL it prints (servers on a random port).
 */
import type { IsolateGcTally } from '../gc/gcTraceCollector';
import { requireLoopbackUrl } from '../load/loopback';
import { startLoad, type LoadGenerator } from '../load/loadGenerator';
import { watchReadiness, type ReadinessWatch } from '../load/readiness';
import type { LoadSummary } from '../../shared/model/summary';
import { errorMessage } from '../util/errors';
import { probeOnce, urlCheckFailure } from '../load/loadUrlCheck';
/** Profile under load's defaults, the same from the palette and `v8-lens profile --url`. */
export const PROFILE_LOAD_DEFAULTS = {
  connections: 20,
  /** Short: a profile run shows the warm-up in its own timeline; the window is measured after it. */
  warmupSeconds: 1,
  durationSeconds: 10,
  readyTimeoutMs: 30_000,
} as const;

/** An hour of one-second ticks. */
const MAX_RPS_TICKS = 3600;

export interface RunLoadOptions {
  /** null: the first http(s) loopback URL the app prints. */
  url: string | null;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** null: closed loop; else a fixed overall rate, req/s. */
  rate: number | null;
  readyTimeoutMs: number;
  /** dist/load-runner.js */
  loadRunnerPath: string;
  /** Ends the one line said when the URL fails every warm-up request (the CLI: "give the path to load with --url"). */
  badUrlHint?: string;
}

import { gcInWindow, type GcMark } from '../gc/gcWindow';

export interface RunLoadHooks {
  /** Each isolate's GC so far (the window's start and end are read from it). */
  gcTally(): IsolateGcTally[];
  /** Each code trace's size now, by file name: places traced deopts before, in or after the window. */
  codeTraceBytes(): Record<string, number>;
  /** The measured window opens or closes: tell the target's processes (the allocation sampler counts only the window). */
  windowMark?(edge: 'open' | 'close'): void;
  finished(record: LoadSummary): void;
}

interface WindowMark extends GcMark {
  codeTraceBytes: Record<string, number>;
}

const PRINTED_URL = /\bhttps?:\/\/(?:127\.\d+\.\d+\.\d+|localhost|\[::1\]):\d+(?:\/[^\s'"`<>]*)?/;

export class RunLoad {
  private url: string | null;
  private readiness: ReadinessWatch | null = null;
  private generator: LoadGenerator | null = null;
  private printed = '';
  private windowStart: WindowMark | null = null;
  private windowEnd: WindowMark | null = null;
  private record: LoadSummary | null = null;
  private ended = false;
  private urlWaiter: NodeJS.Timeout | null = null;
  private urlFound: ((url: string | null) => void) | null = null;

  constructor(
    private readonly options: RunLoadOptions,
    private readonly hooks: RunLoadHooks,
  ) {
    this.url = options.url;
    void this.drive();
  }

  /** The app's output as it arrives (stdout and stderr). */
  output(text: string): void {
    this.readiness?.output(text);
    if (this.url === null && this.urlFound) {
      this.printed = (this.printed + text).slice(-4096);
      const m = PRINTED_URL.exec(this.printed);
      if (m) this.urlFound(m[0]);
    }
  }

  /** Live throughput for the progress line; null before the measured window. */
  rps: number | null = null;
  /** [epoch ms, req/s] per tick of the load generator. */
  private readonly rpsTimeline: [number, number][] = [];

  /** The run is over (the target exited, or the user stopped or cancelled): stop the load, say what ran. */
  async end(reason: string): Promise<LoadSummary> {
    this.ended = true;
    this.readiness?.cancel();
    if (this.urlWaiter) clearTimeout(this.urlWaiter);
    this.urlFound?.(null);
    await this.generator?.kill();
    return this.record ?? this.summary(null, reason);
  }

  private async drive(): Promise<void> {
    try {
      const url = this.url ?? (await this.waitForPrintedUrl());
      if (url === null || this.ended) return;
      const checked = requireLoopbackUrl(url, 'the load URL').href;
      this.url = checked;
      this.readiness = watchReadiness({ kind: 'url', url: checked, timeoutMs: this.options.readyTimeoutMs });
      const ready = await this.readiness.done;
      if (this.ended) return;
      if (!ready.ready) return this.finish(this.summary(null, ready.reason));
      // The URL is checked before the measured window: by the warm-up, or without one by a probe.
      const hint = this.options.badUrlHint ?? 'give the URL of a path it serves';
      let badUrl = this.options.warmupSeconds > 0 ? null : urlCheckFailure(checked, await probeOnce(checked), 'probe', hint);
      if (this.ended) return;
      if (badUrl !== null) return this.finish(this.summary(null, badUrl));
      this.generator = startLoad(this.options.loadRunnerPath, {
        url: checked,
        method: 'GET',
        headers: {},
        body: null,
        connections: this.options.connections,
        warmupSeconds: this.options.warmupSeconds,
        duration: this.options.durationSeconds,
        rate: this.options.rate,
        timeout: 10,
        stopWhenWarmupFails: true,
      }, {
        onWarmupDone: (sample) => {
          badUrl = urlCheckFailure(checked, sample, 'warm-up', hint);
        },
        onPhase: (phase) => {
          if (phase === 'measuring') {
            this.windowStart = this.mark();
            this.hooks.windowMark?.('open');
          }
        },
        onTick: (phase, rps) => {
          if (phase === 'measuring') this.rps = rps;
          // Each second's answers, warm-up included: the report puts them beside V8's optimizations.
          if (this.rpsTimeline.length < MAX_RPS_TICKS) this.rpsTimeline.push([Date.now(), rps]);
        },
        onResult: () => {
          this.windowEnd = this.mark();
          this.hooks.windowMark?.('close');
        },
      });
      const outcome = await this.generator.done;
      if (this.ended) return;
      this.finish(outcome.ok ? this.summary(outcome.figures, null) : this.summary(null, badUrl ?? `the load generator failed: ${outcome.reason}`));
    } catch (err) {
      if (!this.ended) this.finish(this.summary(null, errorMessage(err)));
    }
  }

  private waitForPrintedUrl(): Promise<string | null> {
    return new Promise((resolve) => {
      this.urlFound = (url) => {
        this.urlFound = null;
        if (this.urlWaiter) clearTimeout(this.urlWaiter);
        resolve(url);
      };
      this.urlWaiter = setTimeout(() => {
        this.urlFound = null;
        this.finish(this.summary(null, `the target printed no http://127.0.0.1:<port> URL within ${Math.round(this.options.readyTimeoutMs / 1000)} s; give the load URL`));
        resolve(null);
      }, this.options.readyTimeoutMs);
    });
  }

  private mark(): WindowMark {
    return { at: Date.now(), isolates: this.hooks.gcTally(), codeTraceBytes: this.hooks.codeTraceBytes() };
  }

  private finish(record: LoadSummary): void {
    this.record = record;
    this.hooks.finished(record);
  }

  private summary(figures: LoadSummary['figures'], error: string | null): LoadSummary {
    const start = this.windowStart;
    const end = this.windowEnd ?? (start ? this.mark() : null);
    // The processes alive in the window are known only from the run folder: analyzeRun refines the share.
    const gc = start && end ? gcInWindow(start, end) : null;
    return {
      url: this.url ?? '(not found)',
      connections: this.options.connections,
      rate: this.options.rate,
      warmupSeconds: this.options.warmupSeconds,
      durationSeconds: this.options.durationSeconds,
      figures,
      failedRequests: figures ? figures.errors + figures.timeouts + figures.non2xx : 0,
      error,
      gcInWindow: gc,
      windowEpochMs: start && end ? { start: start.at, end: end.at } : null,
      codeTraceBytes: start && end ? { start: start.codeTraceBytes, end: end.codeTraceBytes } : null,
      rpsTimeline: [...this.rpsTimeline],
    };
  }
}
