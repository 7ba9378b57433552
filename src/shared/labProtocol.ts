/**
 * The typed messages between the Semi-space Lab webview (sidebar view and results panel) and the
 * extension host. Both sides import this file, and each checks what it receives: the host
 * everything from the webview, the webview what reaches its window as a message.
 */
import { upgradeLabForm, type LabForm } from './labForm';
import type { SweepProgress, SweepResult, SweepRun } from './model/sweep';

export type { LabForm } from './labForm';

export type { SweepProgress, SweepResult, SweepRun, SweepSettingResult } from './model/sweep';

/** A target the lab can start directly (a sweep owns the command line: --trace-gc, the swept flag). */
export interface LabTarget {
  id: string;
  label: string;
  detail: string;
}

/** Host → webview. */
export type ToLab =
  | { type: 'init'; targets: LabTarget[]; form: LabForm; result: SweepResult | null; running: boolean; trusted: boolean }
  | { type: 'targets'; targets: LabTarget[] }
  | { type: 'started'; runs: number; estimateSeconds: number }
  | { type: 'progress'; progress: SweepProgress }
  /** A run finished or the sweep ended: the figures so far. */
  | { type: 'result'; result: SweepResult; final: boolean }
  | { type: 'error'; message: string }
  | { type: 'stopped' }
  /** Apply: the diff of `--<flag>=<value>` is open in the editor; the lab asks before anything is written. */
  | { type: 'applyProposed'; flag: string; value: number; where: string }
  | { type: 'applied'; message: string };

/** Webview → host. */
export type FromLab =
  | { type: 'ready' }
  | { type: 'run'; form: LabForm }
  | { type: 'cancel' }
  | { type: 'formChanged'; form: LabForm }
  /** Apply the recommended value of the last sweep's flag (the host knows the flag; it checks the value is one the sweep compared). */
  | { type: 'apply'; value: number }
  | { type: 'applyConfirm'; write: boolean }
  | { type: 'openResults' }
  | { type: 'revealFolder' };

const FORM_STRINGS = ['targetId', 'readyValue', 'url', 'method', 'headers', 'body', 'flag', 'values'] as const;
const FORM_NUMBERS = ['connections', 'warmupSeconds', 'durationSeconds', 'rate', 'rounds'] as const;

/**
 * Structure only (types and sizes); the meaning is checked when the host builds the config. A
 * form of an earlier version (`sizes`, no `flag`) is read as a semi-space sweep's.
 */
export function parseLabForm(value: unknown): LabForm | null {
  if (typeof value !== 'object' || value === null) return null;
  const f = upgradeLabForm(value as Record<string, unknown>);
  for (const k of FORM_STRINGS) if (typeof f[k] !== 'string' || (f[k] as string).length > 20_000) return null;
  for (const k of FORM_NUMBERS) if (typeof f[k] !== 'number' || !Number.isFinite(f[k])) return null;
  if (f.readyKind !== 'url' && f.readyKind !== 'line') return null;
  if (f.mode !== 'closed' && f.mode !== 'rate') return null;
  if (f.onFailure !== 'continue' && f.onFailure !== 'stop') return null;
  if (typeof f.pinMin !== 'boolean') return null;
  const form = {} as Record<string, unknown>;
  for (const k of [...FORM_STRINGS, ...FORM_NUMBERS, 'readyKind', 'mode', 'onFailure', 'pinMin'] as const) form[k] = f[k];
  return form as unknown as LabForm;
}

export function parseFromLab(value: unknown): FromLab | null {
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
    case 'cancel':
    case 'openResults':
    case 'revealFolder':
      return { type: m.type };
    case 'run':
    case 'formChanged': {
      const form = parseLabForm(m.form);
      return form ? { type: m.type, form } : null;
    }
    case 'applyConfirm':
      return typeof m.write === 'boolean' ? { type: 'applyConfirm', write: m.write } : null;
    case 'apply': {
      // `semiSpaceMB`: what an earlier version of the webview sent.
      const value = typeof m.value === 'number' ? m.value : m.semiSpaceMB;
      return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1e9 ? { type: 'apply', value } : null;
    }
    default:
      return null;
  }
}

/**
 * Checks a message to the webview before the page acts on it. A sweep's result is big: it is
 * checked to be an object (the page shows it as text); the rest field by field.
 */
export function parseToLab(value: unknown): ToLab | null {
  if (!isRecord(value)) return null;
  const m = value;
  switch (m.type) {
    case 'init': {
      const targets = parseTargets(m.targets);
      const form = parseLabForm(m.form);
      if (!targets || !form || (m.result !== null && !isRecord(m.result))) return null;
      if (typeof m.running !== 'boolean' || typeof m.trusted !== 'boolean') return null;
      return { type: 'init', targets, form, result: m.result as unknown as SweepResult | null, running: m.running, trusted: m.trusted };
    }
    case 'targets': {
      const targets = parseTargets(m.targets);
      return targets ? { type: 'targets', targets } : null;
    }
    case 'started':
      return typeof m.runs === 'number' && typeof m.estimateSeconds === 'number' ? { type: 'started', runs: m.runs, estimateSeconds: m.estimateSeconds } : null;
    case 'progress': {
      const progress = parseSweepProgress(m.progress);
      return progress ? { type: 'progress', progress } : null;
    }
    case 'result':
      return isRecord(m.result) && typeof m.final === 'boolean' ? { type: 'result', result: m.result as unknown as SweepResult, final: m.final } : null;
    case 'error':
      return typeof m.message === 'string' ? { type: 'error', message: m.message } : null;
    case 'stopped':
      return { type: 'stopped' };
    case 'applyProposed':
      if (typeof m.flag !== 'string' || typeof m.value !== 'number' || typeof m.where !== 'string') return null;
      return { type: 'applyProposed', flag: m.flag, value: m.value, where: m.where };
    case 'applied':
      return typeof m.message === 'string' ? { type: 'applied', message: m.message } : null;
    default:
      return null;
  }
}

function parseTargets(value: unknown): LabTarget[] | null {
  if (!Array.isArray(value)) return null;
  const targets: LabTarget[] = [];
  for (const t of value) {
    if (!isRecord(t) || typeof t.id !== 'string' || typeof t.label !== 'string' || typeof t.detail !== 'string') return null;
    targets.push({ id: t.id, label: t.label, detail: t.detail });
  }
  return targets;
}

const PHASES: ReadonlySet<unknown> = new Set(['starting', 'waiting-ready', 'warmup', 'measuring', 'stopping']);

/** A sweep's progress event; a run that ended is a big record, checked for what the page reads of it. */
function parseSweepProgress(value: unknown): SweepProgress | null {
  if (!isRecord(value)) return null;
  const p = value;
  switch (p.type) {
    case 'run-start':
      if (!isNumber(p.run) || !isNumber(p.of) || typeof p.flag !== 'string' || !isNumber(p.value) || !isNumber(p.round)) return null;
      if (p.semiSpaceMB !== null && !isNumber(p.semiSpaceMB)) return null;
      return { type: 'run-start', run: p.run, of: p.of, flag: p.flag, value: p.value, semiSpaceMB: p.semiSpaceMB, round: p.round };
    case 'phase':
      return isNumber(p.run) && PHASES.has(p.phase) ? { type: 'phase', run: p.run, phase: p.phase as Extract<SweepProgress, { type: 'phase' }>['phase'] } : null;
    case 'tick':
      if (!isNumber(p.run) || !isNumber(p.rps) || !isNumber(p.scavenges) || !isNumber(p.elapsedSeconds)) return null;
      return { type: 'tick', run: p.run, rps: p.rps, scavenges: p.scavenges, elapsedSeconds: p.elapsedSeconds };
    case 'run-end': {
      const run = p.run;
      if (!isRecord(run) || !isNumber(run.index) || !isNumber(run.round) || (run.status !== 'ok' && run.status !== 'invalid' && run.status !== 'cancelled')) return null;
      if (run.reason !== null && typeof run.reason !== 'string') return null;
      return { type: 'run-end', run: run as unknown as SweepRun };
    }
    case 'output':
      if (!isNumber(p.run) || (p.stream !== 'stdout' && p.stream !== 'stderr') || typeof p.text !== 'string') return null;
      return { type: 'output', run: p.run, stream: p.stream, text: p.text };
    default:
      return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number';
}
