/**
 * A run's title, the same in the report's tab, Sessions and the compare view: what the user picked
 * (a launch configuration's name, `npm run start`), else the program's file name. Pure (no
 * node:path: the webviews import it too).
 */
import type { SessionRecord } from './model/session';

export function runTargetTitle(session: Pick<SessionRecord, 'target'>): string {
  const { name, program } = session.target;
  if (name) return name;
  return program.split(/[\\/]/).filter(Boolean).pop() ?? program;
}
