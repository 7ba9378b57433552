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

/**
 * What a run under load loaded, as the run lists tell runs apart: the URL's path and query
 * ("/hash", "/price?id=3"), since host and port change from run to run; the text itself when it
 * is not a URL.
 */
export function loadedPath(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}
