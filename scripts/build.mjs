// Bundles the Node-side entry points with esbuild. Type checking is a separate step (`npm run typecheck`).
import { build } from 'esbuild';
import { chmod, readFile } from 'node:fs/promises';

const production = process.argv.includes('--production');
const { version } = JSON.parse(await readFile('package.json', 'utf8'));

/** @type {import('esbuild').BuildOptions} */
const nodeDefaults = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  sourcemap: !production,
  sourcesContent: false,
  minify: production,
  external: ['vscode'],
  define: { __V8_LENS_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
};

await Promise.all([
  build({ ...nodeDefaults, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } }),
  // The preload runs inside the *target's* Node (any version from 18 on), so it must stay dependency-free and small.
  build({ ...nodeDefaults, entryPoints: ['src/core/preload/agent.ts'], outfile: 'dist/preload.js', sourcemap: false }),
]);
await chmod('dist/cli.js', 0o755);
