import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Default names of run and sweep folders: `<UTC time to the second>-<label>`, which sorts by time
 * (retention keeps the newest by name). Two runs started in the same second (a script that ends at
 * once, a gate's rounds) get `-2`, `-3`, … rather than the second one failing on a folder the first
 * one filled.
 */
export function runFolderStamp(now = new Date()): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, '').replace('T', '-');
}

/** A label fit for a folder name: no extension, no characters a shell or file system minds, at most 40 (a 245-character script name gave ENAMETOOLONG). */
export function runFolderLabel(label: string): string {
  return label.replace(/\.[^.]+$/, '').replace(/[^\w.-]+/g, '_').slice(0, 40) || 'run';
}

/** `parent/<base>`, or `<base>-N` for the first N from 2 whose folder is absent or empty. */
export function freeFolderIn(parent: string, base: string): string {
  for (let n = 1; ; n++) {
    const dir = join(parent, n === 1 ? base : `${base}-${n}`);
    if (isAbsentOrEmpty(dir)) return dir;
  }
}

function isAbsentOrEmpty(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch (err) {
    // Not there: free. Anything else (a file of that name, no permission): taken.
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}
