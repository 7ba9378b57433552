/**
 * The `v8-lens` bin: runs the command line (cli-main.js beside it) with a V8 code cache of it
 * (core/util/codeCache.ts). A CLI run is short, and compiling its bundle and then each function it
 * calls was a third of the CPU time of profiling a script that does nothing. The cache is written at
 * exit, so it holds every function the run compiled, not only the top level; one per command.
 *
 * Node built-ins only, and nothing else: this file is evaluated before any cache helps.
 */
import { join } from 'node:path';
import { loadWithCodeCache } from './core/util/codeCache';

// One cache per command (anything that is not one, `--version` say, shares 'other').
loadWithCodeCache(join(__dirname, 'cli-main.js'), process.argv[2] ?? '');
