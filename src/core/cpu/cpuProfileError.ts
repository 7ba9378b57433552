import { UserError } from '../util/errors';

/**
 * A `.cpuprofile` that cannot be used. The message is for the user as it is: one line, names the
 * file and says what is wrong with it (never a stack trace or a raw `JSON.parse` message alone).
 */
export class CpuProfileError extends UserError {
  constructor(
    readonly sourceName: string,
    /** What is wrong, without the file name: "the file is empty". */
    readonly problem: string,
  ) {
    super(`Cannot use CPU profile ${sourceName}: ${problem}`);
    this.name = 'CpuProfileError';
  }
}
