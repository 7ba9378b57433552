/**
 * The Semi-space Lab's form and the sweep's defaults: types and values only, no Node imports (the
 * webview shares them, and `v8-lens sweep` uses the same defaults).
 */
import { SEMI_SPACE_FLAG } from './model/sweep';

/** The form as the user filled it in; the host turns it into a SweepConfig and says what is wrong. */
export interface LabForm {
  targetId: string;
  readyKind: 'url' | 'line';
  /** The URL that must answer, or the text the target prints when it is ready. */
  readyValue: string;
  url: string;
  method: string;
  /** "Name: value" lines. */
  headers: string;
  body: string;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  mode: 'closed' | 'rate';
  rate: number;
  /**
   * The flag to sweep, without dashes: one of SWEEP_FLAGS (the select) or what the user typed
   * under "other…"; checked against the target's Node when the sweep starts.
   */
  flag: string;
  /** The values to compare, in the flag's unit: "16, 32, 64, 128, 256" (MB for the sizes). */
  values: string;
  rounds: number;
  /** Only for a `max-semi-space-size` sweep (the form hides it for other flags; the config ignores it then). */
  pinMin: boolean;
  onFailure: 'continue' | 'stop';
}

/** One set of defaults for every front door of a sweep: the lab's form and `v8-lens sweep`. */
export const SWEEP_DEFAULTS = {
  /** The semi-space sizes compared when none are given (MB). */
  semiSpaceSizesMB: [16, 32, 64, 128, 256],
  rounds: 3,
  connections: 20,
  warmupSeconds: 5,
  durationSeconds: 10,
  /** Per request: a timed-out request makes the run invalid. */
  requestTimeoutSeconds: 10,
  /** How long one run may take to get ready. */
  readyTimeoutSeconds: 30,
} as const;

export const DEFAULT_LAB_FORM: LabForm = {
  targetId: '',
  readyKind: 'url',
  readyValue: '',
  url: 'http://127.0.0.1:3000/',
  method: 'GET',
  headers: '',
  body: '',
  connections: SWEEP_DEFAULTS.connections,
  warmupSeconds: SWEEP_DEFAULTS.warmupSeconds,
  durationSeconds: SWEEP_DEFAULTS.durationSeconds,
  mode: 'closed',
  rate: 2000,
  flag: SEMI_SPACE_FLAG,
  values: SWEEP_DEFAULTS.semiSpaceSizesMB.join(', '),
  rounds: SWEEP_DEFAULTS.rounds,
  pinMin: false,
  onFailure: 'continue',
};

/**
 * A form saved (or sent) by an earlier version, where the values were `sizes` and the flag was
 * always the semi-space, in today's shape: `sizes` becomes `values`, `flag` the semi-space. Other
 * keys are left as they are (and missing ones are not filled: see labFormFromSaved).
 */
export function upgradeLabForm<T>(saved: T): T {
  if (typeof saved !== 'object' || saved === null) return saved;
  const f = { ...(saved as Record<string, unknown>) };
  if (typeof f.values !== 'string' && typeof f.sizes === 'string') f.values = f.sizes;
  if (typeof f.flag !== 'string') f.flag = SEMI_SPACE_FLAG;
  delete f.sizes;
  return f as T;
}

/** The form to show: the defaults, under what was saved (of any version). */
export function labFormFromSaved(saved: unknown): LabForm {
  const upgraded = upgradeLabForm(typeof saved === 'object' && saved !== null ? (saved as Partial<LabForm>) : {});
  const form = { ...DEFAULT_LAB_FORM };
  for (const key of Object.keys(DEFAULT_LAB_FORM) as (keyof LabForm)[]) {
    const value = (upgraded as Record<string, unknown>)[key];
    if (typeof value === typeof DEFAULT_LAB_FORM[key]) (form as Record<string, unknown>)[key] = value;
  }
  return form;
}
