/**
 * Keeps annotations on the right lines while the user edits: lines below an edit move with it, and
 * lines inside the edited range lose their annotation (their code is no longer what ran).
 */

export interface LineEdit {
  /** 1-based first and last line of the replaced range. */
  startLine: number;
  endLine: number;
  /** Lines the replacement text spans (1 for text without a line break). */
  newLineCount: number;
}

/** The line `line` is on after `edit`, or null when the edit touched it. */
export function shiftLine(line: number, edit: LineEdit): number | null {
  if (line < edit.startLine) return line;
  if (line > edit.endLine) return line + edit.newLineCount - (edit.endLine - edit.startLine + 1);
  return null;
}

/** Applies edits in the order the editor reports them (each relative to the text before it). */
export function shiftLines(line: number, edits: readonly LineEdit[]): number | null {
  let current: number | null = line;
  for (const edit of edits) {
    if (current === null) return null;
    current = shiftLine(current, edit);
  }
  return current;
}
