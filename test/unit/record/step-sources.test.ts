// The debugger's steps of a recorded call linked to the user's lines: a hand-written chain's ops (a mask built
// by two ops gives two lines, an unscaled chain none for the scale, ops in a library the user's call line), and
// every step of SDPA at its call; the panel's link text and the message that asks the host to show them.
import { strict as assert } from 'node:assert';
import { parseTrace, stepSources } from '../../../src/record';
import { parseFromWebview } from '../../../src/protocol/webview';
import { sourceLinkText } from '../../../webview/steps';
import { TraceBuilder, type Json } from './builders';

const op = (kind: string, line: number, path = '/ws/prog.py'): Json => ({ op: kind === 'softmax' ? 'softmax' : 'matmul', kind, path, line, column: 9 });

function manual(ops: Json[]): Json {
  return {
    kind: 'manual',
    dtype: 'float32',
    shapes: {},
    params: {},
    tensors: {},
    ops,
    softmax: { dim: 2, role: 'col' },
    contracted: { role: 'col' },
    layout: { roles: ['b', 'row', 'col'], perm: [0, 1, 2] },
  };
}

describe('record: each debugger step at its source line', () => {
  it('links the steps of a hand-written chain to the lines of their ops', () => {
    const b = new TraceBuilder();
    b.add(manual([op('scores', 10), op('layout', 11), op('fill', 12), op('add', 13), op('fill', 12), op('softmax', 14), op('values', 16)]));
    b.add(manual([op('scores', 20), op('softmax', 21), op('values', 22)]));
    b.add(
      manual([
        op('scores', 300, '/usr/lib/python3/dist-packages/lib/attn.py'),
        op('scale', 31),
        op('softmax', 301, '/usr/lib/python3/dist-packages/lib/attn.py'),
        op('values', 302, '/usr/lib/python3/dist-packages/lib/attn.py'),
      ]),
    );
    b.add({ kind: 'sdpa', dtype: 'float32', shapes: {}, params: {}, tensors: {} });
    const trace = parseTrace(b.text(), 'trace.json');
    const at = (...lines: number[]) => lines.map((line) => ({ path: '/ws/prog.py', line, column: 9 }));
    const call = { path: '/ws/prog.py', line: 7, column: 1 };
    assert.deepEqual(stepSources(trace, trace.calls[0]), [at(10), [], at(12, 13), at(14), at(16)]);
    assert.deepEqual(stepSources(trace, trace.calls[1]), [at(20), [], [], at(21), at(22)], 'no scale, no mask: no line');
    assert.deepEqual(stepSources(trace, trace.calls[2]), [[call], at(31), [], [call], [call]], 'library ops: the user’s call line');
    assert.deepEqual(stepSources(trace, trace.calls[3]), [[call], [call], [call], [call], [call]]);
  });

  it('names the file and lines in the link, and the host is asked only with step indices', () => {
    const l = (path: string, line: number) => ({ path, line, column: 1 });
    assert.equal(sourceLinkText([l('/ws/a/prog.py', 12)]), 'prog.py:12');
    assert.equal(sourceLinkText([l('/ws/prog.py', 12), l('/ws/prog.py', 14)]), 'prog.py:12, 14');
    assert.equal(sourceLinkText([l('C:\\ws\\a.py', 3), l('/ws/b.py', 5)]), 'a.py:3, b.py:5');
    assert.deepEqual(parseFromWebview({ type: 'recordedStep', layer: 1, step: 3, reveal: true, path: '/etc/passwd' }), {
      type: 'recordedStep',
      layer: 1,
      step: 3,
      reveal: true,
    });
    for (const bad of [{ step: 5 }, { step: -1 }, { reveal: 'yes' }, { layer: 1.5 }]) {
      assert.ok(parseFromWebview({ type: 'recordedStep', layer: 0, step: 0, reveal: false, ...bad }) instanceof Error, JSON.stringify(bad));
    }
  });
});
