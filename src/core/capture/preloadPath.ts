import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The bundled preload agent. In the bundles (dist/cli.js, dist/extension.js) it sits beside them;
 * when the sources run directly (tests through tsx) it is the build's dist/preload.js.
 */
export function preloadAgentPath(): string {
  const candidates = [join(__dirname, 'preload.js'), join(__dirname, '..', '..', '..', 'dist', 'preload.js')];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`the preload agent is missing (looked in ${candidates.join(', ')}); run npm run build`);
  return found;
}
