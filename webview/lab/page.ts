/** What the lab page's parts share: the way to the host, the mode, and the little state there is. */
import type { FromLab, LabForm } from '../../src/shared/labProtocol';

export interface LabPage {
  /** <html data-mode="results">: the editor panel, with the results alone (no form, no Apply, no Open results). */
  readonly resultsOnly: boolean;
  post(message: FromLab): void;
  /** The form as the host sent it (`init`), changed in place by the fields; null before. */
  form: LabForm | null;
  /** A sweep is going (Run off, Cancel on). */
  running: boolean;
  /** The runs of the sweep going, for "Run 3/15". */
  runCount: number;
}
