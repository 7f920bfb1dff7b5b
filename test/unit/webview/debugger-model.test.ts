// The debugger's words and numbers, on real engine traces: each bug the switches can produce is named in
// a warning built from the trace's own numbers, the statistics table flags the right rows, and each step
// shows the right tensor, formula and shape.
import { strict as assert } from 'node:assert';
import { traceAttention, type AttentionTrace, type TraceOptions, type TraceWarningId } from '../../../src/engine';
import { TorchGenerator } from '../../../src/engine/random';
import { setStrings } from '../../../webview/l10n';
import { buildStatsTable } from '../../../webview/stats-model';
import { describeStepCell, stepInfo } from '../../../webview/steps';
import { describeWarning } from '../../../webview/warnings';
import { weightCaption } from '../../../webview/legend';
import { switchesSummary } from '../../../webview/debugger-view';
import { DEFAULT_SWITCHES } from '../../../webview/state';

const L = 6,
  dk = 64;
const tokens = ['the', 'cat', 'sat', 'on', 'the', 'mat'];

function qkv(seed: number) {
  const g = new TorchGenerator(seed);
  return { q: g.randn(L, dk), k: g.randn(L, dk), v: g.randn(L, 8) };
}

function traced(options: TraceOptions, seed = 1): AttentionTrace {
  const { q, k, v } = qkv(seed);
  return traceAttention(q, k, v, options);
}

function warning(trace: AttentionTrace, id: TraceWarningId) {
  const w = trace.warnings.find((x) => x.id === id);
  assert.ok(w, `expected warning ${id}, got ${trace.warnings.map((x) => x.id).join(', ') || 'none'}`);
  return describeWarning(w, trace);
}

describe('webview debugger model', () => {
  before(() => setStrings({}));

  it('softmax over dim -2: says the rows do not sum to 1, by how much, and what to use instead', () => {
    const trace = traced({ softmaxDim: -2 });
    const w = warning(trace, 'rows-not-normalized');
    const worst = Math.max(...trace.stats.rowSums.map((s) => Math.abs(s - 1)));
    assert.equal(w.severity, 'error');
    assert.equal(w.title, 'Rows do not sum to 1');
    assert.match(w.detail, new RegExp(`off by up to ${String(+worst.toPrecision(4)).replace('.', '\\.')}\\)`));
    assert.match(w.detail, /dim -2 \(the queries\).*use dim=-1/);
  });

  it('inverted padding mask: names the API whose convention was crossed', () => {
    for (const [builtAs, passedTo, api] of [
      ['true-means-pad', 'sdpa', /F\.scaled_dot_product_attention reads True = attend/],
      ['true-means-keep', 'mha', /key_padding_mask reads True = ignore/],
    ] as const) {
      const trace = traced({ mask: { kind: 'padding', padLast: 2, builtAs, passedTo } });
      const w = warning(trace, 'attends-only-padding');
      assert.deepEqual(w.rows, [0, 1, 2, 3, 4, 5]);
      assert.match(w.detail, api);
    }
    const correct = traced({ mask: { kind: 'padding', padLast: 2, builtAs: 'true-means-pad', passedTo: 'mha' } });
    assert.ok(!correct.warnings.some((x) => x.id === 'attends-only-padding'));
  });

  it('no scale: saturated rows, with the scale that was used against 1/sqrt(d_k)', () => {
    const trace = traced({ scale: { kind: 'none' } });
    const w = warning(trace, 'saturated-rows');
    assert.match(w.detail, /at least 99% of their weight/);
    assert.match(w.detail, /multiplied by 1, while 1\/sqrt\(d_k\) = 0\.125/);
    const v = warning(trace, 'score-variance-high');
    assert.match(v.detail, new RegExp(`d_k = ${dk}`));
  });

  it('every key masked: NaN rows, explained as 0/0; with SDPA’s safe softmax, silent zero rows instead', () => {
    const all = { kind: 'padding', padLast: L, builtAs: 'true-means-pad', passedTo: 'mha' } as const;
    const nan = warning(traced({ mask: all }), 'nan-rows');
    assert.match(nan.detail, /0\/0/);
    const zero = traced({ mask: all, fullyMaskedRows: 'zero' });
    assert.equal(warning(zero, 'fully-masked-zero-rows').severity, 'info');
    assert.ok(!zero.warnings.some((x) => x.id === 'nan-rows'));
  });

  it('meant to be causal without a causal mask: future tokens visible', () => {
    const trace = traced({ causalIntent: 'top-left' });
    const w = warning(trace, 'future-visible');
    assert.match(w.detail, /query i sees keys j ≤ i/);
    assert.match(w.detail, /no causal mask is applied/);
    assert.deepEqual(w.rows, [0, 1, 2, 3, 4]);
    assert.match(
      describeWarning(
        trace.warnings.find((x) => x.id === 'future-visible')!,
        trace,
        ['bottom-right'],
      ).detail,
      /aligned bottom-right/,
    );
  });

  it('has its own words for every warning the engine can give', () => {
    const ids: TraceWarningId[] = [
      'rows-not-normalized',
      'attends-only-padding',
      'saturated-rows',
      'nan-rows',
      'future-visible',
      'fully-masked-zero-rows',
      'score-variance-high',
    ];
    const trace = traced({});
    for (const id of ids) {
      const w = describeWarning({ id, rows: [1], message: 'ENGINE TEXT' }, trace);
      assert.ok(!w.detail.includes('ENGINE TEXT') && w.title !== id, `${id} falls back to the engine's sentence`);
    }
    const unknown = describeWarning({ id: 'new-check' as TraceWarningId, rows: [], message: 'engine says' }, trace);
    assert.equal(unknown.detail, 'engine says');
  });

  it('flags the rows the statistics say are wrong, and nothing on a correct head', () => {
    const good = buildStatsTable(traced({}), tokens);
    assert.equal(good.rows.length, L);
    assert.ok(
      good.rows.every((r) => !r.flagged),
      'a correct head has no flagged cell',
    );
    assert.deepEqual(
      good.columns.map((c) => c.id),
      ['row', 'token', 'sum', 'entropy', 'max', 'variance'],
    );
    const t = traced({});
    assert.equal(good.rows[2].cells[3].text.split(' / ')[1], String(+Math.log(L).toPrecision(3)));
    assert.match(good.summary, new RegExp(`d_k = ${dk}`));
    const bad = buildStatsTable(traced({ softmaxDim: -2 }), tokens);
    const sumFlags = bad.rows.filter((r) => r.cells[2].flag === 'bad').map((r) => r.index);
    const expected = traced({ softmaxDim: -2 }).stats.rowSums.flatMap((s, i) => (Math.abs(s - 1) > 1e-3 ? [i] : []));
    assert.deepEqual(sumFlags, expected);
    const padded = buildStatsTable(traced({ mask: { kind: 'padding', padLast: 2, builtAs: 'true-means-pad', passedTo: 'sdpa' } }), tokens);
    assert.ok(padded.columns.some((c) => c.id === 'padding'));
    assert.ok(padded.rows.every((r) => r.cells[6].flag === 'bad'));
    assert.equal(t.L, L);
  });

  it('shows each step’s tensor, formula and shape, and explains a cell with the trace’s own numbers', () => {
    const trace = traced({ mask: { kind: 'causal', align: 'top-left' }, temperature: 2 });
    const shapes = [0, 1, 2, 3, 4].map((s) => stepInfo(trace, s as 0).tensor.shape.join('x'));
    assert.deepEqual(shapes, ['6x6', '6x6', '6x6', '6x6', '6x8']);
    assert.equal(stepInfo(trace, 0).tensor, trace.scores);
    assert.equal(stepInfo(trace, 3).tensor, trace.probs);
    assert.equal(stepInfo(trace, 3).isWeights, true);
    assert.match(stepInfo(trace, 0).shape, /Q \(6, 64\) · Kᵀ \(64, 6\) → \(6, 6\)/);
    assert.match(stepInfo(trace, 1).formula, /× 0\.125 \(1\/√d_k = 1\/√64\) \/ temperature 2/);
    assert.match(stepInfo(trace, 2).note, /15 of 36 cells are masked/);
    assert.match(stepInfo(trace, 4).shape, /\(6, 6\) · V \(6, 8\) → \(6, 8\)/);
    const cell = describeStepCell(trace, 1, 3, 1, tokens);
    assert.equal(cell[0], 'Query 3 “on” → key 1 “cat”');
    const [a, b, c] = cell[1].split(/ × | = /).map((x) => Number(x.replace('−', '-')));
    assert.ok(Math.abs(a * b - c) < 1e-3 * Math.max(1, Math.abs(c)), cell[1]);
    assert.deepEqual(describeStepCell(trace, 2, 0, 5, tokens).slice(1), [
      `${String(+trace.scaled.data[5].toPrecision(4)).replace('-', '−')} + −∞ = −∞`,
      'masked',
    ]);
    assert.match(describeStepCell(trace, 4, 2, 7, tokens)[0], /dimension 7/);
  });

  it('1/d_k: "almost uniform", with the entropy against ln n and the spread against √d_k, in the user\'s language', () => {
    const trace = traced({ scale: { kind: 'inv-dk' } });
    const w = warning(trace, 'near-uniform-rows');
    assert.equal(w.severity, 'warning');
    assert.equal(w.title, 'Almost uniform rows (flat attention)');
    const lnN = String(+Math.log(L).toPrecision(3));
    assert.match(w.detail, new RegExp(`entropy [\\d.–]+ nats against ln n = ${lnN.replace('.', '\\.')}`));
    assert.match(w.detail, /about √d_k = 8\)/);
    assert.match(w.detail, /multiplied by 0\.01563, while 1\/sqrt\(d_k\) = 0\.125/);
    setStrings({ 'Almost uniform rows (flat attention)': '几乎均匀的行（注意力过于平坦）' });
    try {
      assert.equal(warning(trace, 'near-uniform-rows').title, '几乎均匀的行（注意力过于平坦）');
    } finally {
      setStrings({});
    }
  });

  it('one-hot rows give their entropy too', () => {
    const w = warning(traced({ temperature: 0.05 }), 'saturated-rows');
    assert.match(w.detail, /Entropy [\d.e–-]+ nats against ln n = 1\.79; the scaled scores spread [\d.]+ \(standard deviation\)/);
  });

  it('the legend says when weight colours are stretched to the largest weight', () => {
    assert.equal(weightCaption(true, [0.1, 0.2]), 'weight');
    assert.equal(weightCaption(false, [0.1, 0.2]), 'weight (colours stretched: the strongest colour is the largest weight, 0.2, not 1)');
    assert.equal(weightCaption(false, [0, 1]), 'weight');
  });
});

describe('debugger switches summary', () => {
  it('says the switches in a few words', () => {
    assert.equal(switchesSummary(DEFAULT_SWITCHES), 'scale 1/√d_k · temperature 1 · no mask · softmax dim -1');
    assert.equal(
      switchesSummary({ ...DEFAULT_SWITCHES, scale: 'inv-dk', temperature: 10, causal: 'top-left', padLast: 2, softmaxDim: -2 }),
      'scale 1/d_k · temperature 10 · causal top-left, 2 padding · softmax dim -2',
    );
  });
});
