import { readdir, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { readSetting } from '../contract';
import { freeFolderIn, runFolderLabel, runFolderStamp } from '../../core/run/runFolderName';

/** Where a workspace folder's runs go (`v8Lens.runsFolder`, relative to the folder). */
export function runsFolderFor(folder: string | undefined, scope?: vscode.ConfigurationScope): string {
  const setting = readSetting('runsFolder', scope);
  if (isAbsolute(setting)) return setting;
  return join(folder ?? join(homedir(), '.v8-lens'), setting);
}

export function newRunDir(runsFolder: string, label: string): string {
  return freeFolderIn(runsFolder, `${runFolderStamp()}-${runFolderLabel(label)}`);
}

/** Keeps the newest `retention` run folders (by name, which starts with the time). */
export async function applyRetention(runsFolder: string, retention: number): Promise<void> {
  const entries = (await readdir(runsFolder).catch(() => [] as string[])).filter((n) => /^\d{8}-\d{6}-/.test(n)).sort();
  const excess = entries.slice(0, Math.max(0, entries.length - retention));
  for (const name of excess) {
    const dir = join(runsFolder, name);
    if ((await stat(join(dir, 'session.json')).catch(() => null)) !== null) await rm(dir, { recursive: true, force: true });
  }
}
