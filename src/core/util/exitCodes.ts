/**
 * The exit codes of every `v8-lens` command, as the README's table lists them. A UserError carries
 * one (EXIT.failed unless it says otherwise); anything else that escapes is EXIT.internal.
 */
export const EXIT = {
  /** Done: the run, report or comparison is complete (warnings may say what is partial). */
  ok: 0,
  /** The target failed (crashed, never got ready, lost requests), or the input is bad (a broken profile). */
  failed: 1,
  /** The command line is wrong: an unknown option, a missing argument, a bad value. */
  usage: 2,
  /** A bug in V8 Lens: the message says so (V8_LENS_DEBUG=1 prints the stack). */
  internal: 70,
  /** Stopped by the user (Ctrl-C) before the end; what was collected is kept. */
  cancelled: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
