import { join } from 'node:path';
import { readRegularFile } from '../util/files';

export interface NpmScript {
  name: string;
  command: string;
  /** The folder holding the package.json. */
  folder: string;
}

/** The scripts of a folder's package.json; none (not an error) when it has none or no package.json. */
export async function readNpmScripts(folder: string): Promise<NpmScript[]> {
  try {
    // The lab lists targets in untrusted workspaces too: a FIFO named package.json must not block.
    const pkg = JSON.parse(await readRegularFile(join(folder, 'package.json'), { maxBytes: 16 * 1024 * 1024 })) as { scripts?: unknown } | null;
    const scripts = typeof pkg?.scripts === 'object' && pkg.scripts !== null ? pkg.scripts : {};
    return Object.entries(scripts)
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
      .map(([name, command]) => ({ name, command, folder }));
  } catch {
    return [];
  }
}
