/**
 * Load against a target: what to send, for how long, how to know the target is ready, and what the
 * load generator measured. Used by profiling under load, attach under load and the lab alike.
 */

/** How to know the target is ready for load. */
export type Readiness =
  | { kind: 'url'; url: string; timeoutMs: number }
  | { kind: 'line'; text: string; timeoutMs: number };

export interface LoadRequest {
  /** Must be a loopback URL: load tests never leave the machine. */
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
}

export interface LoadSettings {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** null: closed loop (as fast as the target answers); a number: fixed overall req/s. */
  rate: number | null;
  /** Per-request timeout; a timed-out request counts as an error. */
  timeoutSeconds: number;
}

/** What the load generator measured in the measured window. */
export interface LoadFigures {
  requests: number;
  durationSeconds: number;
  rps: number;
  /** autocannon's latencies are whole milliseconds. */
  p50Ms: number;
  p99Ms: number;
  meanLatencyMs: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}
