import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** V8 Lens's folder of the user's cache: `$XDG_CACHE_HOME/v8-lens`, else `~/.cache/v8-lens` (the node probe's answers, the code caches). */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'v8-lens');
}
