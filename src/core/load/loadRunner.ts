/**
 * The load generator's process (bundled as dist/load-runner.js, started with child_process.fork).
 * autocannon takes about a core, so it never runs in V8 Lens's own process (the CLI's, or the
 * extension host that every extension shares). It gets one job over IPC, runs the warm-up and then
 * the measured phase, reports ticks and the measured figures, and exits. It dies with its parent:
 * when the IPC channel closes (V8 Lens exited or was killed) it exits at once.
 */
import { everyRequestFailed, type AnswerSample } from './loadUrlCheck';
import type { LoadFigures } from '../../shared/model/load';
import type { LoadJob, LoadPhase, RunnerMessage } from './loadProtocol';

/** The part of autocannon 9's API used here (the package ships no types). */
interface AutocannonOptions {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
  overallRate?: number;
  timeout: number;
}
interface AutocannonHistogram {
  mean: number;
  average: number;
  total: number;
  p50: number;
  p99: number;
}
interface AutocannonResult {
  requests: AutocannonHistogram;
  latency: AutocannonHistogram;
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats?: Record<string, { count: number }>;
}
interface AutocannonInstance {
  on(event: 'response', listener: () => void): void;
  stop(): void;
}
type Autocannon = (options: AutocannonOptions, done: (err: Error | null, result: AutocannonResult) => void) => AutocannonInstance;

// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as Autocannon;

function send(message: RunnerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, undefined, () => resolve());
  });
}

function runPhase(job: LoadJob, phase: LoadPhase, seconds: number): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    let answered = 0;
    const ticker = setInterval(() => {
      void send({ type: 'tick', phase, rps: answered });
      answered = 0;
    }, 1000);
    const instance = autocannon(
      {
        url: job.url,
        method: job.method,
        headers: job.headers,
        ...(job.body !== null ? { body: job.body } : {}),
        connections: job.connections,
        duration: seconds,
        ...(job.rate !== null ? { overallRate: job.rate } : {}),
        timeout: job.timeout,
      },
      (err, result) => {
        clearInterval(ticker);
        if (err) reject(err);
        else resolve(result);
      },
    );
    instance.on('response', () => {
      answered++;
    });
  });
}

function figuresOf(result: AutocannonResult): LoadFigures {
  const requests = result.requests.total;
  const durationSeconds = result.duration;
  return {
    requests,
    durationSeconds,
    rps: durationSeconds > 0 ? requests / durationSeconds : 0,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    meanLatencyMs: result.latency.mean ?? result.latency.average,
    // autocannon counts a timed-out request as an error too; here `errors` are the other failures
    // (connection refused or reset), so errors + timeouts + non2xx is what was lost.
    errors: Math.max(0, result.errors - result.timeouts),
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

function answersOf(result: AutocannonResult): AnswerSample {
  const statuses: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[status] = count;
  return { statuses, errors: Math.max(0, result.errors - result.timeouts), timeouts: result.timeouts };
}

async function run(job: LoadJob): Promise<void> {
  if (job.warmupSeconds > 0) {
    await send({ type: 'phase', phase: 'warmup' });
    const sample = answersOf(await runPhase(job, 'warmup', job.warmupSeconds));
    const stopping = (job.stopWhenWarmupFails ?? false) && everyRequestFailed(sample);
    await send({ type: 'warmup-done', sample, stopping });
    if (stopping) return; // measuring an error path tells nothing: V8 Lens says why
  }
  await send({ type: 'phase', phase: 'measuring' });
  const result = await runPhase(job, 'measuring', job.duration);
  await send({ type: 'result', figures: figuresOf(result) });
}

function main(): void {
  if (!process.send) {
    process.stderr.write('load-runner: this is V8 Lens\'s load generator; it is started by V8 Lens over IPC\n');
    process.exit(2);
  }
  // A terminal's Ctrl-C reaches every process of the foreground group, this one too: V8 Lens decides
  // when the load stops (it kills this process), so the signal alone must not end the measurement.
  process.on('SIGINT', () => {});
  process.on('disconnect', () => process.exit(0));
  process.once('message', (message: LoadJob) => {
    run(message).then(
      () => process.exit(0),
      async (err: unknown) => {
        await send({ type: 'error', message: (err instanceof Error ? err.message : String(err)).split('\n')[0]! });
        process.exit(1);
      },
    );
  });
}

main();
