// Draws the folder-level dependency graph with dependency-cruiser's own mermaid output and writes it
// to docs/dependency-graph.md (GitHub renders mermaid). `npm run depgraph`; a unit test checks the
// committed file is current, so the picture in the docs is the code's.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

export const GRAPH_FILE = 'docs/dependency-graph.md';

export function drawGraph() {
  const bin = 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'; // the package exports no bin path
  const mermaid = execFileSync(process.execPath, [
    bin, 'src', 'webview',
    '--config', '.dependency-cruiser.cjs',
    '--include-only', '^(src|webview)/',
    '--collapse', '^(src/core/[^/]+|src/shared|src/extension|webview/[^/]+|src/cli\\.ts)',
    '--output-type', 'mermaid',
  ], { encoding: 'utf8' });
  return [
    '# Dependency graph',
    '',
    'Folder-level imports of `src/` and `webview/`, drawn by dependency-cruiser (`npm run depgraph`; a',
    'unit test fails when this file is out of date). The rules they obey are in',
    '[architecture.md](architecture.md).',
    '',
    '```mermaid',
    mermaid.trim(),
    '```',
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(GRAPH_FILE, drawGraph());
  console.log(`wrote ${GRAPH_FILE}`);
}
