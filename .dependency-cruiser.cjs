// The architecture's rules, checked by `npm run lint:deps` (part of `npm test`); the reasons are in
// docs/architecture.md. A violation fails with the rule's name below.

/** src/core's layers, lowest first. A folder imports its own layer and the layers below, never above. */
const CORE_LAYERS = [
  { name: 'ground', folders: ['util'] },
  { name: 'formats', folders: ['cpu', 'gc', 'heap', 'v8log', 'sourcemap', 'pprof', 'predict'] },
  { name: 'process', folders: ['flags', 'targets', 'launcher', 'preload', 'load'] },
  { name: 'run-folder', folders: ['run'] },
  { name: 'workflows', folders: ['capture', 'attach', 'sweep', 'annotations'] },
  { name: 'views-model', folders: ['report', 'gate'] },
];

const folderPattern = (folders) => `^src/core/(${folders.join('|')})/`;

const layerRules = CORE_LAYERS.slice(0, -1).map((layer, i) => {
  const higher = CORE_LAYERS.slice(i + 1).flatMap((l) => l.folders);
  return {
    name: `core-layer-${layer.name}-imports-upward`,
    comment: `src/core/{${layer.folders.join(',')}} may not import the layers above it (${higher.join(', ')}).`,
    severity: 'error',
    from: { path: folderPattern(layer.folders) },
    to: { path: folderPattern(higher) },
  };
});

const knownCoreFolders = CORE_LAYERS.flatMap((l) => l.folders);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {

  forbidden: [
    {
      name: 'no-circular',
      comment: 'Import cycles make the layers meaningless and the load order fragile.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-vscode',
      comment: 'src/core is the engine the CLI also runs: it never imports the vscode API.',
      severity: 'error',
      from: { path: '^src/(core|shared)/' },
      to: { path: '^vscode$|node_modules/@types/vscode/' },
    },
    {
      name: 'core-imports-a-front-end',
      comment: 'src/core does not know its front ends: the extension, the webviews or the CLI.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^(src/extension/|webview/|src/cli\\.ts$)' },
    },
    {
      name: 'core-folder-outside-the-layers',
      comment: `Every src/core folder belongs to a layer in .dependency-cruiser.cjs (${knownCoreFolders.join(', ')}).`,
      severity: 'error',
      from: { path: '^src/core/', pathNot: `${folderPattern(knownCoreFolders)}` },
      to: {},
    },
    ...layerRules,
    {
      name: 'shared-imports-outside-shared',
      comment: 'src/shared is the protocol both sides import (Node and the browser): it imports only itself.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { pathNot: '^src/shared/' },
    },
    {
      name: 'webview-imports-past-the-protocol',
      comment: 'A webview reaches the model only through src/shared (plus its own files and browser libraries).',
      severity: 'error',
      from: { path: '^webview/' },
      to: { pathNot: '^(webview/|src/shared/|node_modules/)' },
    },
    {
      name: 'webview-imports-node',
      comment: 'Webviews run in a browser: no Node built-ins.',
      severity: 'error',
      from: { path: '^webview/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'cli-imports-the-extension',
      comment: 'The CLI runs without VS Code: it stands on src/core and src/shared only.',
      severity: 'error',
      from: { path: '^src/cli\\.ts$' },
      to: { path: '^(src/extension/|webview/)' },
    },
    {
      name: 'preload-imports-a-package',
      comment: "The preload runs inside the target's Node (any version): it bundles no npm packages.",
      severity: 'error',
      from: { path: '^src/core/preload/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'] },
    },
  ],
  options: {
    // Type-only imports count: a type from a higher layer is still an upward arrow.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|test)/' },
    reporterOptions: {
      archi: { collapsePattern: '^(src/core/[^/]+|src/shared|src/extension|webview/[^/]+|src/cli\\.ts|node_modules/[^/]+)' },
    },
  },
};
