/**
 * The survivors pass (`v8-lens profile --survivors`, the editor's "allocations.survivors" setting):
 * after the run, the same target once more, its allocation sampler keeping only what outlived a
 * young GC (preload/allocationSampler.ts), with V8's GC phases (`--trace-gc-nvp`: what each scavenge
 * copied and promoted, the helper threads' time) and the CPU profile (to place the functions V8
 * leaves without a position). V8 runs one sampling heap profiler per isolate, in one mode: that is
 * why it is a second run. It writes a run folder of its own inside the run's (`survivors/`); the
 * run's summary then holds each function's survivors beside what it allocated (run/runSurvivors.ts).
 *
 * The pass does the same work as the run: under load, the same load (figures per request); a script
 * that ran to its end runs to its end again; a run stopped by hand is given the same time, and then
 * its survivors have no rate (not the same work).
 */
import type { ProfileRequest, RunResult } from './profileRun';
import { ProfileRun, type AppOutput } from './profileRun';
import type { CaptureOptions } from '../flags/captureOptions';
import { summarizeRunFolder, writeRunJson } from '../run/runFolderWriter';
import { writeErrorText } from '../util/safeWrite';

/** What the pass collects: the GC trace as V8's phases, the CPU profile, and survivors; never deopts (their log changes nothing here). */
/** Bytes between the survivors pass's samples at most (the inspector's own default). */
export const SURVIVORS_SAMPLING_BYTES = 32768;

export function survivorsPassOptions(options: CaptureOptions): CaptureOptions {
  // Finer than the run's own sampling: a survivor is a small share of what is allocated, and at
  // 512 KB Node 24 gave a short script's garbage maker 92% "survival"; the pass's speed is no figure.
  const allocSamplingBytes = Math.min(options.allocSamplingBytes, SURVIVORS_SAMPLING_BYTES);
  return { ...options, allocSamplingBytes, capture: { cpu: true, gc: true, deopts: false, alloc: true }, allocMode: 'survivors', gcPhases: true };
}

/** The pass's request, or null when the run ended so that a pass would say nothing (cancelled, crashed). */
export function survivorsPassRequest(request: ProfileRequest, first: RunResult): ProfileRequest | null {
  if (first.outcome === 'cancelled' || first.outcome === 'crashed' || first.session.status === 'failed') return null;
  // A run stopped by hand (no load): the pass gets the same time, and stops itself.
  const sameTime = !request.load && first.outcome === 'stopped' && first.session.durationMs !== null ? Math.max(1, Math.ceil(first.session.durationMs / 1000)) : null;
  return {
    ...request,
    preset: null,
    options: survivorsPassOptions(request.options),
    runDir: first.layout.survivorsDir,
    timeoutS: sameTime ?? request.timeoutS,
    name: `${request.name ?? ''}${request.name ? ' ' : ''}(survivors pass)`.trim(),
  };
}

/** Why there was no pass after `first`, in one line; null when there is one. */
export function noSurvivorsPassReason(first: RunResult): string | null {
  if (first.outcome === 'cancelled') return 'survivors: the run was cancelled, so the survivors pass did not run';
  if (first.outcome === 'crashed' || first.session.status === 'failed') return 'survivors: the run did not end well, so the survivors pass did not run';
  return null;
}

/** Starts the pass; the caller may stop or cancel it as it does the run. */
export async function startSurvivorsPass(request: ProfileRequest, output: AppOutput): Promise<ProfileRun> {
  return ProfileRun.start(request, output);
}

/**
 * The run's result with its survivors: the pass's figures read beside the run's own allocations,
 * written into the run's summary.json. The pass's own problems become warnings of the run.
 */
export async function withSurvivors(first: RunResult, pass: RunResult | null, problem: string | null): Promise<RunResult> {
  // With the pass there, the run is read again: its survivors, and the tenured sites named by them.
  const summary = pass ? await summarizeRunFolder(first.layout, first.session) : { ...first.summary, warnings: [...first.summary.warnings] };
  // What only the run's own end could say (a hard kill, a stray process) stays.
  for (const w of first.summary.warnings) if (!summary.warnings.includes(w)) summary.warnings.push(w);
  if (problem) summary.warnings.push(problem);
  if (pass?.problem) summary.warnings.push(`survivors pass: ${pass.problem}`);
  await writeRunJson(first.layout.summary, summary).catch((err: unknown) => summary.warnings.push(`summary.json could not be written (${writeErrorText(err)})`));
  return { ...first, summary };
}
