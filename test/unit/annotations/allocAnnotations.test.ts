/**
 * Allocation lenses (issue 13, "on the source") from a real run's allocations: the demo allocation
 * service profiled under load on Node 20 (test/fixtures/heap/alloc-service-node20.alloc.json), and
 * the words on the lens and in its hover.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ALLOC_FIXES, allocHoverMarkdown, allocLensTitle, allocLensTooltip, escapeMarkdown } from '../../../src/core/annotations/annotationText';
import { DEFAULT_THRESHOLDS, type AnnotationThresholds } from '../../../src/core/annotations/annotationTypes';
import { buildAnnotations } from '../../../src/core/annotations/buildAnnotations';
import { pathKey } from '../../../src/core/annotations/sourcePaths';
import { emptySummary, type AllocSummary, type Summary } from '../../../src/shared/model/summary';

const REPO = join(__dirname, '..', '..', '..');
const SERVER = join(REPO, 'examples', 'alloc-service', 'server.js');
const FIXTURE = join(REPO, 'test', 'fixtures', 'heap', 'alloc-service-node20.alloc.json');
const lineOf = (text: string) => readFileSync(SERVER, 'utf8').split('\n').findIndex((l) => l.includes(text)) + 1;

/** A fresh copy each time: tests add the fields newer summaries carry. */
function realAlloc(): AllocSummary {
  return (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { alloc: AllocSummary }).alloc;
}

function summaryWith(alloc: AllocSummary | null): Summary {
  return emptySummary({ kind: 'run', path: '/runs/alloc-service' } as Summary['source'], { alloc });
}

/** The run was recorded in another checkout: its paths land here by their tail, in this repository only. */
function annotate(summary: Summary, thresholds: AnnotationThresholds = DEFAULT_THRESHOLDS) {
  return buildAnnotations(summary, {
    source: '/runs/alloc-service',
    capturedAt: null,
    roots: [REPO],
    resolver: null,
    thresholds,
    exists: (p) => p.startsWith(REPO) && existsSync(p),
  });
}

describe('allocation annotations from a real run', () => {
  it('a lens above each function at or above 5% of the bytes, at its 1-based first line, biggest first', async () => {
    const alloc = realAlloc();
    const run = await annotate(summaryWith(alloc));
    const file = run.files.get(pathKey(SERVER));
    assert.ok(file, `server.js is annotated (files: ${[...run.files.keys()].join(', ')})`);
    // Node 20 inlined buildOrder into handle, so handle carries its bytes; the timer callback makes the rest.
    assert.deepEqual(file.allocFunctions.map((f) => [f.name, f.line, f.column]), [
      ['handle', lineOf('function handle(req, res)'), 16],
      ['(anonymous)', lineOf('setTimeout(() => {'), 14],
    ]);
    const [handle] = file.allocFunctions;
    const recorded = alloc.functions.find((f) => f.name === 'handle')!;
    assert.equal(handle!.selfBytes, recorded.selfBytes);
    assert.equal(handle!.share, recorded.share);
    assert.equal(handle!.bytesPerSecond, alloc.bytesPerSecond! * recorded.share, "the run's rate split by its share");
    assert.equal(handle!.bytesPerRequest, alloc.bytesPerRequest! * recorded.share);
    assert.equal(handle!.youngGcPauseMsEstimate, null, 'not in this summary: none, never 0');
    // doWrite (4.1%, node:internal) and everything below 5% get none; Node's own files are never annotated.
    assert.deepEqual([...run.files.keys()], [pathKey(SERVER)]);
    assert.deepEqual(run.alloc, {
      samplingIntervalBytes: 32768,
      totalBytes: alloc.totalBytes,
      bytesPerSecond: alloc.bytesPerSecond,
      youngGcs: null,
      youngGcPauseMs: null,
      inliningCaveat: null,
      exactSites: false,
    });
    assert.deepEqual(run.warnings, [], 'functions without a line (built-ins) are not counted as unplaced');
  });

  it('the threshold is the setting; functions without a line never get a lens', async () => {
    const alloc = realAlloc();
    const everything = await annotate(summaryWith(alloc), { ...DEFAULT_THRESHOLDS, allocMinPercent: 0 });
    const lensed = everything.files.get(pathKey(SERVER))!.allocFunctions;
    const inServer = alloc.functions.filter((f) => f.url === alloc.functions[0]!.url && f.line > 0);
    assert.equal(lensed.length, inServer.length, 'every function of server.js with a line');
    assert.ok(alloc.functions.some((f) => f.line === 0 && f.share > 0), 'the fixture has line-less allocators (slice, Map)');
    const none = await annotate(summaryWith(alloc), { ...DEFAULT_THRESHOLDS, allocMinPercent: 80 });
    assert.equal(none.files.get(pathKey(SERVER)), undefined, 'with the threshold at 80%, nothing (handle is 76%)');
  });

  it('a run without allocations: no lenses, and the run says not collected (null), never 0', async () => {
    const run = await annotate(summaryWith(null));
    assert.equal(run.alloc, null);
    assert.equal(run.files.size, 0);
  });

  it('newer summaries carry the pause estimate and the link to the young GCs: kept for the hover', async () => {
    const alloc = realAlloc();
    const handle = alloc.functions.find((f) => f.name === 'handle')!;
    handle.youngGcPauseMsEstimate = 838.3;
    alloc.gcLink = { youngGcs: 294, youngGcPauseMs: 1097.6, bytesPerYoungGc: 9_041_000, youngGenerationBytes: 16 * 1024 * 1024, traceAllocatedBytes: 2_660_000_000, ratio: 0.999, disagreement: null };
    alloc.inliningCaveat = 'On this Node, V8 gives an inlined function\'s allocations to the function it was inlined into.';
    const run = await annotate(summaryWith(alloc));
    const lens = run.files.get(pathKey(SERVER))!.allocFunctions[0]!;
    assert.equal(lens.youngGcPauseMsEstimate, 838.3);
    assert.equal(run.alloc!.youngGcs, 294);
    assert.equal(run.alloc!.youngGcPauseMs, 1097.6);
    assert.equal(run.alloc!.inliningCaveat, alloc.inliningCaveat);
  });
});

describe('allocation lens text', () => {
  it('title: the rate split by share, the share, per request under load', async () => {
    const run = await annotate(summaryWith(realAlloc()));
    const [handle, callback] = run.files.get(pathKey(SERVER))!.allocFunctions;
    assert.equal(allocLensTitle(handle!), '$(trash) allocates 388 MB/s · 76% of young garbage · 76.5 KB/request');
    assert.equal(allocLensTitle(callback!), '$(trash) allocates 65.3 MB/s · 13% of young garbage · 12.9 KB/request');
    assert.equal(allocLensTooltip(handle!), 'handle allocated 1.89 GB in its own body, 76% of what the run allocated. Hover its first line for what that costs and the usual fixes; click for the report.');
  });

  it('title without a known duration or load: the bytes themselves', async () => {
    const alloc = { ...realAlloc(), bytesPerSecond: null, bytesPerRequest: null };
    const handle = (await annotate(summaryWith(alloc))).files.get(pathKey(SERVER))!.allocFunctions[0]!;
    assert.equal(allocLensTitle(handle), '$(trash) allocates 1.89 GB · 76% of young garbage');
  });

  it('hover of an older summary: what it allocated, what that costs and the fixes; no estimate, no caveat', async () => {
    const run = await annotate(summaryWith(realAlloc()));
    const handle = run.files.get(pathKey(SERVER))!.allocFunctions[0]!;
    const md = allocHoverMarkdown(handle, run.alloc!, 'the run of 23:30');
    const blocks = md.split('\n\n');
    assert.equal(blocks[0], '**V8 Lens · allocations: handle**');
    assert.equal(blocks[1], escapeMarkdown('Allocated 1.89 GB in its own body (not in the functions it calls): 76% of the 2.48 GB the run allocated, 388 MB/s, 76.5 KB per request. V8 sampled one allocation every 32.0 KB and kept the garbage: the bytes are its estimates.'));
    assert.match(blocks[2]!, /^\*\*What it costs:\*\* allocating is cheap, collecting is not free\. .*young GC/);
    assert.doesNotMatch(md, /estimate_|young-GC pause: about|⚠/, 'nothing for figures the summary does not have');
    for (const fix of ALLOC_FIXES) assert.ok(md.includes(`- ${escapeMarkdown(fix)}`), fix);
    assert.ok(md.endsWith('From the run of 23:30.'));
  });

  it('hover of a newer summary: its share of the young-GC pause labelled as an estimate, with how; the inlining caveat', async () => {
    const alloc = realAlloc();
    alloc.functions.find((f) => f.name === 'handle')!.youngGcPauseMsEstimate = 838.3;
    alloc.gcLink = { youngGcs: 294, youngGcPauseMs: 1097.6, bytesPerYoungGc: 9_041_000, youngGenerationBytes: 16 * 1024 * 1024, traceAllocatedBytes: 2_660_000_000, ratio: 0.999, disagreement: null };
    alloc.inliningCaveat = 'On Node 20 an inlined function\'s bytes go to its caller (buildOrder → handle).';
    const run = await annotate(summaryWith(alloc));
    const handle = run.files.get(pathKey(SERVER))!.allocFunctions[0]!;
    const md = allocHoverMarkdown(handle, run.alloc!, 'the run of 23:30');
    assert.ok(
      md.includes(`**Its share of the young-GC pause: about 838 ms** (_estimate_: ${escapeMarkdown("its 76% of the allocated bytes × the 1,098 ms that the 294 young GCs of the same time paused the main thread; it assumes this function's objects die as young as everyone else's)")}`),
      md,
    );
    assert.ok(md.includes('⚠ On Node 20 an inlined function\'s bytes go to its caller \\(buildOrder → handle\\).'), md);
    // The callback has no estimate of its own: nothing is said about its pause.
    const callback = run.files.get(pathKey(SERVER))!.allocFunctions[1]!;
    assert.doesNotMatch(allocHoverMarkdown(callback, run.alloc!, 'x'), /young-GC pause: about/);
  });

  it('names from the profile are data: markdown in them is shown, not run', () => {
    assert.equal(escapeMarkdown('[click](command:x) *a* `b` <img>'), '\\[click\\]\\(command:x\\) \\*a\\* \\`b\\` \\<img\\>');
  });
});
