/** The Semi-space Lab's form: types and defaults only, no Node imports (the webview shares them). */

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
  /** "16, 32, 64, 128, 256" */
  sizes: string;
  rounds: number;
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
  sizes: '16, 32, 64, 128, 256',
  rounds: 3,
  pinMin: false,
  onFailure: 'continue',
};


