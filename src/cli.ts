/**
 * `v8-lens`: the command line over the same engine the editor uses.
 *   v8-lens profile [options] -- <script.js | command> [args…]
 *   v8-lens report <run folder | file.cpuprofile | file.heapprofile | file.pb.gz | gc-trace.log | v8.log> [--json] [--html FILE]
 *   v8-lens compare <run A> <run B> [--json]
 *   v8-lens compare <baseline> <candidate> --fail-on RULES [--json] [--summary FILE]
 *   v8-lens export <run folder | file.cpuprofile | file.heapprofile> --pprof OUT.pb.gz [--type cpu|alloc]
 *   v8-lens sweep [options] [--flag NAME --values LIST] --url URL -- <script.js> [args…]
 *   v8-lens predict <run folder> [--json]
 *   v8-lens attach <pid | host:port | ws://url> [options]
 */
import { existsSync, statSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { attachAndProfile } from './core/attach/attachRun';
import { formatHostPort, parseInspectorAddress } from './core/attach/inspectorAddress';
import { resolveInspector } from './core/attach/inspectorDiscovery';
import { loadRunnerPath, preloadAgentPath } from './core/launcher/bundledScripts';
import { ProfileRun, type AppOutput, type ProfileRequest, type RunResult } from './core/capture/profileRun';
import { noSurvivorsPassReason, startSurvivorsPass, survivorsPassRequest, withSurvivors } from './core/capture/survivorsPass';
import { PROFILE_LOAD_DEFAULTS } from './core/capture/runLoad';
import type { ProfileTarget } from './core/targets/profileTarget';
import { captureOptionsFor } from './core/flags/captureOptions';
import { ALLOC_SAMPLING_BYTES_RANGE, DEFAULT_ALLOC_SAMPLING_BYTES, DEFAULT_PRESET, DEFAULT_SAMPLING_INTERVAL_US, PRESETS, PRESET_IDS, isPresetId, type CaptureSet } from './core/flags/presets';
import { buildCompareModel } from './core/report/compareModel';
import { requireComparablePair } from './core/report/comparePair';
import { formatCompareText } from './core/report/compareText';
import { loadReport } from './core/report/loadReport';
import { buildReportModel } from './core/report/reportModel';
import { exportPprof } from './core/report/exportPprof';
import { GATE_METRICS, GATE_METRIC_IDS } from './core/gate/gateMetrics';
import { formatGateMarkdown } from './core/gate/gateMarkdown';
import { parseFailOn } from './core/gate/gateRules';
import { GATE_DEFAULTS, runGate, type GateOptions } from './core/gate/runGate';
import { readReportAssets, standaloneReportHtml } from './core/report/reportPage';
import { formatTextReport } from './core/report/textReport';
import { readRunPrediction } from './core/run/readRunPrediction';
import { freeFolderIn, runFolderLabel, runFolderStamp } from './core/run/runFolderName';
import { predictionLines } from './core/report/predictionReport';
import { directLaunchHint, directLaunchOfNpmScript, nodeOptionsLaunchNotice, npmScriptCall } from './core/targets/npmLaunch';
import { requireLoopbackUrl } from './core/load/loopback';
import { runSweep } from './core/sweep/runSweep';
import { parseSweepFlagName } from './core/sweep/sweepFlagCheck';
import { CONFIRM_ROUNDS, sweepConfigFromRun } from './core/sweep/sweepFromRun';
import { predictionCheckLines } from './core/sweep/predictionCheckText';
import { formatValueWithUnit, isOldSpaceFlag, sweepFlagInfo } from './shared/sweepFlags';
import { formatSweepTable } from './core/sweep/sweepTable';
import { SWEEP_DEFAULTS } from './shared/labForm';
import type { Readiness } from './shared/model/load';
import { SEMI_SPACE_FLAG, sweepFlag, sweepValues, type SweepConfig, type SweepProgress, type SweepRun } from './shared/model/sweep';
import { UserError, errorMessage, isErrno } from './core/util/errors';
import { OutputPipe } from './core/util/outputPipe';
import { appendFileWhole, isBadPathError, writeErrorText, writeFileWhole } from './core/util/safeWrite';
import { clipText, jsonForTerminal, safeForTerminal } from './core/util/terminalText';
import { TOOL_VERSION } from './core/util/version';
import { progressLine } from './core/util/progressLine';
import { EXIT } from './core/util/exitCodes';

const ATTACH_DEFAULT_DURATION_S = 10;

const USAGE = `V8 Lens ${TOOL_VERSION}: profile Node.js with V8 flags (CPU profile, GC trace, deopts)

Usage:
  v8-lens profile [options] -- <script.js | command> [args…]
  v8-lens report <run folder | file.cpuprofile | file.heapprofile | file.pb.gz | gc-trace.log | v8.log> [--json] [--html FILE]
  v8-lens compare <run A> <run B> [--json]
  v8-lens compare <baseline> <candidate> --fail-on RULES [--json] [--summary FILE]
  v8-lens export <run folder | file.cpuprofile | file.heapprofile> --pprof OUT.pb.gz [--type cpu|alloc]
  v8-lens sweep [options] --url URL -- <script.js> [args…]
  v8-lens sweep --from-run <run folder> [options]
  v8-lens predict <run folder> [--json]
  v8-lens attach <pid | host:port | ws://url> [options]

profile options:
  --out DIR         run folder to write (default: .v8-lens/runs/<time>-<name>)
  --preset ID       what to collect: ${PRESET_IDS.join(', ')} (default ${DEFAULT_PRESET})
  --semi-space MB   --max-semi-space-size for the target
  --interval US     CPU sampling interval in microseconds (default ${DEFAULT_SAMPLING_INTERVAL_US})
  --stable-deopts   add --no-concurrent-recompilation so deopts repeat run to run
  --alloc-interval B
                    bytes between allocation samples (default ${DEFAULT_ALLOC_SAMPLING_BYTES}; smaller is
                    finer and slower: 32768 made an allocation-heavy script 17-25% slower)
  --exact-alloc-sites
                    sample allocations with V8's inlining off, so an inlined function's bytes are
                    its own, not its caller's (changes performance: for finding sites only)
  --survivors       then run the target once more, sampling only what no young GC frees (what
                    the scavenger copies and promotes): per function its survivors, their share of
                    what it allocated (per request under load, or a script run to its end) and
                    their estimated copy cost, in <run>/survivors; V8 runs one sampler per isolate
  --gc-phases       trace GC as V8's phases (--trace-gc-nvp): the helper threads' GC time and what
                    each scavenge copied; V8 prints no GC reason in them before Node 26
  --v8-flag FLAG    another V8 or Node flag, checked against the target's Node (repeatable)
  --timeout S       stop the target gracefully after S seconds (servers)
  --node PATH       the Node that runs the target (default: node on PATH)
  --json            print summary.json instead of the text summary
  under load (a server: wait until it answers, drive it, then stop and collect):
  --url URL|auto    the loopback URL to load; auto: the first http://127.0.0.1:<port> it prints
  --duration S      the measured load window (default ${PROFILE_LOAD_DEFAULTS.durationSeconds})
  --connections N   concurrent connections (default ${PROFILE_LOAD_DEFAULTS.connections})
  --rate R          a fixed overall rate in req/s instead of as fast as it answers
  --warmup S        load before the measured window (default ${PROFILE_LOAD_DEFAULTS.warmupSeconds})

report options:
  --json            print summary.json instead of the text summary
  --html FILE       write the report (flame graph, GC timeline, tables) as one self-contained
                    HTML file, e.g. to attach to a ticket

export options (for continuous profilers: Pyroscope, Parca, Datadog, Cloud Profiler; and go tool pprof):
  --pprof FILE      write a gzipped pprof (profile.proto): CPU as samples/count and cpu/nanoseconds,
                    allocations as alloc_space/bytes (garbage included; V8's samples give no object
                    counts), one location per frame (function, file, 1-based line); a run's Node,
                    flags and load figures as comments, and pid/process labels on the samples of a
                    run of several processes
  --type cpu|alloc  what to export from a run that has both (default cpu)

compare options (A is the base, every change is B − A; two run folders, or two .cpuprofile
files, or two GC traces):
  --json            print the comparison (the compare view's model: both runs, the figures with
                    their change and verdict, per request under load, the biggest self-time
                    changes, the moved functions) without the merged call tree
  the regression gate, for CI (each side: a run folder, a profile, or a folder of run folders,
  one per round; exit 0 pass, 1 a rule broken or not measured, 2 usage):
  --fail-on RULES   comma-separated FIGURE:+N% (a rise beyond N% fails), FIGURE:-N% (a fall),
                    or without % in the figure's unit, e.g. "cpu.self:+10%,gc.msPer1k:+15%";
                    repeatable (the rules add up; a figure given twice is an error). On a
                    baseline of 0 a % rule is held as absolute growth; functions with fewer than
                    20 samples (or 1% of the on-CPU ones) on both sides are shown, not held.
                    A change inside the noise never fails: with 3+ runs per side it must pass
                    the Mann-Whitney U test (p < 0.05 from 4 a side; at 3 vs 3 ranges that do
                    not overlap) and, for self times, V8's sampling noise; with fewer runs the
                    limit is held against the measured change, and the output says so.
                    Figures:
${GATE_METRIC_IDS.map((id) => `                      ${id.padEnd(22)}${GATE_METRICS[id].description}`).join('\n')}
  --missing X       a rule that measured nothing on a side (a CPU rule, a run without a CPU
                    profile): fail (the default: exit 1), error (exit 2), or ignore (left out,
                    and the summary says so)
  --allow-failed    hold runs that crashed, were cancelled or never finished (refused: exit 1)
  --allow-mixed     gate inputs of different kinds, a run folder against a pprof (refused: exit 1)
  --summary FILE    also append the Markdown table to FILE (e.g. $GITHUB_STEP_SUMMARY)
  --json            print every figure, run value and verdict as JSON instead of the Markdown

sweep options (compare values of one V8 flag under load, --max-semi-space-size unless --flag
says otherwise; a fresh process per run):
  --url URL         the loopback URL the load generator requests (required)
  --flag NAME       the numeric V8 or Node flag to sweep, without the dashes (default
                    max-semi-space-size): max-old-space-size, semi-space-growth-factor,
                    min-semi-space-size, or any other that takes a number; checked against
                    the target's Node before anything starts; or allocation-site-pretenuring
                    with --values 1,0: V8's default against --no-allocation-site-pretenuring
  --values LIST     the flag's values, comma-separated, the first one the baseline; MB for the
                    sizes (e.g. --flag max-old-space-size --values 256,512,1024)
  --sizes LIST      semi-space sizes in MB: --values for the default flag
                    (default ${SWEEP_DEFAULTS.semiSpaceSizesMB.join(',')})
  --rounds N        runs per value, interleaved and rotated (default ${SWEEP_DEFAULTS.rounds})
  --warmup S        load before each measurement, discarded (default ${SWEEP_DEFAULTS.warmupSeconds})
  --duration S      the measured window (default ${SWEEP_DEFAULTS.durationSeconds})
  --connections N   concurrent connections (default ${SWEEP_DEFAULTS.connections})
  --rate R          a fixed overall rate in req/s instead of as fast as it answers
  --timeout S       per-request timeout; a timeout makes the run invalid (default ${SWEEP_DEFAULTS.requestTimeoutSeconds})
  --pin-min         also set --min-semi-space-size, so the new space starts full size
                    (semi-space sweeps only)
  --no-profile-rounds
                    skip the profiling run per value (CPU profile + allocation samples for the
                    reports and the bytes-per-request column)
  --survivors       after the profiling runs, one survivors run per value: the allocation sampler keeps
                    only what no young GC frees; the table gets survived / req (of allocated)
  --v8-flag FLAG    another V8 or Node flag for every run (repeatable), e.g. --v8-flag=--max-semi-space-size=1
                    beside a pretenuring sweep; checked against the target's Node
  --on-failure X    continue (default) or stop after the first invalid run
  --ready-url URL   ready once this answers (default: once --url answers, any status)
  --ready-line TEXT ready once the target prints a line containing TEXT
  --ready-timeout S how long a run may take to get ready (default ${SWEEP_DEFAULTS.readyTimeoutSeconds})
  --node PATH       the Node that runs the target (default: node on PATH)
  --out DIR         sweep folder (default: .v8-lens/sweeps/<time>)
  --json            print sweep.json instead of the table
  --from-run RUN    confirm a run's prediction (v8-lens predict RUN): its target, URL and load, at
                    its semi-space, the recommended one and one between (--sizes to choose), each
                    pinned from the start (--min-semi-space-size), ${CONFIRM_ROUNDS} rounds unless --rounds; the
                    table ends with predicted beside measured and the error

predict options (what a bigger young generation would do, from one run's GC trace: per 1k
requests of a run under load, per second of one without; confirm it with sweep --from-run):
  --json            print the prediction (summary.json's "prediction") instead of the table

attach options (profile a process that is already running, over its inspector):
  --duration S      how long to profile (default ${ATTACH_DEFAULT_DURATION_S}); Ctrl-C stops early and keeps the profile
  --interval US     CPU sampling interval in microseconds (default ${DEFAULT_SAMPLING_INTERVAL_US})
  --alloc-interval B
                    bytes between allocation samples (default ${DEFAULT_ALLOC_SAMPLING_BYTES}); the sampler is
                    removed from the target when V8 Lens detaches
  --no-alloc        do not sample allocations
  --out DIR         run folder to write (default: .v8-lens/runs/<time>-attach-<pid>)
  --open-inspector  a pid without an open inspector: open it with SIGUSR1 (it stays open
                    until the process ends)
  --allow-remote    allow a host that is not loopback (the inspector is full code execution)
  --json            print summary.json instead of the text summary

A JS file is started as node <flags> file; anything else (npm run start) is started as is,
with the flags in NODE_OPTIONS. Ctrl-C stops the target and keeps its profile; twice kills it.
A sweep's measured runs start node <your node args> --trace-gc --trace-pretenuring-statistics
--<flag>=V [--min-semi-space-size=V] --require <V8 Lens preload> <script> itself: the GC trace and
V8's pretenuring decisions, nothing else (the preload only stops the target gracefully and reads
its young generation; it loads no profiler). Then one profiling run per value adds --cpu-prof and
allocation sampling (every 256 KB), for the reports and the allocations only: no figure of the
comparison comes from it. It load-tests only loopback URLs; failed requests (errors, timeouts, non-2xx) make a run
invalid, and a value that loses any is never recommended. Rounds in which V8 tenured an
allocation site and rounds in which it did not are two GC regimes: such a value is said, not
compared. Ctrl-C cancels it and keeps the finished runs.

Exit codes (every command):
  0    done (warnings say what is partial)
  1    the target failed, a write failed (full disk), the input is bad, or a gate rule broke or measured nothing
  2    usage: an unknown option, a missing argument, a bad value
  70   internal error in V8 Lens (V8_LENS_DEBUG=1 prints the stack)
  130  cancelled (Ctrl-C); what was collected is kept
`;

const COMMANDS = ['profile', 'report', 'compare', 'export', 'sweep', 'predict', 'attach'] as const;

/** `v8-lens <command> --help`: that command's usage line and options, and the exit codes. */
function commandHelp(command: (typeof COMMANDS)[number]): string {
  const paragraphs = USAGE.split('\n\n');
  const usage = USAGE.split('\n').filter((line) => line.startsWith(`  v8-lens ${command} `));
  const options = paragraphs.find((p) => p.startsWith(`${command} options`)) ?? '';
  const exits = paragraphs.find((p) => p.startsWith('Exit codes')) ?? '';
  return `Usage:\n${usage.join('\n')}\n\n${options.trimEnd()}\n\n${exits.trimEnd()}\n`;
}

/** --help or -h among a command's own options (not among the target's, after --). */
function asksForHelp(args: readonly string[]): boolean {
  const own = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  return own.includes('--help') || own.includes('-h');
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const known = COMMANDS.find((c) => c === command);
  if (known && asksForHelp(rest)) {
    process.stdout.write(commandHelp(known));
    return EXIT.ok;
  }
  switch (command) {
    case 'profile':
      return profileCommand(rest);
    case 'report':
      return reportCommand(rest);
    case 'compare':
      return compareCommand(rest);
    case 'export':
      return exportCommand(rest);
    case 'sweep':
      return sweepCommand(rest);
    case 'predict':
      return predictCommand(rest);
    case 'attach':
      return attachCommand(rest);
    case '--version':
    case '-v':
      process.stdout.write(`${TOOL_VERSION}\n`);
      return EXIT.ok;
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(USAGE);
      return command === undefined ? EXIT.usage : EXIT.ok;
    default:
      throw new UserError(`unknown command '${clipText(command, 80)}' (try: v8-lens --help)`, EXIT.usage);
  }
}

async function profileCommand(args: string[]): Promise<number> {
  const dashDash = args.indexOf('--');
  const own = dashDash === -1 ? args : args.slice(0, dashDash);
  const targetArgv = dashDash === -1 ? [] : args.slice(dashDash + 1);
  const { values } = parseOptions(own, {
    out: { type: 'string' },
    preset: { type: 'string' },
    'semi-space': { type: 'string' },
    interval: { type: 'string' },
    'stable-deopts': { type: 'boolean' },
    'alloc-interval': { type: 'string' },
    'exact-alloc-sites': { type: 'boolean' },
    survivors: { type: 'boolean' },
    'gc-phases': { type: 'boolean' },
    'v8-flag': { type: 'string', multiple: true },
    timeout: { type: 'string' },
    node: { type: 'string' },
    json: { type: 'boolean' },
    'stop-grace': { type: 'string' },
    url: { type: 'string' },
    duration: { type: 'string' },
    connections: { type: 'string' },
    rate: { type: 'string' },
    warmup: { type: 'string' },
  });
  if (targetArgv.length === 0) throw new UserError('nothing to profile: give the script after --, e.g. v8-lens profile -- app.js', EXIT.usage);
  const loadOnly = (['duration', 'connections', 'rate', 'warmup'] as const).find((k) => values[k] !== undefined && values.url === undefined);
  if (loadOnly) throw new UserError(`--${loadOnly} is for profiling under load: give --url too (a loopback URL, or auto)`, EXIT.usage);
  const load = values.url === undefined ? undefined : {
    url: values.url === 'auto' ? null : requireLoopbackUrl(values.url, '--url').href,
    connections: values.connections !== undefined ? wholeNumber('--connections', values.connections) : PROFILE_LOAD_DEFAULTS.connections,
    warmupSeconds: values.warmup !== undefined ? nonNegativeNumber('--warmup', values.warmup) : PROFILE_LOAD_DEFAULTS.warmupSeconds,
    durationSeconds: values.duration !== undefined ? positiveNumber('--duration', values.duration) : PROFILE_LOAD_DEFAULTS.durationSeconds,
    rate: values.rate !== undefined ? positiveNumber('--rate', values.rate) : null,
    readyTimeoutMs: PROFILE_LOAD_DEFAULTS.readyTimeoutMs,
    loadRunnerPath: loadRunnerPath(),
    badUrlHint: 'give the path to load with --url',
  };

  const preset = values.preset ?? DEFAULT_PRESET;
  if (!isPresetId(preset)) throw new UserError(`unknown preset '${preset}' (choose one of ${PRESET_IDS.join(', ')})`, EXIT.usage);
  const target = classifyTarget(targetArgv);
  const cwd = process.cwd();
  const runDir = values.out ?? defaultRunDir(cwd, target);
  if (target.kind === 'command') await announceNodeOptionsLaunch(target, PRESETS[preset].capture, cwd);
  if (values.survivors && !PRESETS[preset].capture.alloc) {
    throw new UserError(`--survivors holds what survives against all that was allocated: it needs a preset with allocations (${PRESET_IDS.filter((id) => PRESETS[id].capture.alloc).join(', ')})`, EXIT.usage);
  }

  const request: ProfileRequest = {
    target,
    cwd,
    node: values.node ?? 'node',
    preset,
    options: captureOptionsFor({
      preset,
      samplingIntervalUs: values.interval !== undefined ? wholeNumber('--interval', values.interval) : undefined,
      semiSpaceMB: values['semi-space'] !== undefined ? wholeNumber('--semi-space', values['semi-space']) : null,
      stableDeopts: values['stable-deopts'],
      extraFlags: values['v8-flag'],
      allocSamplingBytes: values['alloc-interval'] !== undefined ? wholeNumber('--alloc-interval', values['alloc-interval']) : undefined,
      exactAllocSites: values['exact-alloc-sites'],
      gcPhases: values['gc-phases'],
    }),
    runDir,
    timeoutS: values.timeout !== undefined ? positiveNumber('--timeout', values.timeout) : null,
    stopGraceMs: values['stop-grace'] !== undefined ? positiveNumber('--stop-grace', values['stop-grace']) * 1000 : undefined,
    load,
  };
  const appOutput: AppOutput = {
    stdout: (text) => stdout.write(text),
    // The app's bytes as they came: its output may be binary, or not UTF-8.
    stdoutBytes: (bytes) => stdout.write(bytes),
    // A reader that went away (| head) lets the app go on: its output is dropped, the run is not.
    whenDrained: () => stdout.whenDrained(),
    stderr: (text) => void process.stderr.write(text),
    stderrBytes: (bytes) => void process.stderr.write(bytes),
  };
  // The summary formats numbers with toLocaleString, whose first call loads ICU's data (about 10 ms
  // of CPU): done before the target starts, not beside it, where on a machine of 2 cores it would
  // take them from the target's own start-up and GC threads.
  (0).toLocaleString('en-US', { minimumFractionDigits: 1 });
  const run = await ProfileRun.start(request, appOutput);
  note(`profiling pid ${run.pid} into ${run.runDir} (Ctrl-C stops it and keeps the profile)`);
  const inherited = process.env.NODE_OPTIONS?.trim();
  if (inherited) note(`the target inherits NODE_OPTIONS=${inherited} (recorded in session.json)`);
  if (load) note(`under load: ${load.url ?? 'the first loopback URL it prints'}, ${load.connections} connections, ${load.warmupSeconds} s warm-up + ${load.durationSeconds} s measured, then stop and collect`);

  let interrupted = false;
  const stopListening = onInterrupts(
    () => {
      interrupted = true;
      note('stopping the target… (Ctrl-C again to kill it at once)');
      run.stop();
    },
    () => run.cancel(),
  );
  let result = await run.done;
  stopListening();
  if (values.survivors) result = await survivorsPassCommand(request, result, appOutput, () => interrupted);

  if (values.json) printJson(result.summary);
  else printText(`\n${formatTextReport(result.summary, { cwd })}`);

  if (result.problem) {
    note(result.problem + (result.session.stderrTail.length > 0 ? '; its last stderr lines:' : ''));
    for (const line of crashLines(result.session.stderrTail)) process.stderr.write(safeForTerminal(`  | ${line}\n`));
    note(`whatever was collected is kept in ${result.layout.dir}`);
    return EXIT.failed;
  }
  // Load was asked for and none was measured (a URL that fails every request, none printed, …): say why, fail.
  const loaded = result.summary.load;
  if (load && loaded && !loaded.figures && !interrupted) {
    note(`load: ${loaded.error ?? 'nothing was measured'}`);
    note(`whatever was collected is kept in ${result.layout.dir}`);
    return EXIT.failed;
  }
  note(`run folder: ${result.layout.dir} (${result.outcome})`);
  return EXIT.ok;
}

/**
 * `--survivors`: the same target once more, keeping what outlives a young GC (capture/survivorsPass.ts);
 * the run's summary then holds the survivors beside its own allocations. Ctrl-C stops the pass as it
 * does a run. Not after a run that was cancelled or failed, nor after Ctrl-C.
 */
async function survivorsPassCommand(request: ProfileRequest, first: RunResult, output: AppOutput, interrupted: () => boolean): Promise<RunResult> {
  const passRequest = interrupted() ? null : survivorsPassRequest(request, first);
  if (passRequest === null) return withSurvivors(first, null, interrupted() ? 'survivors: the run was stopped with Ctrl-C, so the survivors pass did not run' : noSurvivorsPassReason(first));
  const pass = await startSurvivorsPass(passRequest, output);
  note(`survivors pass: running the target again (pid ${pass.pid}), sampling only what no young GC frees, into ${pass.runDir}${passRequest.timeoutS !== null && !request.load ? `; it stops after ${passRequest.timeoutS} s, as long as the run took` : ''}`);
  const stopListening = onInterrupts(
    () => {
      note('stopping the survivors pass… (Ctrl-C again to kill it at once)');
      pass.stop();
    },
    () => pass.cancel(),
  );
  const passResult = await pass.done;
  stopListening();
  return withSurvivors(first, passResult, null);
}

async function reportCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, { json: { type: 'boolean' }, html: { type: 'string' } }, true);
  if (positionals.length !== 1) throw new UserError('report needs one run folder or file, e.g. v8-lens report .v8-lens/runs/…', EXIT.usage);
  const progress = progressLine(process.stderr);
  progress.update(`reading ${basename(positionals[0]!)}`);
  if (values.html !== undefined) {
    if (values.html === '') throw new UserError('--html needs a file name, e.g. --html report.html', EXIT.usage);
    const model = await buildReportModel(positionals[0]!, { forPage: true }).finally(() => progress.done());
    await writeExport(values.html, standaloneReportHtml(model, await readReportAssets()), 'the report');
    note(`report written to ${values.html}`);
    if (values.json) printJson(model.summary);
    return EXIT.ok;
  }
  const summary = await loadReport(positionals[0]!).finally(() => progress.done());
  if (values.json) printJson(summary);
  else printText(formatTextReport(summary, { cwd: process.cwd() }));
  return EXIT.ok;
}

async function compareCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    {
      json: { type: 'boolean' },
      'fail-on': { type: 'string', multiple: true },
      summary: { type: 'string' },
      missing: { type: 'string' },
      'allow-failed': { type: 'boolean' },
      'allow-mixed': { type: 'boolean' },
    },
    true,
  );
  if (positionals.length !== 2) throw new UserError('compare needs two runs, A (the base) and B, e.g. v8-lens compare .v8-lens/runs/<A> .v8-lens/runs/<B>', EXIT.usage);
  const [base, other] = positionals as [string, string];
  if (values['fail-on'] !== undefined) {
    const missing = values.missing ?? GATE_DEFAULTS.missing;
    if (missing !== 'fail' && missing !== 'error' && missing !== 'ignore') throw new UserError(`--missing is fail, error or ignore (got '${clipText(missing, 40)}')`, EXIT.usage);
    const options: GateOptions = { missing, allowFailed: values['allow-failed'] ?? false, allowMixed: values['allow-mixed'] ?? false };
    return gateCommand(base, other, values['fail-on'], options, values.json === true, values.summary);
  }
  for (const gateOnly of ['summary', 'missing', 'allow-failed', 'allow-mixed'] as const) {
    if (values[gateOnly] !== undefined) throw new UserError(`--${gateOnly} goes with --fail-on (the regression gate)`, EXIT.usage);
  }
  await requireComparablePair(base, other);
  const model = await buildCompareModel(base, other);
  if (values.json) {
    // The merged call tree is for the flame graph: as large as both profiles, and no use in a terminal.
    const { flame: _flame, ...rest } = model;
    printJson(rest);
  } else {
    printText(formatCompareText(model, { cwd: process.cwd() }));
  }
  return EXIT.ok;
}

/**
 * The regression gate: Markdown (or JSON) on stdout, the table appended to --summary FILE; exit 1
 * when a rule is broken (or measured nothing, with --missing fail), 2 when it measured nothing with
 * --missing error.
 */
async function gateCommand(base: string, other: string, specs: string[], options: GateOptions, json: boolean, summaryFile: string | undefined): Promise<number> {
  const rules = parseFailOn(specs);
  const result = await runGate(base, other, rules, options);
  const markdown = formatGateMarkdown(result);
  if (summaryFile !== undefined) await appendSummary(summaryFile, markdown);
  if (json) printJson(result);
  else printText(markdown);
  if (result.verdict === 'not-measured') {
    note(`gate: not measured: ${result.unmeasured.join('; ')}`);
    return EXIT.usage;
  }
  if (result.verdict === 'fail') {
    const blind = result.missing === 'fail' && result.unmeasured.length > 0 ? `; measured nothing: ${result.unmeasured.join('; ')}` : '';
    note(`gate: FAIL, ${result.broken} of ${result.checks.length} checks broken${blind}`);
    return EXIT.failed;
  }
  note(`gate: pass, ${result.checks.length} checks${result.unmeasured.length > 0 ? ` (${result.unmeasured.length} rule${result.unmeasured.length === 1 ? '' : 's'} not measured, ignored as asked)` : ''}`);
  return EXIT.ok;
}

async function exportCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, { pprof: { type: 'string' }, type: { type: 'string' } }, true);
  if (positionals.length !== 1) throw new UserError('export needs one run folder or profile, e.g. v8-lens export .v8-lens/runs/… --pprof cpu.pb.gz', EXIT.usage);
  if (values.pprof === undefined || values.pprof === '') throw new UserError('export needs --pprof FILE, the gzipped pprof to write (e.g. --pprof cpu.pb.gz)', EXIT.usage);
  const type = values.type ?? null;
  if (type !== null && type !== 'cpu' && type !== 'alloc') throw new UserError(`--type is cpu or alloc, not '${type}'`, EXIT.usage);
  const progress = progressLine(process.stderr);
  progress.update(`exporting ${basename(positionals[0]!)} as pprof`);
  const out = await exportPprof(positionals[0]!, type).finally(() => progress.done());
  await writeExport(values.pprof, out.bytes, 'the pprof');
  for (const w of out.warnings) note(`warning: ${w}`);
  note(`wrote ${values.pprof}: ${out.kind === 'cpu' ? 'CPU' : 'allocations'} as pprof (${out.sampleTypes}), ${out.samples.toLocaleString('en-US')} samples, ${formatKB(out.bytes.length)}${out.alsoHas ? `; the run has ${out.alsoHas === 'cpu' ? 'a CPU profile' : 'allocations'} too: --type ${out.alsoHas}` : ''}`);
  return EXIT.ok;
}

/**
 * An export (--html, --pprof) written whole or not at all (a temporary file renamed over the
 * target), so a full disk leaves no truncated file: exit 1 with one line; a path that cannot be a
 * file (a folder, no such folder) is usage, exit 2.
 */
async function writeExport(path: string, data: string | Uint8Array, what: string): Promise<void> {
  await writeFileWhole(path, data).catch((err: unknown) => {
    throw new UserError(`cannot write ${what} to ${clipText(path)}: ${writeErrorText(err)}; nothing was written`, isBadPathError(err) ? EXIT.usage : EXIT.failed);
  });
}

/** The gate's Markdown appended to --summary FILE; a failed write cuts the file back to what it held. */
async function appendSummary(path: string, markdown: string): Promise<void> {
  await appendFileWhole(path, markdown).catch((err: unknown) => {
    throw new UserError(`cannot write the summary to ${clipText(path)}: ${writeErrorText(err)}; the file is left as it was`, isBadPathError(err) ? EXIT.usage : EXIT.failed);
  });
}

function formatKB(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function sweepCommand(args: string[]): Promise<number> {
  const dashDash = args.indexOf('--');
  const own = dashDash === -1 ? args : args.slice(0, dashDash);
  const targetArgv = dashDash === -1 ? [] : args.slice(dashDash + 1);
  const { values } = parseSweepOptions(own);
  const cwd = process.cwd();
  const fromRun = values['from-run'];
  const config = fromRun === undefined ? sweepConfigFromOptions(values, targetArgv, cwd) : await sweepConfigFromRunOptions(fromRun, values, targetArgv);
  const flag = sweepFlag(config);
  const flagValues = sweepValues(config);
  const outDir = resolve(cwd, values.out ?? freeFolderIn(join(cwd, '.v8-lens', 'sweeps'), runFolderStamp()));

  const abort = new AbortController();
  const stopListening = onInterrupts(
    () => {
      note('cancelling: stopping the target and the load, keeping the finished runs… (Ctrl-C again to quit at once)');
      abort.abort();
    },
    () => process.exit(EXIT.cancelled), // the exit hook kills the target's group; the load runner exits with its IPC channel
  );
  const profiling = (config.profileRounds === false ? 0 : flagValues.length) + (config.survivors === true ? flagValues.length : 0);
  const total = flagValues.length * config.rounds + profiling;
  let announced = false;
  // On a terminal, the run in progress and the sweep's share done; the finished runs print their lines.
  const progress = progressLine(process.stderr, { delayMs: 0 });
  const perRunSeconds = config.load.warmupSeconds + config.load.durationSeconds;
  let current = '';
  let measuring = false;
  const onProgress = (p: SweepProgress) => {
    // Runs and rounds count from 0 in the events.
    if (p.type === 'run-start') {
      current = `run ${p.run + 1}/${total} · ${formatValueWithUnit(flag, p.value)} · ${p.purpose === 'profile' ? 'profiling run' : p.purpose === 'survivors' ? 'survivors run' : `round ${p.round + 1}`}`;
      progress.update(current, p.run / total);
    } else if (p.type === 'phase') {
      measuring = p.phase === 'measuring';
      progress.update(`${current} · ${p.phase}`, p.run / total);
    } else if (p.type === 'tick') {
      const done = (measuring ? config.load.warmupSeconds : 0) + p.elapsedSeconds;
      progress.update(`${current} · ${Math.round(p.rps).toLocaleString('en-US')} req/s`, (p.run + Math.min(1, done / perRunSeconds)) / total);
    }
    if (p.type === 'run-start' || p.type === 'run-end') progress.clear();
    if (p.type === 'run-start' && !announced) {
      announced = true;
      const perRun = config.load.warmupSeconds + config.load.durationSeconds + 2;
      const unit = sweepFlagInfo(flag).unit;
      const what = `${flag === SEMI_SPACE_FLAG ? '' : `--${flag} `}${flagValues.join(', ')}${unit ? ` ${unit}` : ''}`;
      note(
        `sweeping ${config.target.label}: ${what} × ${config.rounds} round${config.rounds === 1 ? '' : 's'}${profiling > 0 ? ` + ${profiling} profiling runs` : ''} = ${total} runs ` +
          `(about ${formatDuration(total * perRun)}) into ${outDir}; Ctrl-C cancels and keeps the finished runs`,
      );
    }
    if (p.type === 'run-end') note(runLine(p.run, total));
  };
  let result;
  try {
    result = await runSweep(config, {
      outDir,
      signal: abort.signal,
      onProgress,
      preloadPath: preloadAgentPath(),
      loadRunnerPath: loadRunnerPath(),
      toolVersion: TOOL_VERSION,
    });
  } finally {
    progress.done();
    stopListening();
  }

  if (values.json) printJson(result);
  else {
    const table = formatSweepTable(result);
    printText(`\n${table}${table.endsWith('\n') ? '' : '\n'}`);
    if (result.predictionChecks && config.prediction) printText(`\n${predictionCheckLines(config.prediction, result.predictionChecks).join('\n')}\n`);
  }
  // A full disk stopped it: the one line that says so is the sweep's first warning.
  const diskProblem = result.status === 'failed' ? result.warnings.find((w) => / could not be written: /.test(w)) : undefined;
  if (diskProblem) note(diskProblem);
  note(`sweep folder: ${outDir} (${result.status})`);
  if (result.status === 'cancelled') return EXIT.cancelled;
  if (result.status !== 'finished') return EXIT.failed;
  return result.results.some((r) => r.validRuns > 0) ? EXIT.ok : EXIT.failed;
}

/** `v8-lens predict <run>`: the table of semi-space sizes, the recommendation, and how to confirm it. */
async function predictCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, { json: { type: 'boolean' } }, true);
  if (positionals.length !== 1) throw new UserError('predict needs one run folder, e.g. v8-lens predict .v8-lens/runs/…', EXIT.usage);
  const runDir = positionals[0]!;
  const progress = progressLine(process.stderr);
  progress.update(`reading ${basename(runDir)}`);
  const { prediction, missing } = await readRunPrediction(runDir).finally(() => progress.done());
  if (!prediction) {
    note(`no prediction: ${missing ?? 'the run could not give one'}`);
    return EXIT.failed;
  }
  if (values.json) printJson(prediction);
  else {
    const confirm = prediction.per === 'requests' ? `Confirm it in the lab: v8-lens sweep --from-run ${runDir}` : 'Confirm it in the lab under load: profile the service under load (--url), then v8-lens sweep --from-run <that run>';
    printText(`${predictionLines(prediction, null, confirm).join('\n')}\n`);
  }
  return EXIT.ok;
}

/** `sweep`'s options (a function, so that their parsed type has a name). */
function parseSweepOptions(own: string[]) {
  return parseOptions(own, {
    url: { type: 'string' },
    flag: { type: 'string' },
    values: { type: 'string' },
    sizes: { type: 'string' },
    rounds: { type: 'string' },
    warmup: { type: 'string' },
    duration: { type: 'string' },
    connections: { type: 'string' },
    rate: { type: 'string' },
    timeout: { type: 'string' },
    'pin-min': { type: 'boolean' },
    'no-profile-rounds': { type: 'boolean' },
    survivors: { type: 'boolean' },
    'on-failure': { type: 'string' },
    'ready-url': { type: 'string' },
    'ready-line': { type: 'string' },
    'ready-timeout': { type: 'string' },
    'v8-flag': { type: 'string', multiple: true },
    node: { type: 'string' },
    out: { type: 'string' },
    json: { type: 'boolean' },
    'from-run': { type: 'string' },
  });
}

type SweepOptionValues = ReturnType<typeof parseSweepOptions>['values'];

/** The sweep the options describe: a script after --, its URL and load, the flag and its values. */
function sweepConfigFromOptions(values: SweepOptionValues, targetArgv: string[], cwd: string): SweepConfig {
  if (values.url === undefined) throw new UserError('sweep needs --url: the loopback URL to load, e.g. --url http://127.0.0.1:3000/', EXIT.usage);
  const [script, ...scriptArgs] = targetArgv;
  if (script === undefined) throw new UserError('nothing to sweep: give the script after --, e.g. v8-lens sweep --url http://127.0.0.1:3000/ -- server.js', EXIT.usage);
  if (!SCRIPT_EXTENSIONS.has(extname(script)) && !(existsSync(script) && statSync(script).isFile())) {
    throw new UserError(`a sweep starts node <flags> <script> itself: give the script file after -- (got '${script}')`, EXIT.usage);
  }
  if (values['ready-url'] !== undefined && values['ready-line'] !== undefined) throw new UserError('give --ready-url or --ready-line, not both', EXIT.usage);
  const onFailure = values['on-failure'] ?? 'continue';
  if (onFailure !== 'continue' && onFailure !== 'stop') throw new UserError(`--on-failure is continue or stop (got '${onFailure}')`, EXIT.usage);
  const flag = values.flag !== undefined ? parseSweepFlagName(values.flag) : SEMI_SPACE_FLAG;
  if (values.sizes !== undefined && values.values !== undefined) throw new UserError('give --values or --sizes, not both (--sizes is the semi-space shorthand)', EXIT.usage);
  if (values.sizes !== undefined && flag !== SEMI_SPACE_FLAG) throw new UserError(`--sizes is for the semi-space: give the values of --${flag} with --values`, EXIT.usage);
  if (values.values === undefined && flag !== SEMI_SPACE_FLAG) {
    throw new UserError(`--flag ${flag} needs its values: --values, e.g. --values ${sweepFlagInfo(flag).suggested.replace(/ /g, '') || '1,2,4'}`, EXIT.usage);
  }
  const flagValues = values.values !== undefined ? valueList('--values', values.values) : values.sizes !== undefined ? sizeList(values.sizes) : [...SWEEP_DEFAULTS.semiSpaceSizesMB];

  const readyTimeoutMs = (values['ready-timeout'] !== undefined ? positiveNumber('--ready-timeout', values['ready-timeout']) : SWEEP_DEFAULTS.readyTimeoutSeconds) * 1000;
  const readiness: Readiness =
    values['ready-line'] !== undefined
      ? { kind: 'line', text: values['ready-line'], timeoutMs: readyTimeoutMs }
      : { kind: 'url', url: values['ready-url'] ?? values.url, timeoutMs: readyTimeoutMs };
  return {
    // The target inherits this environment (PORT and all); only what is set here would be added.
    target: { label: basename(script), node: values.node ?? 'node', script: resolve(cwd, script), args: scriptArgs, cwd, env: {}, nodeArgs: [...(values['v8-flag'] ?? [])] },
    readiness,
    request: { url: values.url, method: 'GET', headers: {}, body: null },
    load: {
      connections: values.connections !== undefined ? wholeNumber('--connections', values.connections) : SWEEP_DEFAULTS.connections,
      warmupSeconds: values.warmup !== undefined ? nonNegativeNumber('--warmup', values.warmup) : SWEEP_DEFAULTS.warmupSeconds,
      durationSeconds: values.duration !== undefined ? positiveNumber('--duration', values.duration) : SWEEP_DEFAULTS.durationSeconds,
      rate: values.rate !== undefined ? positiveNumber('--rate', values.rate, 'requests per second') : null,
      timeoutSeconds: values.timeout !== undefined ? positiveNumber('--timeout', values.timeout) : SWEEP_DEFAULTS.requestTimeoutSeconds,
    },
    flag,
    values: flagValues,
    sizesMB: flag === SEMI_SPACE_FLAG ? flagValues : [],
    rounds: values.rounds !== undefined ? wholeNumber('--rounds', values.rounds) : SWEEP_DEFAULTS.rounds,
    pinMinSemiSpace: values['pin-min'] ?? false,
    profileRounds: !(values['no-profile-rounds'] ?? false),
    ...(values.survivors ? { survivors: true } : {}),
    onRunFailure: onFailure,
  };
}

/**
 * `sweep --from-run RUN`: the run's target, load and prediction (core/sweep/sweepFromRun.ts); the
 * sizes, rounds and load may still be given.
 */
async function sweepConfigFromRunOptions(runDir: string, values: SweepOptionValues, targetArgv: string[]): Promise<SweepConfig> {
  if (targetArgv.length > 0) throw new UserError('--from-run takes the target from the run: give no script after --', EXIT.usage);
  for (const other of ['flag', 'values', 'ready-line', 'ready-url'] as const) {
    if (values[other] !== undefined) throw new UserError(`--${other} does not go with --from-run (it sweeps the run's semi-space, at its URL)`, EXIT.usage);
  }
  return sweepConfigFromRun(runDir, {
    ...(values.sizes !== undefined ? { sizesMB: sizeList(values.sizes) } : {}),
    ...(values.rounds !== undefined ? { rounds: wholeNumber('--rounds', values.rounds) } : {}),
    ...(values.url !== undefined ? { url: requireLoopbackUrl(values.url, '--url').href } : {}),
    ...(values.connections !== undefined ? { connections: wholeNumber('--connections', values.connections) } : {}),
    ...(values.rate !== undefined ? { rate: positiveNumber('--rate', values.rate, 'requests per second') } : {}),
    ...(values.warmup !== undefined ? { warmupSeconds: nonNegativeNumber('--warmup', values.warmup) } : {}),
    ...(values.duration !== undefined ? { durationSeconds: positiveNumber('--duration', values.duration) } : {}),
    ...(values.node !== undefined ? { node: values.node } : {}),
    ...(values['no-profile-rounds'] ? { profileRounds: false } : {}),
  });
}

async function attachCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    {
      duration: { type: 'string' },
      interval: { type: 'string' },
      'alloc-interval': { type: 'string' },
      'no-alloc': { type: 'boolean' },
      out: { type: 'string' },
      'allow-remote': { type: 'boolean' },
      'open-inspector': { type: 'boolean' },
      json: { type: 'boolean' },
    },
    true,
  );
  if (positionals.length !== 1) throw new UserError('attach needs one target: a pid, host:port or ws:// URL, e.g. v8-lens attach 1234', EXIT.usage);
  const address = parseInspectorAddress(positionals[0]!);
  const durationS = values.duration !== undefined ? positiveNumber('--duration', values.duration) : ATTACH_DEFAULT_DURATION_S;
  const samplingIntervalUs = values.interval !== undefined ? wholeNumber('--interval', values.interval) : DEFAULT_SAMPLING_INTERVAL_US;
  if (samplingIntervalUs < 1) throw new UserError('--interval needs a whole number of microseconds ≥ 1', EXIT.usage);
  if (values['no-alloc'] && values['alloc-interval'] !== undefined) throw new UserError('--no-alloc and --alloc-interval contradict each other; keep one', EXIT.usage);
  const allocSamplingBytes = values['no-alloc'] ? null : values['alloc-interval'] !== undefined ? wholeNumber('--alloc-interval', values['alloc-interval']) : DEFAULT_ALLOC_SAMPLING_BYTES;
  if (allocSamplingBytes !== null && (allocSamplingBytes < ALLOC_SAMPLING_BYTES_RANGE.min || allocSamplingBytes > ALLOC_SAMPLING_BYTES_RANGE.max)) {
    throw new UserError(`--alloc-interval needs a whole number of bytes from ${ALLOC_SAMPLING_BYTES_RANGE.min} to ${ALLOC_SAMPLING_BYTES_RANGE.max}`, EXIT.usage);
  }

  // Ctrl-C from here on stops early and keeps what was collected; a second one quits at once.
  const abort = new AbortController();
  const stopListening = onInterrupts(
    () => {
      note('stopping: saving the profile and detaching… (Ctrl-C again to quit without cleaning up the target)');
      abort.abort();
    },
    () => process.exit(EXIT.cancelled),
  );
  try {
    const resolved = await resolveInspector(address, { allowRemote: values['allow-remote'] ?? false, openWithSignal: values['open-inspector'] ?? false, signal: abort.signal });
    const inspector = resolved.listening;
    if (resolved.openedBySignal) note(`opened the inspector of pid ${resolved.pid} with SIGUSR1 (on ${inspector}); it stays open until the process ends`);
    const cwd = process.cwd();
    const label = resolved.pid ?? (address.kind === 'hostPort' ? formatHostPort(address.host, address.port).replace(/[^\w.-]+/g, '_') : 'ws');
    const runDir = resolve(cwd, values.out ?? freeFolderIn(join(cwd, '.v8-lens', 'runs'), `${runFolderStamp()}-attach-${label}`));
    const handle = await attachAndProfile(resolved.webSocketUrl, {
      outDir: runDir,
      durationMs: durationS * 1000,
      samplingIntervalUs,
      signal: abort.signal,
      toolVersion: TOOL_VERSION,
      openedInspector: resolved.openedBySignal,
      allocSamplingBytes,
    });
    note(`attached to pid ${handle.pid ?? '?'} on ${inspector}: profiling for ${durationS} s into ${runDir} (Ctrl-C stops early and keeps the profile)`);
    const result = await handle.done;

    const summary = await loadReport(result.runDir);
    if (values.json) printJson(summary);
    else printText(`\n${formatTextReport(summary, { cwd })}`);
    if (result.openedInspector) note(`the inspector V8 Lens opened in pid ${handle.pid} stays open until the process ends (Node cannot close it from outside)`);
    if (result.status !== 'finished') {
      note(result.reason ?? `attaching ended: ${result.status}`);
      note(`whatever was collected is kept in ${result.runDir}`);
      return EXIT.failed;
    }
    note(`detached; pid ${handle.pid} keeps running. Run folder: ${result.runDir} (${result.gcEvents} GC events)`);
    return EXIT.ok;
  } finally {
    stopListening();
  }
}

/**
 * "run 3/10 · 64 MB · round 1 · ok · 4,123 req/s · 2.74 scavenges/1k · 19.1 GC ms/1k · effective 64 MB";
 * an old-space flag: "run 2/4 · 512 MB · round 1 · ok · 3,190 req/s · 0.78 Mark-Compacts/1k · 2.4 MC ms/1k · peak RSS 135 MB".
 */
function runLine(run: SweepRun, total: number): string {
  const flag = run.flag ?? SEMI_SPACE_FLAG;
  const which = run.purpose === 'profile' ? 'profiling run (not in the figures)' : run.purpose === 'survivors' ? 'survivors run (not in the figures)' : `round ${run.round + 1}`;
  const head = `run ${run.index + 1}/${total} · ${formatValueWithUnit(flag, run.value ?? run.semiSpaceMB ?? NaN)} · ${which}`;
  if (run.status !== 'ok') return `${head} · ${run.status}: ${run.reason ?? run.status}`;
  const rps = run.load ? `${Math.round(run.load.rps).toLocaleString('en-US')} req/s` : null;
  const parts = isOldSpaceFlag(flag)
    ? [
        rps,
        run.markCompactsPer1k !== null ? `${run.markCompactsPer1k.toFixed(2)} Mark-Compacts/1k` : null,
        run.markCompactMsPer1k !== null ? `${run.markCompactMsPer1k.toFixed(1)} MC ms/1k` : null,
        run.peakRssMB !== null ? `peak RSS ${Math.round(run.peakRssMB)} MB` : null,
      ]
    : [
        rps,
        run.scavengesPer1k !== null ? `${run.scavengesPer1k.toFixed(2)} scavenges/1k` : null,
        run.gcMsPer1k !== null ? `${run.gcMsPer1k.toFixed(1)} GC ms/1k` : null,
        run.effectiveSemiSpaceMB !== null ? `effective ${run.effectiveSemiSpaceMB} MB` : null,
      ];
  const tenured = run.pretenuring && run.pretenuring.sitesTenured > 0 ? `V8 tenured ${run.pretenuring.sitesTenured} allocation site${run.pretenuring.sitesTenured === 1 ? '' : 's'}` : null;
  return `${head} · ok · ${[...parts, tenured].filter((p) => p !== null).join(' · ')}`;
}

/** "256,512" → [256, 512]: numbers as the flag takes them (its unit and type are checked by the sweep). */
function valueList(option: string, text: string): number[] {
  const parts = text.split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length === 0) throw new UserError(`${option} needs a comma-separated list of numbers, e.g. 256,512 (got '${text}')`, EXIT.usage);
  return parts.map((p) => {
    if (!/^-?(\d+\.?\d*|\.\d+)$/.test(p)) throw new UserError(`${option}: '${p}' is not a number (e.g. ${option} 256,512)`, EXIT.usage);
    return Number(p);
  });
}

function sizeList(text: string): number[] {
  const parts = text.split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length === 0) throw new UserError(`--sizes needs a list of MB, e.g. 16,32,64 (got '${text}')`, EXIT.usage);
  return parts.map((p) => {
    if (!/^\d+$/.test(p) || Number(p) < 1) throw new UserError(`--sizes: '${p}' is not a whole number of MB ≥ 1 (e.g. --sizes 16,32,64)`, EXIT.usage);
    return Number(p);
  });
}

function nonNegativeNumber(option: string, text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0) throw new UserError(`${option} needs a number of seconds ≥ 0 (got '${text}')`, EXIT.usage);
  return n;
}

function formatDuration(seconds: number): string {
  return seconds < 90 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} min`;
}

type OptionSpec = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

function parseOptions<T extends OptionSpec>(args: string[], options: T, allowPositionals = false) {
  // `--v8-flag --max-old-space-size=64` is how people write it; parseArgs wants `--v8-flag=…`.
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const spec = a.startsWith('--') && !a.includes('=') ? options[a.slice(2)] : undefined;
    if (spec?.type === 'string' && i + 1 < args.length) joined.push(`${a}=${args[++i]}`);
    else joined.push(a);
  }
  try {
    return parseArgs({ args: joined, options, allowPositionals, strict: true });
  } catch (err) {
    throw new UserError(`${errorMessage(err).replace(/\. To specify.*$/, '')} (try: v8-lens --help)`, EXIT.usage);
  }
}

const SCRIPT_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts']);

function classifyTarget([first, ...rest]: string[]): ProfileTarget {
  const looksLikeScript = SCRIPT_EXTENSIONS.has(extname(first!)) || (existsSync(first!) && statSync(first!).isFile() && !isExecutable(first!));
  return looksLikeScript ? { kind: 'script', script: first!, args: rest } : { kind: 'command', command: first!, args: rest };
}

/** Before an npm script (or any command) starts: what it can collect, and the direct launch that collects deopts too. */
async function announceNodeOptionsLaunch(target: { command: string; args: string[] }, capture: CaptureSet, cwd: string): Promise<void> {
  const what = [target.command, ...target.args].join(' ');
  note(nodeOptionsLaunchNotice(what, capture));
  const call = npmScriptCall(target.command, target.args);
  if (!call || !capture.deopts) return;
  const direct = await directLaunchOfNpmScript(cwd, call);
  if (direct) note(`hint: ${directLaunchHint(what, direct, cwd)}`);
}

function isExecutable(path: string): boolean {
  try {
    return (statSync(path).mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

function defaultRunDir(cwd: string, target: ProfileTarget): string {
  const name = runFolderLabel(basename(target.kind === 'script' ? target.script : target.command));
  return freeFolderIn(join(cwd, '.v8-lens', 'runs'), `${runFolderStamp()}-${name}`);
}

function wholeNumber(option: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new UserError(`${option} needs a whole number (got '${text}')`, EXIT.usage);
  return Number(text);
}

function positiveNumber(option: string, text: string, unit = 'seconds'): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new UserError(`${option} needs a positive number of ${unit} (got '${text}')`, EXIT.usage);
  return n;
}

/** The last lines of stderr that say something: a Node crash ends in stack frames, the message is above them. */
function crashLines(tail: string[]): string[] {
  return tail.filter((line) => !/^\s+at /.test(line)).slice(-5);
}

/** Our own report text (data from files in it): control characters made visible. */
function printText(text: string): void {
  process.stdout.write(safeForTerminal(text));
}

function printJson(value: unknown): void {
  process.stdout.write(`${jsonForTerminal(value)}\n`);
}

function note(message: string): void {
  process.stderr.write(`v8-lens: ${safeForTerminal(message)}\n`);
}

// Our reader may leave early (`v8-lens profile … | head`): a closed stdout or stderr must not end a run.
const stdout = new OutputPipe(process.stdout, (why) => note(`stdout was closed (${why}): what goes there is dropped from here on; a run goes on and keeps its folder`));
new OutputPipe(process.stderr);

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // Messages may echo what they were given (a rule, an option, a name from a file): cut to a sane length.
    if (err instanceof UserError) {
      note(clipText(err.message, 1000));
      process.exitCode = err.exitCode;
    } else {
      note(`internal error: ${clipText(errorMessage(err), 1000)}${process.env.V8_LENS_DEBUG ? '' : ' (set V8_LENS_DEBUG=1 for the stack trace)'}`);
      if (process.env.V8_LENS_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
      process.exitCode = EXIT.internal;
    }
  },
);

/**
 * Ctrl-C (or SIGTERM) once runs `first`, a stop that keeps what was collected; any later one runs
 * `again`, which quits at once. Returns the function that removes the handlers.
 */
function onInterrupts(first: () => void, again: () => void): () => void {
  let count = 0;
  const handler = () => (++count === 1 ? first() : again());
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
