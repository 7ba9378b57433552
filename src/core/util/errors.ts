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

/**
 * The line of a crashed Node process's stderr that says why: the thrown error's own line
 * (`TypeError: …`, `Error [ERR_…]: …`), not the `file.js:7` and source excerpt Node prints above
 * it; else the first line that is not blank.
 */
export function crashLine(stderr: string): string | null {
  const lines = stderr.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  return lines.find((line) => /^(?:[A-Z]\w*)?(?:Error|Exception)(?: \[\w+\])?: /.test(line)) ?? lines[0] ?? null;
}
