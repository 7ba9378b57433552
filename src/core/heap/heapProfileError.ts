import { UserError } from '../util/errors';

/** A `.heapprofile` that cannot be used: one line naming the file and what is wrong with it. */
export class HeapProfileError extends UserError {
  constructor(
    readonly sourceName: string,
    readonly problem: string,
  ) {
    super(`Cannot use heap profile ${sourceName}: ${problem}`);
    this.name = 'HeapProfileError';
  }
}
