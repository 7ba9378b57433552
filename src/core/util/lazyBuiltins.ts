/**
 * Node built-ins that VS Code's extension host has not loaded before V8 Lens activates, required
 * where they are first used: evaluating them at activation cost about 5 ms of the extension's
 * 20 ms budget (bench/activationBench.ts), for work (a run, a sweep, a pprof file) that may never
 * come. `require` of a built-in is a cache lookup after the first.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
export const childProcess = (): typeof import('node:child_process') => require('node:child_process') as typeof import('node:child_process');
export const readline = (): typeof import('node:readline') => require('node:readline') as typeof import('node:readline');
export const zlib = (): typeof import('node:zlib') => require('node:zlib') as typeof import('node:zlib');
export const stringDecoder = (): typeof import('node:string_decoder') => require('node:string_decoder') as typeof import('node:string_decoder');
