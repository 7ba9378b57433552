/** GC tracing: `--trace-gc` / `--trace-gc-nvp` line parsing, stdout classification, the GC summary. */
export type { GcEvent, IncrementalMarking } from './gcEvent';
export { parseTraceGcLine } from './traceGcLine';
export { parseNvpLine } from './nvpLine';
export { classifyStdoutLine, type StdoutLineClass } from './classifyStdoutLine';
export { GcTraceCollector, parseGcTraceText, type IsolateArrival, type ParsedGcTrace } from './gcTraceCollector';
export { summarizeGc, type GcSummaryOptions } from './gcSummary';
