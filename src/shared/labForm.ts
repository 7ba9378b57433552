/** The Semi-space Lab's form: types and defaults only, no Node imports (the webview shares them). */
import { SWEEP_FLAGS } from './sweepFlags';
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

export const DEFAULT_LAB_FORM: LabForm = {
  targetId: '',
  readyKind: 'url',
  readyValue: '',
  url: 'http://127.0.0.1:3000/',
  method: 'GET',
  headers: '',
  body: '',
  connections: 20,
  warmupSeconds: 5,
  durationSeconds: 10,
  mode: 'closed',
  rate: 2000,
  flag: SEMI_SPACE_FLAG,
  values: SWEEP_FLAGS[0]!.suggested,
  rounds: 3,
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
