/** V8 log (`--log-deopt --log-code`) reading and deopt grouping. */
export { V8LogReader, analyzeV8LogText, findV8LogFiles, readV8LogFile, readV8LogFiles } from './v8LogReader';
export { mergeAnalyses } from './mergeAnalyses';
export { deoptsByFunction, displayName, summarizeDeopts, type FunctionDeopts, type ReasonCount } from './deoptSummary';
export { tierLabel } from './codeState';
export type * from './types';
