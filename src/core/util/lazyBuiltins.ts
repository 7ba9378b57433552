/**
 * Node built-ins that VS Code's extension host has not loaded before V8 Lens activates, required
 * where they are first used: evaluating them at activation cost about 5 ms of the extension's
 * 20 ms budget (bench/activationBench.ts), for work (a run, a sweep, a pprof file) that may never
 * come. `require` of a built-in is a cache lookup after the first. The CLI gains too: `http` and
 * `https` (with `net` and `tls`) were 2-3 ms of every `v8-lens profile` that sends no request.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
export const childProcess = (): typeof import('node:child_process') => require('node:child_process') as typeof import('node:child_process');
export const readline = (): typeof import('node:readline') => require('node:readline') as typeof import('node:readline');
export const zlib = (): typeof import('node:zlib') => require('node:zlib') as typeof import('node:zlib');
export const stringDecoder = (): typeof import('node:string_decoder') => require('node:string_decoder') as typeof import('node:string_decoder');
export const http = (): typeof import('node:http') => require('node:http') as typeof import('node:http');
export const https = (): typeof import('node:https') => require('node:https') as typeof import('node:https');
/**
 * `node:v8` loads perf_hooks and every stream module with it (41 modules): in a target started with
 * any V8 flag, whose built-ins then compile without Node's code cache, about 5 ms of its start-up.
 * The preload reads it when it first needs it (a heap reading on its first tick), or, when it must set
 * V8 flags before the app runs, first thing, while Node's code cache still applies.
 */
export const v8 = (): typeof import('node:v8') => require('node:v8') as typeof import('node:v8');
export const crypto = (): typeof import('node:crypto') => require('node:crypto') as typeof import('node:crypto');
