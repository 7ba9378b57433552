/**
 * The shape of summary.json and load.json, checked field by field (see shapeCheck.ts): what the
 * text report, the report page, the annotations and compare read without looking twice. Fields
 * that older versions did not write are optional here as in the types.
 */
import type { LoadFigures } from './load';
import {
  SUMMARY_SCHEMA_VERSION,
  type AllocGcLink,
  type AllocFunctionSummary,
  type AllocSummary,
  type CpuFunctionSummary,
  type CpuLeftOut,
  type CpuLineSummary,
  type CpuProfileFile,
  type CpuSummary,
  type GcShareOf,
  type SiteCost,
  type SiteCostSpan,
  type SiteOwner,
  type SurvivorFunction,
  type SurvivorsSummary,
  type TierEvent,
  type TierHistory,
  type TierHistoryEntry,
  type DeoptFunctionSummary,
  type DeoptReasonCount,
  type DeoptSummaryEntry,
  type GcInWindow,
  type GcInWindowFigures,
  type GcIsolateSummary,
  type GcSummary,
  type GcTypeStats,
  type InlinedLinesSummary,
  type LoadSummary,
  type OptimizedFunctionSummary,
  type PretenuredSite,
  type PretenuringSummary,
  type SelfCheck,
  type SelfCheckCount,
  type ProcessCpuSummary,
  type ProcessSummary,
  type SourcePosition,
  type Summary,
  type SummarySource,
  type YoungGeneration,
} from './summary';
import { checkPrediction } from './predictionCheck';
import { arrayOf, bool, nullable, num, oneOf, optional, recordOf, shape, str, type Check } from './shapeCheck';

/**
 * A file in the run folder's `cpu/` named by its name alone: a path ("../../etc/passwd", "/dev/zero")
 * would have the report read a file outside the run folder.
 */
export const profileFileName: Check = (v, at) => {
  if (typeof v !== 'string') return str(v, at);
  if (v === '' || v === '.' || v === '..' || /[/\\\0]/.test(v)) return `${at} is ${JSON.stringify(v.slice(0, 60))}: a path, not the name of a file in cpu/`;
  return null;
};

const position = { url: str, line: num, column: num };
const sourcePosition = shape<SourcePosition>(position);

const cpuFunction = shape<CpuFunctionSummary>({ name: str, ...position, selfMs: num, totalMs: num, pids: optional(arrayOf(num)), onCpuMs: optional(num) });
const cpuLine = shape<CpuLineSummary>({ url: str, line: num, selfMs: num, onCpuMs: optional(num) });
const cpuProfileFile = shape<CpuProfileFile>({ file: profileFileName, pid: nullable(num), threadId: nullable(num), durationMs: num, sampleCount: num });

const cpuSummary = shape<CpuSummary>({
  profile: profileFileName,
  durationMs: num,
  sampleCount: num,
  sampleIntervalMs: num,
  functions: arrayOf(cpuFunction),
  lines: arrayOf(cpuLine),
  inlinedLines: optional(shape<InlinedLinesSummary>({ movedMs: num, droppedMs: num, uncheckedMs: num })),
  pseudo: shape<CpuSummary['pseudo']>({ gcMs: num, idleMs: num, programMs: num }),
  waitingMs: optional(num),
  waiting: optional(arrayOf(cpuFunction)),
  onCpuMs: optional(num),
  leftOut: optional(shape<CpuLeftOut>({ v8LensMs: num, v8LensSamples: num, beforeFirstSampleMs: num })),
  profiles: arrayOf(cpuProfileFile),
});

const gcTypeStats = shape<GcTypeStats>({ count: num, totalMs: num, meanMs: num, p95Ms: num, maxMs: num });
const gcIsolate = shape<GcIsolateSummary>({ pid: num, isolate: str, eventCount: num, totalPauseMs: num });
const gcShareOf = optional(nullable(shape<GcShareOf>({ processes: arrayOf(str), label: str, pauseMs: num, wallMs: num })));

const siteCostSpan = shape<SiteCostSpan>({ spanMs: num, markCompacts: num, markCompactMs: num, oldGrowthMB: num });

const gcSummary = shape<GcSummary>({
  byType: recordOf(gcTypeStats),
  totalPauseMs: num,
  incrementalMarkingMs: num,
  wallShare: num,
  wallMs: num,
  shareOf: gcShareOf,
  semiSpaceMB: nullable(num),
  youngGeneration: optional(shape<YoungGeneration>({ collector: oneOf('Scavenger', 'Minor Mark-Sweep', null), newSpaceMB: nullable(num) })),
  semiSpaceRequestedMB: nullable(num),
  eventCount: num,
  byReason: recordOf(num),
  unparsedLines: num,
  isolate: nullable(gcIsolate),
  otherIsolates: arrayOf(gcIsolate),
  causedByV8Lens: optional(nullable(shape<NonNullable<GcSummary['causedByV8Lens']>>({ events: num, pauseMs: num, byType: recordOf(num), why: str }))),
  helperThreads: optional(nullable(shape<NonNullable<GcSummary['helperThreads']>>({ ms: num, byPhase: recordOf(num), events: num }))),
  pretenuring: optional(
    nullable(
      shape<PretenuringSummary>({
        linesSeen: num,
        linesRead: num,
        sitesWeighed: num,
        sitesTenured: num,
        sitesEndedTenured: num,
        untenured: num,
        tenured: arrayOf(
          shape<PretenuredSite>({
            pid: num,
            isolate: str,
            site: str,
            firstTenuredMs: nullable(num),
            survivalAtTenure: num,
            endedTenured: bool,
            timesTenured: num,
            timesUntenured: num,
            weighings: num,
            mementosCreated: num,
            mementosFound: num,
            owner: optional(nullable(shape<SiteOwner>({ name: str, url: str, line: num, column: num, basis: oneOf('survivors', 'allocations'), why: str, inlinedCandidates: optional(arrayOf(str)) }))),
            cost: optional(nullable(shape<SiteCost>({ atMs: num, before: siteCostSpan, after: siteCostSpan }))),
          }),
        ),
      }),
    ),
  ),
});

const deoptEntry = shape<DeoptSummaryEntry>({
  ...position,
  function: str,
  functionStart: optional(nullable(sourcePosition)),
  optimizedFunction: str,
  kind: str,
  reason: str,
  count: num,
  inlinedAt: arrayOf(sourcePosition),
  firstMs: nullable(num),
  lastMs: nullable(num),
  tier: nullable(str),
  processes: optional(arrayOf(str)),
  afterWindow: optional(num),
  beforeWindow: optional(num),
  sources: optional(arrayOf(oneOf('v8-log', 'code-trace'))),
});

const deoptFunction = shape<DeoptFunctionSummary>({
  ...position,
  function: str,
  tiers: arrayOf(str),
  deoptCount: num,
  inlinedDeoptCount: num,
  reasons: arrayOf(shape<DeoptReasonCount>({ kind: str, reason: str, count: num })),
  reoptimized: nullable(bool),
  reoptimizations: num,
});

const optimizedFunction = shape<OptimizedFunctionSummary>({ ...position, function: str, tiers: arrayOf(str), optimizations: num });

const loadFigures = shape<LoadFigures>({
  requests: num,
  durationSeconds: num,
  rps: num,
  p50Ms: num,
  p99Ms: num,
  meanLatencyMs: num,
  errors: num,
  timeouts: num,
  non2xx: num,
});

const gcInWindowFigures = { events: num, scavenges: num, markCompacts: num, pauseMs: num, wallShare: num, helperMs: optional(nullable(num)) };
const gcInWindow = shape<GcInWindow>({
  ...gcInWindowFigures,
  processes: optional(arrayOf(shape<GcInWindowFigures & { pid: number; isolate: string }>({ ...gcInWindowFigures, pid: num, isolate: str }))),
  shareOf: gcShareOf,
});

/** load.json, and `load` in summary.json. */
export const checkLoadSummary: Check = shape<LoadSummary>({
  url: str,
  connections: num,
  rate: nullable(num),
  warmupSeconds: num,
  durationSeconds: num,
  figures: nullable(loadFigures),
  failedRequests: num,
  error: nullable(str),
  gcInWindow: nullable(gcInWindow),
  windowEpochMs: optional(nullable(shape<{ start: number; end: number }>({ start: num, end: num }))),
  codeTraceBytes: optional(nullable(shape<NonNullable<LoadSummary['codeTraceBytes']>>({ start: recordOf(num), end: recordOf(num) }))),
  rpsTimeline: optional(nullable(arrayOf(arrayOf(num)))),
});

const allocSummary = shape<AllocSummary>({
  samplingIntervalBytes: num,
  totalBytes: num,
  bytesPerSecond: nullable(num),
  bytesPerRequest: nullable(num),
  liveAtEndBytes: nullable(num),
  sampleCount: num,
  functions: arrayOf(shape<AllocFunctionSummary>({ name: str, url: str, line: num, column: num, selfBytes: num, totalBytes: num, share: num, youngGcPauseMsEstimate: optional(nullable(num)) })),
  gcLink: optional(nullable(shape<AllocGcLink>({ youngGcs: num, youngGcPauseMs: num, bytesPerYoungGc: nullable(num), youngGenerationBytes: nullable(num), traceAllocatedBytes: nullable(num), ratio: nullable(num), disagreement: nullable(str), copiedBytes: optional(num), promotedBytes: optional(num), nvpAllocatedBytes: optional(num) }))),
  inliningCaveat: optional(nullable(str)),
  exactSites: optional(bool),
  liveOnly: optional(bool),
  mode: optional(oneOf('survivors')),
});

const survivorsSummary = shape<SurvivorsSummary>({
  dir: str,
  samplingIntervalBytes: num,
  totalBytes: num,
  bytesPerRequest: nullable(num),
  survivalShare: nullable(num),
  youngGc: shape<SurvivorsSummary['youngGc']>({ count: num, pauseMs: num, copiedBytes: nullable(num), promotedBytes: nullable(num) }),
  comparedBy: oneOf('requests', 'fixed work', null),
  notComparable: nullable(str),
  functions: arrayOf(shape<SurvivorFunction>({ name: str, url: str, line: num, column: num, bytes: num, share: num, survivalRate: nullable(num), copiedBytesEstimate: nullable(num), copyMsEstimate: nullable(num) })),
  meaning: str,
});

const processSummary = shape<ProcessSummary>({
  id: str,
  pid: num,
  parentPid: nullable(num),
  threadId: nullable(num),
  role: oneOf('main', 'primary', 'worker', 'child', 'worker thread', 'npm'),
  command: str,
  startMs: nullable(num),
  endMs: nullable(num),
  cpu: nullable(
    shape<ProcessCpuSummary>({
      profile: profileFileName,
      sampledMs: num,
      sampleCount: num,
      idleShare: num,
      waitingShare: optional(num),
      threadCpuMs: optional(nullable(num)),
      threadCpuSource: optional(oneOf('/proc', 'threadCpuUsage', 'schedstat', null)),
      wallMs: optional(nullable(num)),
      tid: optional(nullable(num)),
    }),
  ),
  gc: nullable(gcSummary),
  deoptCount: nullable(num),
  maxRssMB: nullable(num),
  alloc: optional(nullable(allocSummary)),
  allocMissing: optional(str),
});

const tierEvent = shape<TierEvent>({ atMs: nullable(num), atErrorMs: optional(num), kind: oneOf('optimized', 'deopt'), tier: str, reason: optional(str), process: optional(str) });
const tierHistory = shape<TierHistory>({
  timed: bool,
  functions: arrayOf(
    shape<TierHistoryEntry>({
      function: str,
      url: str,
      line: num,
      column: num,
      selfMs: num,
      totalMs: num,
      events: arrayOf(tierEvent),
      tierNow: nullable(str),
      firstOptimizedMs: nullable(num),
      firstTurboFanMs: nullable(num),
      deopts: num,
      reoptimizations: num,
      traced: bool,
    }),
  ),
  optimizationsPerSecond: nullable(arrayOf(num)),
});

const selfCheckCount = optional(shape<SelfCheckCount>({ seen: num, read: num }));
const selfCheck = shape<SelfCheck>({ gcLines: selfCheckCount, deopts: selfCheckCount, optimizations: selfCheckCount, nvpAllocated: selfCheckCount });

/** summary.json; what `withSummaryDefaults` fills in may be absent. */
export const checkSummary: Check = shape<Summary>({
  schemaVersion: oneOf(SUMMARY_SCHEMA_VERSION),
  source: shape<SummarySource>({ kind: oneOf('run', 'cpuprofile', 'gc-trace', 'v8-log'), path: str }),
  cpu: nullable(cpuSummary),
  gc: nullable(gcSummary),
  deopts: optional(arrayOf(deoptEntry)),
  deoptFunctions: optional(arrayOf(deoptFunction)),
  optimizedFunctions: optional(arrayOf(optimizedFunction)),
  tierHistory: optional(nullable(tierHistory)),
  deoptCoverage: optional(oneOf('collected', 'partial', 'not-collected')),
  load: optional(nullable(checkLoadSummary)),
  processes: optional(arrayOf(processSummary)),
  alloc: optional(nullable(allocSummary)),
  allocMissing: optional(str),
  survivors: optional(nullable(survivorsSummary)),
  prediction: optional(nullable(checkPrediction)),
  predictionMissing: optional(nullable(str)),
  selfCheck: optional(nullable(selfCheck)),
  warnings: optional(arrayOf(str)),
});
