import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The scripts V8 Lens runs in processes of their own, bundled by scripts/build.mjs. In the bundles
 * (dist/cli.js, dist/extension.js) they sit beside them; when the sources run directly (tests
 * through tsx) they are the build's dist/ files. The one place that knows where they are.
 */
function bundledScript(name: string, what: string): string {
  const candidates = [join(__dirname, name), join(__dirname, '..', '..', '..', 'dist', name)];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`${what} is missing (looked in ${candidates.join(', ')}); run npm run build`);
  return found;
}

/**
 * The preload bundle's file name: how a run's launch line (session.json) shows which `--require` is
 * V8 Lens's own, wherever the bundle lives (a dev checkout's dist/, an installed extension's).
 */
export const PRELOAD_BUNDLE_FILE = 'preload.js';

/**
 * The agents' folder beside the bundles: dist/agent/, with a one-line package.json of its own (see
 * scripts/build.mjs), so that Node does not parse V8 Lens's manifest in the target's heap.
 */
export const AGENT_BUNDLE_DIR = 'agent';

/** dist/agent/preload.js: the agent `--require`d into every target process. */
export function preloadAgentPath(): string {
  return bundledScript(join(AGENT_BUNDLE_DIR, PRELOAD_BUNDLE_FILE), 'the preload agent');
}

/** The lab's measured runs' agent, beside the preload (see preload/labAgent.ts). */
export const LAB_PRELOAD_BUNDLE_FILE = 'lab-preload.js';

/** dist/load-runner.js: the load generator, forked. */
export function loadRunnerPath(): string {
  return bundledScript('load-runner.js', 'the load generator');
}
