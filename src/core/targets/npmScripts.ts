import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface NpmScript {
  name: string;
  command: string;
  /** The folder holding the package.json. */
  folder: string;
}

/** The scripts of a folder's package.json; none (not an error) when it has none or no package.json. */
export async function readNpmScripts(folder: string): Promise<NpmScript[]> {
  try {
    const pkg = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as { scripts?: Record<string, unknown> };
    return Object.entries(pkg.scripts ?? {})
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
      .map(([name, command]) => ({ name, command, folder }));
  } catch {
    return [];
  }
}
