import { readdirSync, readFileSync } from 'node:fs';
import { randomHex } from '../util/randomHex';
import { readProcStat } from './procStats';

/**
 * Every process a launch starts, and every process those start, inherits the launch's environment,
 * so a mark in it identifies them all, wherever they end up: reparented, or in a process group (and
 * session) of their own, out of reach of the signals to the target's group. At the end of a run,
 * a process that still carries the mark and runs outside the group is a stray: V8 Lens does not
 * stop it (it may be a daemon meant to outlive the app), but says so.
 */
export const LAUNCH_MARK_ENV = 'V8_LENS_LAUNCH';

export interface StrayProcess {
  pid: number;
  /** Its command line, shortened: enough to recognise it. */
  command: string;
}

const MAX_COMMAND_CHARS = 120;

/**
 * A mark no other launch (of this or another V8 Lens) has: the pid and the time make it unique on
 * the machine, the random part across containers sharing a pid namespace's numbers. It identifies,
 * it guards nothing, so Math.random serves (node:crypto took 4-5 ms of every command's start).
 */
export function newLaunchMark(): string {
  return `${process.pid}-${Date.now().toString(36)}-${randomHex()}`;
}

/**
 * The processes carrying `mark` that still run outside process group `groupId`, by pid. Linux only
 * (/proc/<pid>/environ, readable for our own processes); [] elsewhere. A process that replaced its
 * environment entirely (spawn with `env: {}`) is not found.
 */
export function findStrayProcesses(mark: string, groupId: number): StrayProcess[] {
  if (process.platform !== 'linux') return [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const entry = Buffer.from(`${LAUNCH_MARK_ENV}=${mark}\0`);
  const strays: StrayProcess[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    if (!hasEnvironmentEntry(name, entry)) continue;
    const stat = readProcStat(name);
    // Gone since, a zombie (it has ended), or in the group (the group's signals reach it).
    if (stat === null || stat.state === 'Z' || stat.pgrp === groupId) continue;
    strays.push({ pid: Number(name), command: commandLine(name) });
  }
  return strays.sort((a, b) => a.pid - b.pid);
}

function hasEnvironmentEntry(pid: string, entry: Buffer): boolean {
  let environ: Buffer;
  try {
    environ = readFileSync(`/proc/${pid}/environ`);
  } catch {
    return false; // another user's, or gone
  }
  for (let at = environ.indexOf(entry); at !== -1; at = environ.indexOf(entry, at + 1)) {
    if (at === 0 || environ[at - 1] === 0) return true;
  }
  return false;
}

function commandLine(pid: string): string {
  try {
    const text = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').split('\0').join(' ');
    return text.length > MAX_COMMAND_CHARS ? `${text.slice(0, MAX_COMMAND_CHARS - 1)}…` : text;
  } catch {
    return '?';
  }
}
