import type * as http from 'node:http';
import type { Readiness } from '../../shared/model/load';
import * as lazy from '../util/lazyBuiltins';

export type ReadyOutcome = { ready: true; afterMs: number } | { ready: false; reason: string };

export interface ReadinessWatch {
  /** Resolves once the target is ready, or with the reason it is not by the deadline (never rejects). */
  readonly done: Promise<ReadyOutcome>;
  /** The app's output as it arrives (stdout and stderr): a `line` readiness looks for its text there. */
  output(text: string): void;
  /** Stops waiting (the target exited, or the run was cancelled); `done` resolves with reason 'cancelled' unless it already has. */
  cancel(): void;
}

const POLL_EVERY_MS = 100;
const REQUEST_TIMEOUT_MS = 1000;

/**
 * Waits until the target is ready for load: its URL answers (any HTTP status counts: a 404 or a 500
 * still means it listens), or a line of its output contains the given text. Starts at once.
 */
export function watchReadiness(readiness: Readiness): ReadinessWatch {
  const startedAt = Date.now();
  let settled = false;
  let resolveDone!: (outcome: ReadyOutcome) => void;
  const done = new Promise<ReadyOutcome>((r) => (resolveDone = r));
  const timers = new Set<NodeJS.Timeout>();
  let inFlight: http.ClientRequest | null = null;

  const finish = (outcome: ReadyOutcome) => {
    if (settled) return;
    settled = true;
    for (const t of timers) clearTimeout(t);
    inFlight?.destroy();
    resolveDone(outcome);
  };
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const seconds = formatSeconds(readiness.timeoutMs);

  if (readiness.kind === 'url') {
    later(readiness.timeoutMs, () => finish({ ready: false, reason: `never answered ${readiness.url} within ${seconds}` }));
    const poll = () => {
      if (settled) return;
      inFlight = probeUrl(readiness.url, (answered) => {
        inFlight = null;
        if (settled) return;
        if (answered) finish({ ready: true, afterMs: Date.now() - startedAt });
        else later(POLL_EVERY_MS, poll);
      });
    };
    poll();
    return { done, output: () => {}, cancel: () => finish({ ready: false, reason: 'cancelled' }) };
  }

  later(readiness.timeoutMs, () => finish({ ready: false, reason: `never printed '${readiness.text}' within ${seconds}` }));
  let partial = '';
  return {
    done,
    output(text: string) {
      if (settled) return;
      const lines = (partial + text).split('\n');
      partial = (lines.pop() ?? '').slice(-4096);
      // The text may be in a line still being written (no newline yet): look there too.
      if (lines.some((line) => line.includes(readiness.text)) || partial.includes(readiness.text)) {
        finish({ ready: true, afterMs: Date.now() - startedAt });
      }
    },
    cancel: () => finish({ ready: false, reason: 'cancelled' }),
  };
}

/** One GET; `answered` is true when any HTTP response came back. */
function probeUrl(url: string, callback: (answered: boolean) => void): http.ClientRequest {
  let called = false;
  const once = (answered: boolean) => {
    if (called) return;
    called = true;
    callback(answered);
  };
  const client = url.startsWith('https:') ? lazy.https() : lazy.http();
  // Loopback only (checked before the sweep starts), so a self-signed certificate is fine here.
  const request = client.request(url, { method: 'GET', agent: false, timeout: REQUEST_TIMEOUT_MS, rejectUnauthorized: false }, (res) => {
    res.resume();
    once(true);
    request.destroy();
  });
  request.on('timeout', () => request.destroy());
  request.on('error', () => once(false));
  request.on('close', () => once(false));
  request.end();
  return request;
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
