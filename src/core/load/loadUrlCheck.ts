/**
 * "Profile under load" checks the URL before the measured window: when every warm-up request (or,
 * with no warm-up, one probe request) is answered 4xx/5xx or fails, the load would only measure an
 * error path (an app whose `/` is a 404), so the run stops with that reason in one line instead.
 * Used on both sides of the load runner's IPC: the runner stops before measuring, V8 Lens says why.
 */
import * as lazy from '../util/lazyBuiltins';

/** How a batch of requests was answered: responses per HTTP status, and those with no answer. */
export interface AnswerSample {
  statuses: Record<string, number>;
  /** Connection errors (refused, reset), timeouts not included. */
  errors: number;
  timeouts: number;
}

/** The load's request timeout is 10 s; a probe waits as long. */
const PROBE_TIMEOUT_MS = 10_000;

export function requestsIn(sample: AnswerSample): number {
  let n = sample.errors + sample.timeouts;
  for (const count of Object.values(sample.statuses)) n += count;
  return n;
}

/** True when there was at least one request and none got a 1xx–3xx answer. No requests: no evidence. */
export function everyRequestFailed(sample: AnswerSample): boolean {
  if (requestsIn(sample) === 0) return false;
  return Object.entries(sample.statuses).every(([status, count]) => count === 0 || Number(status) >= 400);
}

/**
 * The one line for a URL that failed every request of the sample, else null, e.g. "http://127.0.0.1:3000/
 * answered 404 to all 212 warm-up requests; give the path to load with --url".
 */
export function urlCheckFailure(url: string, sample: AnswerSample, phase: 'warm-up' | 'probe', hint: string): string | null {
  if (!everyRequestFailed(sample)) return null;
  const total = requestsIn(sample);
  const answers = Object.entries(sample.statuses)
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1]);
  const lost = [sample.errors > 0 ? `${sample.errors} connection error${sample.errors === 1 ? '' : 's'}` : '', sample.timeouts > 0 ? `${sample.timeouts} timeout${sample.timeouts === 1 ? '' : 's'}` : ''].filter(Boolean);
  let what: string;
  if (answers.length === 1 && lost.length === 0) what = `answered ${answers[0]![0]}`;
  else if (answers.length === 0) what = `got no answer (${lost.join(', ')})`;
  else what = `answered ${[...answers.map(([status, count]) => `${status} ×${count}`), ...lost].join(', ')}`;
  const to = phase === 'probe' ? 'to the probe request before the measured window' : total === 1 ? 'to the only warm-up request' : `to all ${total.toLocaleString('en-US')} warm-up requests`;
  return `${url} ${what} ${to}; ${hint}`;
}

/** One GET, as the load would send it; never rejects. */
export function probeOnce(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<AnswerSample> {
  return new Promise((resolve) => {
    const sample: AnswerSample = { statuses: {}, errors: 0, timeouts: 0 };
    const get = url.startsWith('https:') ? lazy.https().get : lazy.http().get;
    const request = get(url, { timeout: timeoutMs, agent: false }, (response) => {
      response.resume();
      sample.statuses[String(response.statusCode ?? 0)] = 1;
      response.once('end', () => resolve(sample));
      response.once('error', () => resolve(sample));
    });
    request.once('timeout', () => {
      sample.timeouts = 1;
      request.destroy();
    });
    request.once('error', () => {
      if (sample.timeouts === 0 && requestsIn(sample) === 0) sample.errors = 1;
      resolve(sample);
    });
  });
}
