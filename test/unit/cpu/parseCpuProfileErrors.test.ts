/** Bad input: one-line messages that name the file and say what is wrong, never a stack trace. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CpuProfileError } from '../../../src/core/cpu/cpuProfileError';
import { parseCpuProfile } from '../../../src/core/cpu/parseCpuProfile';
import { summarizeCpu } from '../../../src/core/cpu/cpuSummary';
import { UserError } from '../../../src/core/util/errors';
import { SPEEDSCOPE_DIR, profileText } from './cpuTestHelpers';

const NAME = 'CPU.20240101.120000.4242.0.001.cpuprofile';

function rejects(text: string, pattern: RegExp): void {
  assert.throws(
    () => parseCpuProfile(text, NAME),
    (err: unknown) => {
      assert.ok(err instanceof CpuProfileError, `a CpuProfileError, got ${String(err)}`);
      assert.ok(err instanceof UserError);
      assert.ok(!/[\r\n]/.test(err.message), `one line: ${err.message}`);
      assert.ok(err.message.includes(NAME), `names the file: ${err.message}`);
      assert.match(err.message, pattern);
      return true;
    },
  );
}

const small = {
  nodes: [
    { id: 1, name: '(root)', children: [2] },
    { id: 2, name: 'work', url: 'file:///w.js' },
  ],
  samples: [2, 2, 2],
  timeDeltas: [5, 5, 5],
};

describe('parseCpuProfile: input that is not a usable profile', () => {
  it('an empty file', () => {
    rejects('', /the file is empty/);
    rejects(' \n\t\r\n', /the file is empty/);
  });

  it('half of a real profile: truncated', () => {
    const text = readFileSync(join(SPEEDSCOPE_DIR, 'chrome65-sucrase.cpuprofile'), 'utf8');
    rejects(text.slice(0, text.length >> 1), /truncated/);
    rejects(text.slice(0, 1), /truncated/);
    rejects(text.slice(0, text.length - 1), /truncated/);
  });

  it('not JSON at all', () => {
    rejects('v8-version,11,3,244,8,0,0\ncode-creation,Builtin,3', /not JSON \(it starts with "v8-version/);
    rejects('\u0000\u0001\u0002\u0003\u0004\u0005garbage', /not JSON \(it looks like binary data\)/);
  });

  it('JSON with a syntax error in the middle', () => {
    rejects('{"nodes": [1, 2,, 3], "samples": []}', /not valid JSON/);
  });

  it('JSON that is some other file', () => {
    rejects('{}', /not a CPU profile: it is an empty object/);
    rejects('[]', /JSON array, not a CPU profile/);
    rejects('42', /not a CPU profile \(the whole file is a number\)/);
    rejects('null', /not a CPU profile \(the whole file is null\)/);
    rejects('{"foo": 1, "bar": 2}', /not a CPU profile: it has the keys "foo", "bar"/);
    rejects(
      '{"snapshot":{"meta":{},"node_count":1,"edge_count":0},"nodes":[0,1,2,3,4,5,6],"edges":[],"strings":[]}',
      /heap snapshot/,
    );
    rejects('{"head":{"callFrame":{"functionName":"(root)"},"selfSize":0,"id":1,"children":[]},"samples":[]}', /heap profile/);
    rejects('[{"pid":1,"tid":1,"ph":"X","cat":"x","name":"y","ts":0}]', /Chrome trace/);
    rejects('{"traceEvents":[]}', /Chrome trace/);
  });

  it('a sample that refers to a node the profile does not have', () => {
    rejects(profileText({ ...small, samples: [2, 99, 2] }), /sample 1 refers to node id 99, which is not in the profile's node list/);
    rejects(profileText({ ...small, samples: [2, 'x' as unknown as number, 2] }), /samples\[1\] is not a node id \("x"\)/);
  });

  it('structural damage', () => {
    const raw = JSON.parse(profileText(small)) as { nodes: Array<Record<string, unknown>> };
    rejects(JSON.stringify({ ...raw, nodes: [...raw.nodes, raw.nodes[1]] }), /node id 2 appears twice/);
    rejects(JSON.stringify({ ...raw, nodes: [{ ...raw.nodes[0], id: 'one' }] }), /node #1 in the nodes list has no integer id/);
    rejects(JSON.stringify({ ...raw, nodes: [raw.nodes[0], { id: 2 }] }), /node id 2 has a missing or malformed callFrame/);
    rejects(JSON.stringify({ ...raw, nodes: [] }), /nodes list is empty/);
    rejects(JSON.stringify({ ...raw, samples: undefined }), /no samples list/);
    rejects(JSON.stringify({ ...raw, timeDeltas: undefined }), /neither timeDeltas nor timestamps/);
    rejects(JSON.stringify({ ...raw, timeDeltas: [5, '5', 5] }), /timeDeltas\[1\] is not a number/);
  });

  it('a file name with a line break still gives a one-line message', () => {
    assert.throws(() => parseCpuProfile('', 'bad\nname.cpuprofile'), (err: Error) => !err.message.includes('\n'));
  });
});

describe('parseCpuProfile: oddities that are tolerated with a warning', () => {
  it('samples and timeDeltas of different lengths: the shorter length is used', () => {
    const longer = parseCpuProfile(profileText({ ...small, timeDeltas: [5, 5, 5, 5, 5] }), NAME);
    assert.equal(longer.samples.length, 3);
    assert.equal(longer.timeDeltasUs.length, 3);
    assert.match(longer.warnings.join(' '), /samples \(3\) and timeDeltas \(5\) differ in length; only the first 3/);
    const shorter = parseCpuProfile(profileText({ ...small, timeDeltas: [5, 5] }), NAME);
    assert.equal(shorter.samples.length, 2);
    assert.equal(shorter.warnings.length, 1);
  });

  it('a child id that does not exist', () => {
    const text = profileText({ ...small, nodes: [{ id: 1, name: '(root)', children: [2, 77] }, small.nodes[1]!] });
    const profile = parseCpuProfile(text, NAME);
    assert.match(profile.warnings.join(' '), /1 parent\/child link\(s\) name node ids that are not in the profile/);
  });

  it('a parent/child cycle is cut, so nothing loops', () => {
    const text = profileText({
      nodes: [
        { id: 1, name: '(root)', children: [2] },
        { id: 2, name: 'ok', url: 'file:///c.js' },
        { id: 3, name: 'p', url: 'file:///c.js', children: [4] },
        { id: 4, name: 'q', url: 'file:///c.js', children: [3] },
      ],
      samples: [2, 4, 3],
      timeDeltas: [1, 1, 1],
    });
    const profile = parseCpuProfile(text, NAME);
    assert.match(profile.warnings.join(' '), /cycle/);
    assert.equal(profile.nodes.length, 4);
    for (let i = 1; i < profile.parents.length; i++) assert.ok(profile.parents[i]! < i);
  });

  it('malformed positionTicks entries are dropped, not fatal', () => {
    const text = profileText({
      ...small,
      nodes: [small.nodes[0]!, { ...small.nodes[1]!, positionTicks: [{ line: 0, ticks: 1 }, { line: 3, ticks: 2 }] }],
    });
    const profile = parseCpuProfile(text, NAME);
    assert.deepEqual(profile.nodes[1]!.positionTicks, [{ line: 3, ticks: 2 }]);
    assert.match(profile.warnings.join(' '), /1 malformed positionTicks/);
  });

  it('impossible numbers (gaps of ±1e300, an end at 1e308, a start at −1e308) are put right with a warning, the samples kept', () => {
    const frame = (functionName: string) => ({ functionName, scriptId: '1', url: 'file:///w.js', lineNumber: 0, columnNumber: 0 });
    const nodes = [{ id: 1, callFrame: frame('(root)'), children: [2] }, { id: 2, callFrame: frame('work') }];
    const base = { nodes, samples: [2, 2, 2, 2], timeDeltas: [0, 1e300, 100, 100] };
    const gaps = parseCpuProfile(JSON.stringify({ ...base, startTime: 1000, endTime: 1e308 }), NAME);
    assert.equal(gaps.samples.length, 4);
    assert.equal(gaps.startTimeUs, 1000);
    assert.equal(gaps.endTimeUs, 1200, 'the end at the last sample: the impossible gap counts 0');
    assert.match(gaps.warnings.join(' '), /1 sample time gap is impossible \(beyond ±30 days\); counted as 0/);
    assert.match(gaps.warnings.join(' '), /endTime \(1e\+308\) is not within 30 days after startTime/);
    const summary = summarizeCpu(gaps, { profileFile: NAME });
    assert.ok(Number.isFinite(summary.durationMs) && summary.durationMs === 0.2, `finite wall time: ${summary.durationMs}`);
    assert.ok(summary.functions.every((f) => Number.isFinite(f.selfMs) && Number.isFinite(f.totalMs)));

    const start = parseCpuProfile(JSON.stringify({ ...base, timeDeltas: [0, 100], samples: [2, 2], startTime: -1e308, endTime: 1e308 }), NAME);
    assert.equal(start.startTimeUs, 0);
    assert.equal(start.endTimeUs, 100);
    assert.match(start.warnings.join(' '), /startTime \(-1e\+308\) is not a clock reading/);

    const back = parseCpuProfile(JSON.stringify({ ...base, timeDeltas: [0, 100, -5e6, 100], startTime: 0, endTime: 300 }), NAME);
    assert.match(back.warnings.join(' '), /1 sample went back in time by more than 1 s/);
    assert.ok(summarizeCpu(back, { profileFile: NAME }).functions.every((f) => f.selfMs >= 0));
  });

  it('a nodes field that is not a list says so, without contradicting itself', () => {
    rejects(JSON.stringify({ nodes: 5, samples: [], timeDeltas: [] }), /it has a nodes field, but that is a number, not a list of call-tree nodes/);
  });
});
