/** Builders for small hand-made `.cpuprofile` texts, and paths to the vendored third-party fixtures. */
import { join } from 'node:path';

export const SPEEDSCOPE_DIR = join(__dirname, '..', '..', 'fixtures', 'third-party', 'speedscope');
export const CPU_FIXTURES = join(__dirname, '..', '..', 'fixtures', 'cpu');

export interface NodeSpec {
  id: number;
  name: string;
  url?: string;
  /** 0-based, as in the file; -1 for VM frames. */
  line0?: number;
  col0?: number;
  children?: number[];
  positionTicks?: Array<{ line: number; ticks: number }>;
}

export function rawNode(spec: NodeSpec): Record<string, unknown> {
  const node: Record<string, unknown> = {
    id: spec.id,
    callFrame: {
      functionName: spec.name,
      scriptId: spec.url ? '7' : '0',
      url: spec.url ?? '',
      lineNumber: spec.line0 ?? (spec.url ? 0 : -1),
      columnNumber: spec.col0 ?? (spec.url ? 0 : -1),
    },
    hitCount: 0,
  };
  if (spec.children) node['children'] = spec.children;
  if (spec.positionTicks) node['positionTicks'] = spec.positionTicks;
  return node;
}

export function profileText(options: {
  nodes: NodeSpec[];
  samples: number[];
  timeDeltas: number[];
  startTime?: number;
  endTime?: number;
}): string {
  const startTime = options.startTime ?? 1_000_000;
  const endTime = options.endTime ?? startTime + options.timeDeltas.reduce((a, b) => a + b, 0);
  return JSON.stringify({
    nodes: options.nodes.map(rawNode),
    startTime,
    endTime,
    samples: options.samples,
    timeDeltas: options.timeDeltas,
  });
}
