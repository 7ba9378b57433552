/** The shape of session.json, checked field by field (see shapeCheck.ts). */
import type { AttachInfo, SessionRecord } from './session';
import { arrayOf, bool, nullable, num, oneOf, optional, recordOf, shape, str, type Check } from './shapeCheck';

const attachInfo = shape<AttachInfo>({
  inspector: str,
  openedInspector: bool,
  viaDebugProxy: bool,
  commandLine: nullable(str),
  requestedDurationMs: nullable(num),
  gcEvents: num,
  window: optional(shape<NonNullable<AttachInfo['window']>>({ startMs: num, endMs: num })),
  reason: nullable(str),
  allocations: optional(
    nullable(shape<NonNullable<AttachInfo['allocations']>>({ file: str, samplingIntervalBytes: num, startMs: num, endMs: num, liveAtEndBytes: nullable(num) })),
  ),
});

export const checkSession: Check = shape<SessionRecord>({
  schemaVersion: oneOf(1),
  tool: shape<SessionRecord['tool']>({ name: oneOf('v8-lens'), version: str }),
  status: oneOf('running', 'finished', 'stopped', 'cancelled', 'crashed', 'failed', 'target-exited', 'interrupted'),
  owner: optional(shape<NonNullable<SessionRecord['owner']>>({ pid: num, host: str, startTicks: nullable(num) })),
  interrupted: optional(shape<NonNullable<SessionRecord['interrupted']>>({ detectedAt: str, lastWrittenAt: nullable(str) })),
  mode: optional(oneOf('launch', 'attach')),
  attach: optional(attachInfo),
  node: shape<SessionRecord['node']>({ command: str, execPath: str, version: str, v8Version: str }),
  target: shape<SessionRecord['target']>({ kind: oneOf('script', 'command'), program: str, args: arrayOf(str), cwd: str, name: optional(str) }),
  launch: shape<SessionRecord['launch']>({
    mode: oneOf('direct', 'node-options'),
    command: str,
    argv: arrayOf(str),
    env: recordOf(str),
    limitations: arrayOf(str),
  }),
  flags: shape<SessionRecord['flags']>({
    preset: nullable(str),
    capture: shape<SessionRecord['flags']['capture']>({ cpu: bool, gc: bool, deopts: bool, alloc: optional(bool) }),
    samplingIntervalUs: num,
    semiSpaceMB: nullable(num),
    stableDeopts: bool,
    extra: arrayOf(str),
    allocSamplingBytes: optional(num),
    exactAllocSites: optional(bool),
    allocMode: optional(oneOf('survivors')),
    gcPhases: optional(bool),
    inheritedNodeOptions: optional(nullable(str)),
    timeoutS: nullable(num),
  }),
  pid: nullable(num),
  startedAt: str,
  endedAt: nullable(str),
  durationMs: nullable(num),
  exit: nullable(
    shape<NonNullable<SessionRecord['exit']>>({ code: nullable(num), signal: nullable(str), requested: oneOf('stop', 'kill', null), hardKilled: bool }),
  ),
  stderrTail: arrayOf(str),
  machine: shape<SessionRecord['machine']>({ platform: str, cpus: num, loadavg: arrayOf(num), totalMemMB: num }),
});
