import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { judgeFinding, RuntimeEvidenceStore } from '../../../src/host/lint/runtime-evidence';
import type { Finding, RuleCode } from '../../../src/lint/types';
import { analyseTrace, diagnoseCalls, parseTrace, TraceDiagnosis, type RuntimeEvidence, type RuntimeFinding } from '../../../src/record';
import { fillTemplate, registeredTemplates, renderMessage, type MessageParts } from '../../../src/protocol/message';
import { englishProse } from '../helpers/english-prose';
import { randoms, TraceBuilder, type Json } from './builders';

// Hand-written attention computed here in float64 the way the recorder captures it: canonical layout
// [B, T, S] (key axis last), rows_operand = q [B, T, d], cols_operand = k [B, S, d].
interface Manual {
  B?: number;
  T?: number;
  S?: number;
  d?: number;
  scale?: number;
  operandScale?: number;
  /** masked[b][t][s] → filled with `fill` before the softmax. */
  masked?: (b: number, t: number, s: number) => boolean;
  fill?: number;
  bias?: (t: number, s: number) => number;
  softmaxRole?: 'row' | 'col';
  contracted?: 'row' | 'col' | null;
  opPath?: string;
  otherOps?: boolean;
  ids?: number[][];
  paddingIdx?: number | null;
  /** Multiplies the weights after the softmax (weights_used), e.g. a 0/1 key mask. */
  after?: (b: number, t: number, s: number) => number;
  afterOps?: Json[];
  summariseProbs?: boolean;
}

const OP_LINES = { scores: 10, scale: 11, fill: 12, softmax: 13, after: 14, values: 15 };

function manualCall(b: TraceBuilder, m: Manual): void {
  const B = m.B ?? 2;
  const T = m.T ?? 5;
  const S = m.S ?? T;
  const d = m.d ?? 16;
  const scale = m.scale ?? 1 / Math.sqrt(d);
  const idx = b.calls.length;
  const q = randoms(B * T * d, 1 + idx);
  const k = randoms(B * S * d, 100 + idx);
  const v = randoms(B * S * d, 200 + idx);
  const scores = new Float32Array(B * T * S);
  const maskedArr = new Uint8Array(B * T * S);
  for (let bi = 0; bi < B; bi++)
    for (let t = 0; t < T; t++)
      for (let s = 0; s < S; s++) {
        let dot = 0;
        for (let e = 0; e < d; e++) dot += q[(bi * T + t) * d + e] * k[(bi * S + s) * d + e];
        let x = dot * scale + (m.bias ? m.bias(t, s) : 0);
        if (m.masked?.(bi, t, s)) {
          x = m.fill ?? -Infinity;
          maskedArr[(bi * T + t) * S + s] = 1;
        }
        scores[(bi * T + t) * S + s] = x;
      }
  // softmax over keys (role col) or over queries (role row)
  const probs = new Float32Array(B * T * S);
  const overKeys = (m.softmaxRole ?? 'col') === 'col';
  for (let bi = 0; bi < B; bi++) {
    const outer = overKeys ? T : S;
    const inner = overKeys ? S : T;
    for (let o = 0; o < outer; o++) {
      const at = (i: number) => (overKeys ? (bi * T + o) * S + i : (bi * T + i) * S + o);
      let mx = -Infinity;
      for (let i = 0; i < inner; i++) mx = Math.max(mx, scores[at(i)]);
      let sum = 0;
      for (let i = 0; i < inner; i++) sum += Math.exp(scores[at(i)] - mx);
      for (let i = 0; i < inner; i++) probs[at(i)] = Math.exp(scores[at(i)] - mx) / sum;
    }
  }
  const path = m.opPath ?? '/ws/prog.py';
  const ops: Json[] = [{ op: 'matmul', kind: 'scores', path, line: OP_LINES.scores, column: 5, ...(m.operandScale ? { operandScale: m.operandScale } : {}) }];
  if (scale !== 1) ops.push({ op: 'div', kind: 'scale', path, line: OP_LINES.scale, column: 5, value: 1 / scale });
  if (m.masked) ops.push({ op: 'masked_fill', kind: 'fill', path, line: OP_LINES.fill, column: 5, value: m.fill === undefined ? '-inf' : m.fill });
  ops.push({ op: 'softmax', kind: 'softmax', path, line: OP_LINES.softmax, column: 5, dim: overKeys ? 2 : 1, role: m.softmaxRole ?? 'col' });
  const contracted = m.contracted === undefined ? 'col' : m.contracted;
  if (contracted) ops.push({ op: 'matmul', kind: 'values', path, line: OP_LINES.values, column: 5 });
  const tensors: Json = {
    rows_operand: b.tensor(idx, 'rows_operand', 'float32', [B, T, d], q),
    cols_operand: b.tensor(idx, 'cols_operand', 'float32', [B, S, d], k),
    scores: b.tensor(idx, 'scores', 'float32', [B, T, S], scores),
    probs: b.tensor(idx, 'probs', 'float32', [B, T, S], probs),
    v: b.tensor(idx, 'v', 'float32', [B, S, d], v),
  };
  if (m.summariseProbs) (tensors.probs as Json).summary = { blockRows: 1, blockCols: 1, of: [B, T, S] };
  if (m.masked) tensors.masked = b.tensor(idx, 'masked', 'bool', [B, T, S], maskedArr);
  const call: Json = {
    kind: 'manual',
    dtype: 'float32',
    shapes: { scores: [B, T, S] },
    params: { otherOps: m.otherOps ?? false },
    ops,
    softmax: { dim: overKeys ? 2 : 1, role: m.softmaxRole ?? 'col' },
    layout: { roles: ['b', 'row', 'col'], perm: [0, 1, 2] },
    tensors,
  };
  if (contracted) call.contracted = { role: contracted };
  if (m.ids) {
    tensors.token_ids = b.tensor(idx, 'token_ids', 'int64', [m.ids.length, m.ids[0].length], m.ids.flat());
    call.tokens = { paddingIdx: m.paddingIdx === undefined ? 0 : m.paddingIdx, numEmbeddings: 50, module: 'emb' };
  }
  if (m.after) {
    const used = new Float32Array(probs.length);
    for (let bi = 0; bi < B; bi++)
      for (let t = 0; t < T; t++) for (let s = 0; s < S; s++) used[(bi * T + t) * S + s] = probs[(bi * T + t) * S + s] * m.after(bi, t, s);
    tensors.weights_used = b.tensor(idx, 'weights_used', 'float32', [B, T, S], used);
    call.afterSoftmax = [...(m.afterOps ?? []), { op: 'mul', kind: 'after-softmax', path, line: OP_LINES.after, column: 5 }];
  }
  b.add(call);
}

function findings(setup: (b: TraceBuilder) => void): RuntimeFinding[] {
  const b = new TraceBuilder();
  setup(b);
  const analysis = analyseTrace(parseTrace(b.text(), 'trace.json'), b.reader());
  assert.deepEqual(analysis.problems, []);
  return analysis.findings;
}

const codes = (fs: RuntimeFinding[]) => fs.map((f) => `${f.line}:${f.code}`);
const PADDED_IDS = [
  [5, 6, 7, 0, 0],
  [8, 9, 10, 11, 12],
];
const isPad = (b: number, s: number) => PADDED_IDS[b][s] === 0;

describe('record: runtime diagnostics', () => {
  describe('ATT003/ATT004: the scale measured from q, k and the softmax input', () => {
    it('says nothing for 1/sqrt(d_k), also with masks and a position-independent shift', () => {
      assert.deepEqual(
        findings((b) => manualCall(b, {})),
        [],
      );
      assert.deepEqual(
        findings((b) => manualCall(b, { masked: (bi, _t, s) => isPad(bi, s), ids: PADDED_IDS })),
        [],
      );
    });
    it('reports scale 1 at the score matmul and 1/d_k or sqrt(d_k) at the scale op', () => {
      const missing = findings((b) => manualCall(b, { scale: 1 }));
      assert.deepEqual(codes(missing), ['10:ATT003']);
      assert.match(missing[0].message, /unscaled \(measured scale 1\).*1\/sqrt\(d_k\) = 0\.25 \(d_k = 16\)/);
      assert.deepEqual(codes(findings((b) => manualCall(b, { scale: 1 / 16 }))), ['11:ATT004']);
      assert.deepEqual(codes(findings((b) => manualCall(b, { scale: 4 }))), ['11:ATT004']);
    });
    it('counts a scale applied to q before the matmul', () => {
      assert.deepEqual(
        findings((b) => manualCall(b, { scale: 1, operandScale: 0.25 })),
        [],
      );
    });
    it('says nothing without evidence: other scales, biases, unknown ops, library code, summarised or missing values', () => {
      assert.deepEqual(
        findings((b) => manualCall(b, { scale: 0.3 })),
        [],
      );
      assert.deepEqual(
        findings((b) => manualCall(b, { scale: 1, bias: (t, s) => -0.5 * Math.abs(t - s) })),
        [],
      );
      assert.deepEqual(
        findings((b) => manualCall(b, { scale: 1, otherOps: true })),
        [],
      );
      assert.deepEqual(
        findings((b) => manualCall(b, { scale: 1, opPath: '/usr/lib/python3/dist-packages/lib/attn.py' })),
        [],
      );
      assert.deepEqual(
        findings((b) => manualCall(b, { scale: 1, contracted: null })),
        [],
      );
    });
  });

  describe('ATT001: the softmax axis against the axis the matmul with v sums over', () => {
    it('reports a softmax over the query axis of square scores at its line', () => {
      const f = findings((b) => manualCall(b, { softmaxRole: 'row' }));
      assert.deepEqual(codes(f), ['13:ATT001']);
      assert.match(f[0].message, /the query axis: the matmul with v at line 15 sums over the other axis/);
    });
    it('says nothing when both are the key axis, or when no matmul with v followed', () => {
      assert.deepEqual(
        findings((b) => manualCall(b, { softmaxRole: 'row', contracted: 'row' })),
        [],
      );
      assert.deepEqual(
        findings((b) => manualCall(b, { softmaxRole: 'row', contracted: null })),
        [],
      );
    });
  });

  describe('ATT002: padding and causal masks as the API reads them', () => {
    it('reports a mask that hides every real token and shows the padding', () => {
      const f = findings((b) => manualCall(b, { masked: (bi, _t, s) => !isPad(bi, s), fill: -1e9, ids: PADDED_IDS }));
      assert.deepEqual(codes(f), ['12:ATT002']);
      assert.match(f[0].message, /inverted.*100% of the weight of real queries lands on positions 3–4 of batch element 0, which hold padding id 0/);
    });
    it('reports pads left visible while real past tokens are masked', () => {
      const f = findings((b) => manualCall(b, { masked: (_bi, t, s) => s === 0 && t > 0, fill: -1e9, ids: PADDED_IDS }));
      assert.deepEqual(codes(f), ['12:ATT002']);
      assert.match(f[0].message, /lets real queries attend padding while masking real tokens/);
    });
    it('says nothing for a correct padding mask, a causal-only mask, or ids without a padding_idx', () => {
      assert.deepEqual(
        findings((b) => manualCall(b, { masked: (bi, _t, s) => isPad(bi, s), ids: PADDED_IDS })),
        [],
      );
      assert.deepEqual(
        findings((b) => manualCall(b, { masked: (_bi, t, s) => s > t, ids: PADDED_IDS })),
        [],
      );
      assert.deepEqual(
        findings((b) => manualCall(b, { masked: (bi, _t, s) => !isPad(bi, s), fill: -1e9, ids: PADDED_IDS, paddingIdx: null })),
        [],
      );
    });
    it('reports a causal mask pointing to the future, not the one pointing to the past', () => {
      assert.deepEqual(codes(findings((b) => manualCall(b, { masked: (_bi, t, s) => s < t }))), ['12:ATT002']);
      assert.deepEqual(
        findings((b) => manualCall(b, { masked: (_bi, t, s) => s > t })),
        [],
      );
    });
    it('reads an SDPA bool mask as True = attend', () => {
      const sdpa = (b: TraceBuilder, attend: (bi: number, s: number) => boolean) => {
        const [B, H, T, d] = [2, 2, 5, 8];
        const mask = [];
        for (let bi = 0; bi < B; bi++) for (let s = 0; s < T; s++) mask.push(attend(bi, s));
        const x = randoms(B * H * T * d, 7);
        b.add({
          kind: 'sdpa',
          dtype: 'float32',
          shapes: { q: [B, H, T, d], k: [B, H, T, d] },
          params: { isCausal: false, scale: null },
          tensors: {
            q: b.tensor(0, 'q', 'float32', [B, H, T, d], x),
            k: b.tensor(0, 'k', 'float32', [B, H, T, d], x),
            v: b.tensor(0, 'v', 'float32', [B, H, T, d], x),
            attn_mask: b.tensor(0, 'attn_mask', 'bool', [B, 1, 1, T], mask),
            token_ids: b.tensor(0, 'token_ids', 'int64', [B, T], PADDED_IDS.flat()),
          },
          tokens: { paddingIdx: 0, numEmbeddings: 50, module: 'emb' },
        });
      };
      const f = findings((b) => sdpa(b, (bi, s) => isPad(bi, s)));
      assert.deepEqual(codes(f), ['7:ATT002']);
      assert.match(f[0].message, /True = attend/);
      assert.deepEqual(
        findings((b) => sdpa(b, (bi, s) => !isPad(bi, s))),
        [],
      );
    });
  });

  describe('ATT008: causal alignment with fewer queries than keys', () => {
    it('reports is_causal=True with T < S and a top-left tril, not a bottom-right one', () => {
      const sdpa = (T: number, S: number) => (b: TraceBuilder) =>
        b.add({
          kind: 'sdpa',
          dtype: 'float32',
          shapes: { q: [1, 1, T, 8], k: [1, 1, S, 8], v: [1, 1, S, 8] },
          params: { isCausal: true, scale: null },
          tensors: {},
        });
      assert.deepEqual(codes(findings(sdpa(1, 9))), ['7:ATT008']);
      assert.deepEqual(findings(sdpa(4, 4)), []);
      assert.deepEqual(codes(findings((b) => manualCall(b, { T: 3, S: 7, masked: (_bi, t, s) => s > t }))), ['12:ATT008']);
      assert.deepEqual(
        findings((b) => manualCall(b, { T: 3, S: 7, masked: (_bi, t, s) => s > t + 4 })),
        [],
      );
    });
  });

  describe('ATT006: weights changed after the softmax', () => {
    it('reports rows that no longer sum to 1, not rows zeroed whole or left alone', () => {
      const f = findings((b) => manualCall(b, { after: (bi, _t, s) => (isPad(bi, s) ? 0 : 1), ids: PADDED_IDS }));
      assert.deepEqual(codes(f), ['14:ATT006']);
      assert.match(f[0].message, /5 of 10 query rows sum to/);
      assert.deepEqual(
        findings((b) => manualCall(b, { after: (bi, t) => (isPad(bi, t) ? 0 : 1) })),
        [],
      );
      assert.deepEqual(
        findings((b) => manualCall(b, { after: () => 1 })),
        [],
      );
    });
    it('says nothing when training dropout came first (its rescaling is not renormalised either)', () => {
      const dropout = { op: 'dropout', kind: 'dropout', path: '/ws/prog.py', line: 13, p: 0.1, training: true };
      assert.deepEqual(
        findings((b) => manualCall(b, { after: (bi, _t, s) => (isPad(bi, s) ? 0 : 1), afterOps: [dropout] })),
        [],
      );
    });
  });

  describe('ATT007: NaN rows and fills that do not fit the dtype', () => {
    it('reports rows with every key masked by -inf', () => {
      const f = findings((b) => manualCall(b, { masked: (bi, t) => bi === 1 && t === 0 }));
      assert.deepEqual(codes(f), ['12:ATT007']);
      assert.match(f[0].message, /1 of 10 query rows have every key masked and their attention weights are NaN \(first: query 0 of batch element 1\)/);
    });
    it('reports a masked_fill that failed with an overflow', () => {
      const f = findings((b) =>
        b.add({
          kind: 'manual',
          failed: true,
          dtype: 'float16',
          shapes: { scores: [2, 4, 4] },
          params: {},
          tensors: {},
          ops: [
            { op: 'matmul', kind: 'scores', path: '/ws/prog.py', line: 6 },
            {
              op: 'masked_fill',
              kind: 'fill',
              path: '/ws/prog.py',
              line: 8,
              column: 10,
              value: -1e9,
              error: 'value cannot be converted to type at::Half without overflow',
            },
          ],
        }),
      );
      assert.deepEqual(codes(f), ['8:ATT007']);
      assert.match(f[0].message, /-1\.00e\+9 on float16 scores failed.*largest 65504/);
    });
  });

  it('reports one finding per line and code across calls (layers, repeated forwards)', () => {
    const f = findings((b) => {
      manualCall(b, { scale: 1 });
      manualCall(b, { scale: 1 });
    });
    assert.deepEqual(codes(f), ['10:ATT003']);
  });

  it('judges nothing from summarised values', () => {
    assert.deepEqual(
      findings((b) => manualCall(b, { softmaxRole: 'row', summariseProbs: true, masked: (_bi, t, s) => s < t })).filter((f) => f.code !== 'ATT001'),
      [],
    );
  });
});

describe('record: what a run says about the static findings of its sites', () => {
  const evidence = (setup: (b: TraceBuilder) => void): RuntimeEvidence[] => {
    const b = new TraceBuilder();
    setup(b);
    return analyseTrace(parseTrace(b.text(), 'trace.json'), b.reader()).evidence;
  };
  const kinds = (es: RuntimeEvidence[]) => es.map((e) => `${e.kind} ${e.code}`).sort();
  const site = [7, OP_LINES.scores, OP_LINES.scale, OP_LINES.softmax, OP_LINES.values];

  it('counts a site as fine only where a check measured it: axis, scale, padding, causal direction', () => {
    const plain = evidence((b) => manualCall(b, {}));
    assert.deepEqual(kinds(plain), ['fine ATT001', 'fine ATT003', 'fine ATT004']);
    assert.deepEqual(plain[0].lines, site);
    assert.match(plain.find((e) => e.code === 'ATT003')!.message, /scaled q·kᵀ by 0\.25 = 1\/sqrt\(d_k\), d_k = 16/);
    assert.deepEqual(kinds(evidence((b) => manualCall(b, { masked: (bi, _t, s) => isPad(bi, s), ids: PADDED_IDS }))), [
      'fine ATT001',
      'fine ATT002',
      'fine ATT003',
      'fine ATT004',
    ]);
    assert.deepEqual(kinds(evidence((b) => manualCall(b, { masked: (_bi, t, s) => s > t }))), ['fine ATT001', 'fine ATT002', 'fine ATT003', 'fine ATT004']);
    // Padding ids without a padding_idx, or a library's chain: nothing measured for the user.
    assert.deepEqual(kinds(evidence((b) => manualCall(b, { masked: (bi, _t, s) => isPad(bi, s), ids: PADDED_IDS, paddingIdx: null }))), [
      'fine ATT001',
      'fine ATT003',
      'fine ATT004',
    ]);
    assert.deepEqual(kinds(evidence((b) => manualCall(b, { opPath: '/usr/lib/python3/dist-packages/lib.py' }))), []);
  });

  it('confirms what the run found, and never counts the same code fine at that site', () => {
    assert.deepEqual(kinds(evidence((b) => manualCall(b, { scale: 1 }))), ['confirmed ATT003', 'fine ATT001']);
    assert.deepEqual(kinds(evidence((b) => manualCall(b, { softmaxRole: 'row' }))), ['confirmed ATT001', 'fine ATT003', 'fine ATT004']);
    const inverted = evidence((b) => manualCall(b, { masked: (bi, _t, s) => !isPad(bi, s), fill: -1e9, ids: PADDED_IDS }));
    assert.deepEqual(kinds(inverted), ['confirmed ATT002', 'fine ATT001', 'fine ATT003', 'fine ATT004']);
    assert.match(inverted.find((e) => e.kind === 'confirmed')!.message, /inverted/);
    assert.equal(inverted.find((e) => e.kind === 'confirmed')!.at, OP_LINES.fill, 'the runtime finding’s own line');
    // Two layers of one site say it once; a site confirmed by one call is not fine by another.
    assert.equal(evidence((b) => [0, 1].forEach(() => manualCall(b, {}))).length, 3);
    const mixed = evidence((b) => {
      manualCall(b, { masked: (bi, _t, s) => !isPad(bi, s), fill: -1e9, ids: PADDED_IDS });
      manualCall(b, { masked: (bi, _t, s) => isPad(bi, s), fill: -1e9, ids: PADDED_IDS });
    });
    assert.deepEqual(kinds(mixed), ['confirmed ATT002', 'fine ATT001', 'fine ATT003', 'fine ATT004']);
  });

  it('marks a static finding confirmed or withdrawn by the site lines it covers, and the store forgets an edited file', () => {
    const finding = (code: RuleCode, line: number, endLine = line): Finding => ({
      code,
      severity: 'warning',
      message: 'm',
      line,
      column: 1,
      endLine,
      endColumn: 9,
    });
    const es = evidence((b) => manualCall(b, { scale: 1 }));
    assert.equal(judgeFinding(finding('ATT003', OP_LINES.softmax), es).confirmedBy?.code, 'ATT003');
    assert.equal(judgeFinding(finding('ATT001', OP_LINES.softmax), es).withdrawnBy?.code, 'ATT001');
    assert.deepEqual(judgeFinding(finding('ATT004', OP_LINES.softmax), es), {}, 'a scale that is 1 is not evidence against ATT004');
    assert.deepEqual(judgeFinding(finding('ATT001', 30), es), {}, 'another line: not this site');
    assert.equal(judgeFinding(finding('ATT001', 3, 8), es).withdrawnBy?.code, 'ATT001', 'a finding spanning the call line');

    const store = new RuntimeEvidenceStore();
    const heard: string[][] = [];
    store.onDidChange((docs) => heard.push(docs.sort()));
    store.replace([...es, { ...es[0], path: '/ws/other.py' }], (e) => `file://${e.path}`);
    assert.deepEqual(heard, [['file:///ws/other.py', 'file:///ws/prog.py']]);
    assert.equal(store.forDocument('file:///ws/prog.py').length, es.length);
    store.drop('file:///ws/prog.py');
    store.drop('file:///ws/prog.py');
    assert.deepEqual(heard[1], ['file:///ws/prog.py'], 'an edit drops the file once');
    assert.deepEqual(store.forDocument('file:///ws/prog.py'), []);
    store.replace([], () => '');
    assert.deepEqual(heard[2], ['file:///ws/other.py'], 'a new recording drops the rest');
  });
});

describe('record: a KV-cache step (1 query × S cached keys) judged at the query’s own position', () => {
  // Left-padded batch; the keys' ids are the prefill's and the step's (fromCache), so the query is the last key.
  const IDS = [
    [0, 0, 7, 8, 9],
    [3, 4, 5, 6, 2],
  ];
  const step = (b: TraceBuilder, attend: (bi: number, s: number) => boolean, fromCache = true) => {
    const [B, H, T, S, d] = [2, 2, 1, 5, 8];
    const allowed = Array.from({ length: B * T * S }, (_, i) => attend(Math.floor(i / S), i % S));
    b.add({
      kind: 'sdpa',
      dtype: 'float32',
      shapes: { q: [B, H, T, d], k: [B, H, S, d] },
      params: { isCausal: false },
      tensors: {
        q: b.tensor(0, 'q', 'float32', [B, H, T, d], randoms(B * H * T * d, 1)),
        k: b.tensor(0, 'k', 'float32', [B, H, S, d], randoms(B * H * S * d, 2)),
        v: b.tensor(0, 'v', 'float32', [B, H, S, d], randoms(B * H * S * d, 3)),
        attn_mask: b.tensor(0, 'attn_mask', 'bool', [B, 1, T, S], allowed),
        token_ids: b.tensor(0, 'token_ids', 'int64', [B, S], IDS.flat()),
      },
      tokens: { paddingIdx: 0, numEmbeddings: 50, module: 'emb', fromCache },
    });
  };
  const isPadKey = (bi: number, s: number) => IDS[bi][s] === 0;

  it('reports a step that attends the padding while masking real cached keys, and says nothing for the right mask', () => {
    const f = findings((b) => step(b, (bi, s) => isPadKey(bi, s) || s === 4));
    assert.deepEqual(codes(f), ['7:ATT002']);
    assert.match(f[0].message, /positions 0–1 of batch element 0, which hold padding id 0/);
    assert.deepEqual(
      findings((b) => step(b, (bi, s) => !isPadKey(bi, s))),
      [],
    );
    const b = new TraceBuilder();
    step(b, (bi, s) => !isPadKey(bi, s));
    const ev = analyseTrace(parseTrace(b.text(), 'trace.json'), b.reader()).evidence;
    assert.ok(ev.some((e) => e.kind === 'fine' && e.code === 'ATT002'));
  });

  it('says nothing when the keys are not known to hold the queries (cross-attention)', () => {
    assert.deepEqual(
      findings((b) => step(b, (bi, s) => isPadKey(bi, s) || s === 4, false)),
      [],
    );
  });
});

describe('record: a diagnosis in parts (the host lists the calls first, the worker diagnoses them part by part)', () => {
  it('gives, part after part in call order, the analysis of the whole trace: findings once per line, evidence merged', () => {
    const b = new TraceBuilder();
    manualCall(b, { scale: 1 }); // ATT003 at the scores line
    manualCall(b, {}); // fine
    manualCall(b, { scale: 1 }); // the same finding again (another layer): reported once
    manualCall(b, { masked: (bi, _t, s) => !isPad(bi, s), fill: -1e9, ids: PADDED_IDS }); // ATT002
    const trace = parseTrace(b.text(), 'trace.json');
    const whole = analyseTrace(trace, b.reader());
    assert.ok(whole.findings.length >= 2 && whole.evidence.length > 0);
    for (const sizes of [[1, 1, 1, 1], [3, 1], [2, 2], [4]]) {
      const parts = new TraceDiagnosis(trace);
      const seen: number[] = [];
      for (const n of sizes) {
        parts.add(diagnoseCalls(trace, b.reader(), parts.done, parts.done + n));
        seen.push(parts.analysis().findings.length);
      }
      assert.ok(parts.complete);
      assert.deepEqual(parts.analysis(), whole, `parts of ${sizes.join(', ')}`);
      assert.ok(
        seen.every((x, i) => i === 0 || x >= seen[i - 1]),
        'findings only grow',
      );
    }
    const first = new TraceDiagnosis(trace);
    first.add(diagnoseCalls(trace, b.reader(), 0, 1));
    assert.deepEqual(codes(first.analysis().findings), ['10:ATT003']);
    assert.throws(() => first.add(diagnoseCalls(trace, b.reader(), 2, 3)), /does not follow calls 0\.\.1/);
  });
});

describe('record: runtime findings and evidence as templates the editor translates', () => {
  // One setup per kind of finding the checks above produce, and the evidence of right sites.
  const setups: ((b: TraceBuilder) => void)[] = [
    (b) => manualCall(b, { scale: 1 }),
    (b) => manualCall(b, { scale: 1 / 16 }),
    (b) => manualCall(b, { scale: 4 }),
    (b) => manualCall(b, { softmaxRole: 'row' }),
    (b) => manualCall(b, { masked: (bi, _t, s) => !isPad(bi, s), fill: -1e9, ids: PADDED_IDS }),
    (b) => manualCall(b, { masked: (_bi, t, s) => s === 0 && t > 0, fill: -1e9, ids: PADDED_IDS }),
    (b) => manualCall(b, { masked: (_bi, t, s) => s < t }),
    (b) => manualCall(b, { T: 3, S: 7, masked: (_bi, t, s) => s > t }),
    (b) => manualCall(b, { after: (bi, _t, s) => (isPad(bi, s) ? 0 : 1), ids: PADDED_IDS }),
    (b) => manualCall(b, { masked: (bi, t) => bi === 1 && t === 0 }),
    (b) => manualCall(b, { masked: (bi, _t, s) => isPad(bi, s), ids: PADDED_IDS }),
    (b) => manualCall(b, { masked: (_bi, t, s) => s > t }),
    (b) =>
      b.add({
        kind: 'sdpa',
        dtype: 'float32',
        shapes: { q: [1, 1, 1, 8], k: [1, 1, 9, 8], v: [1, 1, 9, 8] },
        params: { isCausal: true, scale: null },
        tensors: {},
      }),
  ];
  const analyses = setups.map((setup) => {
    const b = new TraceBuilder();
    setup(b);
    return analyseTrace(parseTrace(b.text(), 'trace.json'), b.reader());
  });
  const messages = analyses.flatMap((a) => [...a.findings, ...a.evidence]);
  const zh = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;

  it('gives every finding and evidence parts of declared templates that render to its English message exactly', () => {
    const codesFound = new Set(analyses.flatMap((a) => a.findings.map((f) => f.code)));
    assert.deepEqual([...codesFound].sort(), ['ATT001', 'ATT002', 'ATT003', 'ATT004', 'ATT006', 'ATT007', 'ATT008']);
    assert.ok(analyses.some((a) => a.evidence.some((e) => e.kind === 'fine')));
    const declared = new Set(registeredTemplates('runtime'));
    for (const m of messages) {
      assert.equal(renderMessage(m.messageParts), m.message);
      const walk = (p: MessageParts): void => {
        assert.ok(declared.has(p.template), `undeclared template ${JSON.stringify(p.template)}`);
        for (const a of p.args) if (typeof a === 'object') walk(a);
      };
      walk(m.messageParts);
    }
  });

  it('renders every finding and evidence through the zh-cn bundle with no placeholder or English prose left', () => {
    const toZh = (t: string, args: readonly (string | number)[]) => fillTemplate(zh[`${t}/runtime`] ?? t, args);
    for (const m of messages) {
      const text = renderMessage(m.messageParts, toZh);
      assert.notEqual(text, m.message);
      assert.doesNotMatch(text, /\{\d+\}/, text);
      assert.equal(englishProse(text), undefined, `English left in "${text}"`);
    }
  });
});
