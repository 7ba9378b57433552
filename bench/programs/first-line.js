'use strict';
// The start-up kind of the overhead bench: when a script's first line runs, from its process's
// start. process.uptime() is read from a binding Node has already loaded; `performance` would load
// perf_hooks first (under a V8 flag, without the code cache), which would time itself.
console.log(`bench-first-line ${(process.uptime() * 1000).toFixed(2)} ms`);
