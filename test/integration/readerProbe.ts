/**
 * What the extension host does when a file is opened in V8 Lens (Open With…, the report panel,
 * Export as pprof): `buildReportModel`, then `exportPprof` for a file it exports. Run in its own Node
 * by the tests (`node --import tsx readerProbe.ts FILE`) so its time and memory can be bounded;
 * prints one JSON line: what it read, or the one-line refusal.
 */
import { buildReportModel } from '../../src/core/report/reportModel';
import { UserError } from '../../src/core/util/errors';

async function main(file: string): Promise<void> {
  try {
    const model = await buildReportModel(file);
    const s = model.summary;
    process.stdout.write(`${JSON.stringify({ ok: true, functions: s.cpu?.functions.length ?? 0, warnings: s.warnings })}\n`);
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ ok: false, userError: err instanceof UserError, message: err instanceof Error ? err.message : String(err) })}\n`);
  }
}

void main(process.argv[2]!);
