/**
 * The streaming GC-trace reader cuts a file into the lines readline gives ("\n", "\r\n" and a lone
 * "\r" end one), whatever the chunk size: every line reaches the collector with the kind readline's
 * line gets, chunk boundaries inside a line or between "\r" and "\n" included; a line longer than a
 * chunk is skipped as the app's; a file cut short says so.
 */
import assert from 'node:assert/strict';
import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { GcTraceCollector } from '../../../src/core/gc/gcTraceCollector';
import { collectGcTraceFile, readGcTraceInto } from '../../../src/core/gc/gcTraceFile';
import { tempDir } from '../../../scripts/tempDirs';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'gc');
const dir = tempDir('v8-lens-gc-file-');

/** What readline makes of the file, each line through a collector of its own: the kinds and the collector. */
async function byReadline(path: string): Promise<{ kinds: string[]; collector: GcTraceCollector }> {
  const collector = new GcTraceCollector();
  const kinds: string[] = [];
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) kinds.push(collector.addLine(line));
  return { kinds, collector };
}

/** The reader's view of the same file, with a chunk of `chunk` bytes; the kinds of the lines it handed on. */
async function byReader(path: string, chunk: number): Promise<{ kinds: string[]; collector: GcTraceCollector; endsWithNewline: boolean }> {
  const collector = new GcTraceCollector();
  const kinds: string[] = [];
  const addBytes = collector.addBytes.bind(collector);
  collector.addBytes = (bytes, start, end, text) => {
    const kind = addBytes(bytes, start, end, text);
    kinds.push(kind);
    return kind;
  };
  const handle = await open(path);
  try {
    const { size } = await handle.stat();
    const { endsWithNewline } = await readGcTraceInto(collector, handle, size, chunk);
    return { kinds, collector, endsWithNewline };
  } finally {
    await handle.close();
  }
}

async function sameAsReadline(name: string, content: Buffer | string, chunks: readonly number[]): Promise<void> {
  const path = join(dir, name);
  writeFileSync(path, content);
  const expected = await byReadline(path);
  for (const chunk of chunks) {
    const got = await byReader(path, chunk);
    assert.deepEqual(got.kinds, expected.kinds, `${name}, chunk ${chunk}`);
    assert.deepEqual(got.collector.events, expected.collector.events, `${name}, chunk ${chunk}`);
    assert.deepEqual(got.collector.rawCounts(), expected.collector.rawCounts());
    assert.deepEqual(got.collector.pretenuring.summary(), expected.collector.pretenuring.summary());
  }
}

const recorded = ['node20.txt', 'node24-verbose.txt', 'node24-nvp.txt', 'node26.txt', 'node26-nvp.txt', 'pretenuring-node24.txt']
  .map((f) => readFileSync(join(FIXTURES, f), 'utf8'))
  .join('');
/** A chunk holds at least one whole line: the longest recorded one (an NVP line) is a few KB. */
const LONGEST = Math.max(...recorded.split(/\r?\n|\r/).map((l) => Buffer.byteLength(l))) + 2;

describe('readGcTraceInto: the lines readline gives, in bounded chunks', () => {
  it('reads recorded logs (GC, NVP, verbose and pretenuring lines, app output) with any chunk size', async () => {
    await sameAsReadline('recorded.log', recorded, [64 * 1024, 2 * LONGEST + 5, LONGEST + 37, LONGEST]);
  });

  it('takes "\\r\\n" and a lone "\\r" as one line end each, also split across two chunks', async () => {
    const crlf = recorded.replace(/\n/g, '\r\n');
    await sameAsReadline('crlf.log', crlf, [2 * LONGEST + 1, LONGEST + 77, LONGEST + 1]);
    const lone = recorded.split('\n').slice(0, 80).join('\r');
    await sameAsReadline('cr.log', lone, [2 * LONGEST, LONGEST + 3, LONGEST]);
    // A "\r" as the very last byte of a chunk, its "\n" the first of the next.
    const line = recorded.split('\n').find((l) => l.includes(' ms: Scavenge'))!;
    const text = `${line}\r\n${line}\r\n`;
    await sameAsReadline('edge.log', text, [line.length + 1, line.length + 2]);
  });

  it('hands on a last line without a newline, and says the file does not end with one', async () => {
    const cut = recorded.slice(0, recorded.lastIndexOf('Scavenge') + 30);
    await sameAsReadline('cut.log', cut, [2 * LONGEST, LONGEST + 11]);
    const path = join(dir, 'cut.log');
    assert.equal((await byReader(path, LONGEST)).endsWithNewline, false);
    const warnings: string[] = [];
    await collectGcTraceFile(await open(path), 'cut.log', warnings);
    assert.deepEqual(warnings, ['cut.log: the last line is cut short (the file was truncated); it was skipped']);
    const whole: string[] = [];
    await collectGcTraceFile(await open(join(dir, 'recorded.log')), 'recorded.log', whole);
    assert.deepEqual(whole, []);
  });

  it('skips a line longer than a chunk as the app\'s, without holding it, and reads on', async () => {
    const line = recorded.split('\n').find((l) => l.includes(' ms: Scavenge'))!;
    const path = join(dir, 'long.log');
    // Shaped like a timed V8 line: read, it would count as an unparsed GC line.
    writeFileSync(path, `${line}\n[1:0x1]    5 ms: ${'x'.repeat(10_000)}\n${line}\n`);
    const got = await byReader(path, 1024);
    assert.deepEqual(got.kinds, ['gc', 'gc']);
    assert.equal(got.collector.table.length, 2);
    assert.equal(got.collector.unparsedLines, 0);
  });

  it('reads a file as it was when measured, and nothing of an empty one', async () => {
    const path = join(dir, 'empty.log');
    writeFileSync(path, '');
    const got = await byReader(path, 1024);
    assert.deepEqual(got.kinds, []);
    const collector = await collectGcTraceFile(await open(path), 'empty.log', []);
    assert.equal(collector.table.length, 0);
  });
});
