import { EXIT } from './exitCodes';

/**
 * An error whose message is meant for the user as it is: one line, no stack trace, says what went
 * wrong and, where it helps, what to do. Everything else that escapes is a bug in V8 Lens.
 */
export class UserError extends Error {
  constructor(
    message: string,
    /** Process exit code the CLI uses for this error (util/exitCodes.ts). */
    readonly exitCode: number = EXIT.failed,
  ) {
    super(oneLine(message));
    this.name = 'UserError';
  }
}

/** Collapses whitespace so a message never spans lines (file names can contain newlines). */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function isErrno(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as NodeJS.ErrnoException).code === code;
}
