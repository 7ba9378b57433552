/** A frame as V8 Lens holds it: 1-based line and column, 0 = none. */
export interface PprofFrame {
  name: string;
  url: string;
  line: number;
  column: number;
}

/**
 * A frame's function name in pprof. Readers of pprof (`go tool pprof -top`, Pyroscope, Parca) group
 * by name, so every anonymous function would be one "(anonymous)": they are named by their place
 * the way Node's own agents (`@datadog/pprof`) name them, `(anonymous:L#12:C#20)`, so a fleet that
 * mixes both sees one name. The original ('' included) is kept as the system name.
 */
export function pprofFunctionName(frame: PprofFrame): string {
  if (frame.name !== '' && frame.name !== '(anonymous)') return frame.name;
  return frame.line > 0 ? `(anonymous:L#${frame.line}:C#${frame.column})` : '(anonymous)';
}

/** The name V8 Lens shows for a frame read from pprof: the `(anonymous:L#…)` form back to '(anonymous)'. */
export function v8LensFunctionName(pprofName: string): string {
  return /^\(anonymous:L#\d+:C#\d+\)$/.test(pprofName) ? '(anonymous)' : pprofName;
}
