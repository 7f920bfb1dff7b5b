import { strict as assert } from 'node:assert';
import { messagePartsOf, renderMessage } from '../../../src/protocol/message';
import fc from 'fast-check';
import { analyseTrace, parseTrace, readCallTensors, TraceError, TRACE_LIMITS } from '../../../src/record';
import { npy, TraceBuilder, type Json } from './builders';

function sdpaTrace(): TraceBuilder {
  const b = new TraceBuilder();
  b.add({
    kind: 'sdpa',
    dtype: 'float32',
    shapes: { q: [1, 2, 3], k: [1, 2, 3], v: [1, 2, 3], attn_mask: null, out: [1, 2, 3] },
    params: { isCausal: false, scale: null, enableGqa: false, dropoutP: 0 },
    tensors: {
      q: b.tensor(0, 'q', 'float32', [1, 2, 3], [1, 2, 3, 4, 5, 6]),
      k: b.tensor(0, 'k', 'float32', [1, 2, 3], [1, 0, 0, 0, 1, 0]),
      v: b.tensor(0, 'v', 'float32', [1, 2, 3], [1, 1, 1, 2, 2, 2]),
    },
  });
  return b;
}

function withCall(mutate: (call: Json, doc: Json) => void): string {
  const b = sdpaTrace();
  const doc = b.doc();
  mutate((doc.calls as Json[])[0], doc);
  return JSON.stringify(doc);
}

function rejects(text: string, pattern: RegExp): void {
  assert.throws(
    () => parseTrace(text, 'out/trace.json'),
    (e: unknown) => e instanceof TraceError && e.message.startsWith('out/trace.json: ') && pattern.test(e.message),
  );
}

describe('record: trace reader', () => {
  it('reads a valid trace and its tensors', () => {
    const b = sdpaTrace();
    const trace = parseTrace(b.text(), 'trace.json');
    assert.equal(trace.calls.length, 1);
    assert.equal(trace.calls[0].kind, 'sdpa');
    assert.deepEqual(trace.calls[0].site.user, { path: '/ws/prog.py', line: 7, column: null, function: '<module>' });
    const tensors = readCallTensors(trace.calls[0], b.reader());
    assert.deepEqual(Array.from(tensors.get('q')!.tensor.data), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(analyseTrace(trace, b.reader()).findings, []);
  });

  it('rejects what is not a trace, naming the file and the problem', () => {
    rejects('{not json', /is not valid JSON/);
    rejects('[]', /the document must be an object, got an array/);
    rejects(JSON.stringify({ format: 'other' }), /is not an attention trace/);
    rejects(
      withCall((_c, d) => (d.version = 2)),
      /trace version 2 is not supported/,
    );
    rejects(
      withCall((_c, d) => (d.calls = {})),
      /calls must be an array, got an object/,
    );
    rejects(
      withCall((_c, d) => ((d.program as Json).exitCode = 'x')),
      /program\.exitCode must be an integer, got "x"/,
    );
    rejects(
      withCall((_c, d) => ((d.program as Json).kind = 'notebook')),
      /program\.kind must be "script" or "pytest"/,
    );
  });

  it('rejects malformed calls with the path of the bad field', () => {
    rejects(
      withCall((c) => (c.kind = 'flash')),
      /calls\[0\]\.kind must be "sdpa", "mha" or "manual", got "flash"/,
    );
    rejects(
      withCall((c) => ((c.site as Json).user = { path: 3, line: 1 })),
      /calls\[0\]\.site\.user\.path must be a string, got 3/,
    );
    rejects(
      withCall((c) => ((c.site as Json).user = { path: '/a', line: -1 })),
      /calls\[0\]\.site\.user\.line is -1, outside 0\.\.10000000/,
    );
    rejects(
      withCall((c) => ((c.shapes as Json).q = [1, 2.5])),
      /calls\[0\]\.shapes\.q\[1\] must be an integer, got 2\.5/,
    );
    rejects(
      withCall((c) => ((c.shapes as Json).q = new Array(9).fill(1))),
      /calls\[0\]\.shapes\.q has 9 entries, over the limit of 8/,
    );
    rejects(
      withCall((c) => ((c.params as Json).scale = 'big'.repeat(100))),
      /calls\[0\]\.params\.scale is 300 characters long/,
    );
    rejects(
      withCall((c) => (c.tokens = { paddingIdx: 0, numEmbeddings: 10 })),
      /calls\[0\]\.tokens is set but there is no token_ids tensor/,
    );
    rejects(
      withCall((c) => (c.kind = 'manual')),
      /calls\[0\] is a hand-written attention call without softmax and layout/,
    );
    rejects(
      withCall((c) => Object.assign(c, { kind: 'manual', softmax: { dim: 2, role: 'col' }, layout: { roles: ['b', 'row', 'col'], perm: [0, 1, 1] } })),
      /layout\.perm \[0, 1, 1\] is not a permutation of 3 axes/,
    );
    rejects(
      withCall((c) => Object.assign(c, { kind: 'manual', softmax: { dim: 2, role: 'key' }, layout: { roles: ['b', 'row', 'col'], perm: [0, 1, 2] } })),
      /softmax\.role must be "b", "row" or "col", got "key"/,
    );
    rejects(
      withCall((c) => (c.ops = new Array(TRACE_LIMITS.maxOpsPerCall + 1).fill({ op: 'mul' }))),
      /calls\[0\]\.ops has 65 entries, over the limit of 64/,
    );
  });

  it('refuses tensor file names that leave the trace folder', () => {
    for (const file of ['../secret.npy', '/etc/passwd.npy', 'sub/x.npy', '.hidden.npy', 'x.npz', 'c0-q.npy\u0000.txt', 'C:\\x.npy']) {
      rejects(
        withCall((c) => (((c.tensors as Json).q as Json).file = file)),
        /calls\[0\]\.tensors\.q\.file .* is not a plain \.npy file name/,
      );
    }
    rejects(
      withCall((c) => ((c.tensors as Json)['../q'] = { shape: [1], dtype: 'float32', file: 'x.npy' })),
      /calls\[0\]\.tensors has an unexpected name/,
    );
    rejects(
      withCall((c) => ((c.tensors as Json).q = { shape: [1], dtype: 'float32' })),
      /calls\[0\]\.tensors\.q has neither a file nor a reason it was omitted/,
    );
    rejects(
      withCall((c) => (((c.tensors as Json).q as Json).dtype = 'object')),
      /calls\[0\]\.tensors\.q\.dtype "object" is not a torch dtype/,
    );
  });

  it('bounds the size of the index', () => {
    rejects(' '.repeat(TRACE_LIMITS.maxJsonBytes + 1), /over the limit of 67,108,864/);
    const doc = sdpaTrace().doc();
    doc.calls = new Array(TRACE_LIMITS.maxCalls + 1).fill(0);
    rejects(JSON.stringify(doc), /calls has 100,001 entries, over the limit of 100,000/);
  });

  it('checks each tensor file against its entry, naming the file', () => {
    const check = (mutate: (b: TraceBuilder) => void, pattern: RegExp) => {
      const b = sdpaTrace();
      mutate(b);
      const trace = parseTrace(b.text(), 'trace.json');
      assert.throws(
        () => readCallTensors(trace.calls[0], b.reader()),
        (e: unknown) => e instanceof TraceError && pattern.test(e.message),
        String(pattern),
      );
      // The error carries its template and arguments (the editor shows it translated), the file name first.
      assert.throws(
        () => readCallTensors(trace.calls[0], b.reader()),
        (e: unknown) => {
          const parts = messagePartsOf(e);
          return parts !== undefined && renderMessage(parts) === (e as Error).message && parts.args[0] === (e as TraceError).fileName;
        },
      );
      // The whole analysis goes on without the broken call and reports the problem.
      const analysis = analyseTrace(trace, b.reader());
      assert.equal(analysis.problems.length, 1);
      assert.match(analysis.problems[0], pattern);
    };
    check((b) => b.files.delete('c0-k.npy'), /^c0-k\.npy: cannot be read \(ENOENT: no such file c0-k\.npy\), needed for tensor k of call 0/);
    check((b) => b.files.set('c0-q.npy', npy('<f4', [2, 3], [1, 2, 3, 4, 5, 6])), /^c0-q\.npy: holds shape \[2, 3\] but the trace says \[1, 2, 3\]/);
    check((b) => b.files.set('c0-q.npy', npy('<i8', [1, 2, 3], [1, 2, 3, 4, 5, 6])), /^c0-q\.npy: holds int64 values but the trace says float32/);
    check((b) => b.files.set('c0-v.npy', b.files.get('c0-v.npy')!.subarray(0, b.files.get('c0-v.npy')!.length - 4)), /^c0-v\.npy: array data is truncated/);
    check((b) => b.files.set('c0-v.npy', new TextEncoder().encode('import os; os.system("rm -rf /")')), /^c0-v\.npy: not a \.npy array/);
  });

  it('never fails with anything but a TraceError on a mutated trace (fuzz)', () => {
    const base = sdpaTrace();
    const text = base.text();
    fc.assert(
      fc.property(fc.nat(text.length - 1), fc.string({ maxLength: 8 }), fc.nat(6), (pos, insert, cut) => {
        const mutated = text.slice(0, pos) + insert + text.slice(pos + cut);
        try {
          const trace = parseTrace(mutated, 'trace.json');
          analyseTrace(trace, base.reader());
        } catch (e) {
          if (!(e instanceof TraceError)) throw e;
        }
      }),
      { numRuns: 400 },
    );
  });
});
