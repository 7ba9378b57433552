/**
 * The typed messages between the Semi-space Lab webview (sidebar view and results panel) and the
 * extension host. Both sides import this file; the host validates what it receives.
 */
import { upgradeLabForm, type LabForm } from './labForm';
import type { SweepProgress, SweepResult } from './model/sweep';

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
