/**
 * Temporary folders for tests and benchmarks, removed when their process ends (each test file runs
 * in a process of its own), so a run of the suite or of `npm run bench` leaves nothing in the
 * system's temporary folder: thousands of folders had piled up on one machine, and each bench run
 * left about 100 MB (its generated profiles and GC log). V8_LENS_KEEP_TEST_DIRS=1 keeps them, to
 * look inside.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];
process.once('exit', () => {
  if (process.env.V8_LENS_KEEP_TEST_DIRS === '1') return;
  for (const dir of made) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      // still in use, or gone: the system's temporary folder is cleaned anyway
    }
  }
});

/** A new empty folder under the system's temporary folder, named `prefix` and six random characters. */
export function tempDir(prefix = 'v8-lens-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
