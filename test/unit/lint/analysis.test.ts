// The pure pieces the rules stand on: mask polarity algebra, einsum/einops parsing, shape comments, noqa
// parsing, names, and the evaluator's view of small programs.
import { strict as assert } from 'node:assert';
import { flipMask, transposeMask, triMask, combineMasks, emptyRowReason } from '../../../src/lint/analysis/masks';
import { parseEinsum, parseEinopsPattern, negIndexInTerm, einopsLabels } from '../../../src/lint/analysis/layout';
import { namedShapes, trailingCommentShape, maskFromDoc } from '../../../src/lint/analysis/comments';
import { roleOfName, dimOfName, maskOfName, projectionRole, isScaleName, isConfigName } from '../../../src/lint/analysis/names';
import { parseNoqa } from '../../../src/lint/noqa';
import { precisionEvidenceAt, sourcePrecision } from '../../../src/lint/analysis/precision';
import { LineIndex } from '../../../src/lint/syntax/positions';
import { createPythonParser } from '../../../src/lint/parser';
import { analyseScopes } from '../../../src/lint/analysis/scopes';
import { Evaluator } from '../../../src/lint/analysis/evaluator';
import { walk } from '../../../src/lint/syntax/tree';
import type { AValue } from '../../../src/lint/analysis/values';
import { grammar } from './helpers';
import { renderMessage } from '../../../src/lint/message';
import { operandSources } from '../../../src/lint/analysis/operand-sources';
import type { MaskInfo } from '../../../src/lint/analysis/values';

/** Why a row can be fully masked when the op fills where the mask is True (masked_fill), as English text. */
const reason = (m: MaskInfo, fills: 'true' | 'false' = 'true'): string | undefined => {
  const r = emptyRowReason(m, undefined, fills);
  return r && renderMessage(r);
};

describe('mask polarity algebra', () => {
  it('triangles: upper marks the future (ignore), lower keeps; ~ and transpose move between them', () => {
    const future = triMask({ region: 'upper', k: 1 }, 'bool', 'triu(1)');
    assert.equal(future.polarity, 'ignore');
    const keep = flipMask(future, '~')!;
    assert.deepEqual([keep.polarity, keep.tri], ['keep', { region: 'lower', k: 0 }]);
    assert.deepEqual(flipMask(keep, '~')!.tri, { region: 'upper', k: 1 });
    // PyTorch tutorial: (triu(ones) == 1).transpose(0, 1) is the lower triangle with the diagonal.
    const t = transposeMask(triMask({ region: 'upper', k: 0 }, 'bool', 'triu'));
    assert.deepEqual([t.polarity, t.tri], ['keep', { region: 'lower', k: 0 }]);
  });

  it('finds rows that can be fully masked', () => {
    assert.match(reason(triMask({ region: 'upper', k: 0 }, 'bool', 'triu(ones)'))!, /diagonal/);
    assert.equal(reason(triMask({ region: 'upper', k: 1 }, 'bool', 'triu(ones, 1)')), undefined);
    // The region filled decides, not the polarity: `triu(ones) == 0` filled by masked_fill is the strict lower
    // triangle (the wrong way round, ATT002's finding), which empties no row; kept by `where(m, scores, -inf)` it
    // fills the diagonal and above, which empties the first row.
    const pastOnly = flipMask(triMask({ region: 'upper', k: 0 }, 'bool', 'triu(ones)'), '== 0')!;
    assert.equal(reason(pastOnly), undefined);
    assert.match(reason(pastOnly, 'false')!, /diagonal/);
    assert.equal(reason(triMask({ region: 'lower', k: 0 }, 'bool', 'tril(ones)'), 'false'), undefined);
    assert.match(reason(triMask({ region: 'lower', k: -1 }, 'bool', 'tril(ones, -1)'), 'false')!, /diagonal/);
    assert.match(reason({ polarity: 'ignore', padding: true, padAxes: [-2], why: 'pad' })!, /query axis/);
    assert.equal(reason({ polarity: 'ignore', padding: true, padAxes: [-1], why: 'pad' }), undefined);
    const both = combineMasks(triMask({ region: 'lower', k: 0 }, 'bool', 'tril'), { polarity: 'keep', padding: true, padAxes: [-1], why: 'am' }, 'and')!;
    assert.match(reason(both)!, /left padding/);
    assert.equal(combineMasks({ polarity: 'keep', why: 'a' }, { polarity: 'ignore', why: 'b' }, 'and'), undefined);
  });
});

describe('einsum and einops', () => {
  it('parses explicit, implicit, spaced and ellipsis equations', () => {
    assert.deepEqual(parseEinsum('bhid,bhjd->bhij', 'letters'), {
      inputs: [
        ['b', 'h', 'i', 'd'],
        ['b', 'h', 'j', 'd'],
      ],
      output: ['b', 'h', 'i', 'j'],
    });
    assert.deepEqual(parseEinsum('bid,bjd', 'letters')!.output, ['b', 'i', 'j'].filter((x) => x !== 'b').sort());
    assert.deepEqual(parseEinsum('b h i d, b h j d -> b h i j', 'words')!.output, ['b', 'h', 'i', 'j']);
    const e = parseEinsum('...qhd,...khd->...hqk', 'letters')!;
    assert.equal(negIndexInTerm(e.output, 'k'), -1);
    assert.equal(negIndexInTerm(e.output, 'q'), -2);
    assert.equal(parseEinsum('ab,bc->a->c', 'letters'), undefined);
  });

  it('labels einops groups', () => {
    const p = parseEinopsPattern('b n (h d) -> b h n d')!;
    assert.deepEqual(
      einopsLabels(p.rhs).map((a) => a.label),
      ['batch', 'head', 'seq', 'feat'],
    );
    assert.equal(einopsLabels(p.lhs)[2].label, 'feat');
    // `()` is a new axis of length 1, not a merged batch.
    assert.deepEqual(einopsLabels(parseEinopsPattern('b h d -> b () (h d)')!.rhs), [{ label: 'batch' }, { size1: true }, { label: 'feat' }]);
  });
});

describe('comments and names', () => {
  it('reads shapes from trailing comments and parameter descriptions', () => {
    assert.equal(trailingCommentShape('# (B, nh, T, hs)')!.length, 4);
    assert.equal(trailingCommentShape('# (B, nh, T, T) x (B, nh, T, hs) -> (B, nh, T, hs)')!.length, 4);
    // "=>" and "→" read input to output as "->" does: the value on the line is the last shape.
    assert.equal(trailingCommentShape('# (B, L, H) => (B, L)  # "weight logits"')!.length, 2);
    assert.equal(trailingCommentShape('# (B, L, 1) → (B, L)')!.length, 2);
    assert.equal(trailingCommentShape('# see (section 3)'), undefined);
    const m = namedShapes('q: (n_head * B, L, d_k); k: (n_head * B, S, d_k)\nmask: [B, 1, S]');
    assert.deepEqual([...m.keys()], ['q', 'k', 'mask']);
    assert.equal(m.get('q')!.length, 3);
    // One shape stated for several names; a single name keeps its own.
    const listed = namedShapes('query, key, value: [batch, heads, time, d_k]\nmask: (B, 1, S)');
    assert.deepEqual([...listed.keys()].sort(), ['key', 'mask', 'query', 'value']);
    assert.equal(listed.get('query')!.length, 4);
    assert.equal(namedShapes('see also: things, stuff').size, 0);
    // Several names on one comment line, square brackets without a colon; one item is no shape.
    const bracketed = namedShapes('# lstm_output [3, 10, 16]  h_t [10, 16]  # [T B C]\n# index [0]');
    assert.deepEqual([...bracketed.keys()], ['lstm_output', 'h_t']);
    assert.deepEqual(
      bracketed.get('h_t')!.map((a) => a.sizeText),
      ['10', '16'],
    );
    assert.deepEqual(maskFromDoc(' (B, N) bool, True = padded peak'), { dtype: 'bool', polarity: 'ignore' });
    assert.deepEqual(maskFromDoc(' (B, S) 1 = token, 0 = padding'), { polarity: 'keep' });
    // The same meaning stated with a subject ("where the key is ..."); a negated word states the other meaning.
    assert.deepEqual(maskFromDoc(' (B, S) True where the key is padding'), { polarity: 'ignore' });
    assert.deepEqual(maskFromDoc(' (B, S) 1 if the token is valid'), { polarity: 'keep' });
    assert.deepEqual(maskFromDoc(' (B, S) True where the key is not padding'), { polarity: 'keep' });
    assert.deepEqual(maskFromDoc(' 1 for non-padding positions, 0 elsewhere'), { polarity: 'keep' });
    assert.deepEqual(maskFromDoc(' True = not attended'), { polarity: 'ignore' });
    assert.deepEqual(maskFromDoc(' 0 for padding, non-zero for not padding'), { polarity: 'keep' });
    assert.deepEqual(maskFromDoc(' False means the token is not masked'), { polarity: 'ignore' });
    assert.deepEqual(maskFromDoc(' True where not allowed to attend'), { polarity: 'ignore' });
    // Hugging Face's wording: the plain statement about tokens comes first and decides.
    assert.deepEqual(maskFromDoc(' 1 for tokens that are **not masked**, 0 for tokens that are **masked**'), { polarity: 'keep' });
    // The first statement is the meaning; a convention mentioned after it does not override it.
    assert.deepEqual(maskFromDoc(' bool (B, S), True at the real tokens (a padding mask would be True at the padding)'), {
      dtype: 'bool',
      polarity: 'keep',
    });
    assert.deepEqual(maskFromDoc(' True at padding (unlike a tokenizer mask, which is 1 at real tokens)'), { polarity: 'ignore' });
  });

  it('reads what a parameter holds, not what the code makes of it: the text after an arrow to a shape is the result', () => {
    // The text after `-> (B, 1, 1, S)` describes the helper's result, which the code shows: the parameter is 1 = attend.
    assert.deepEqual(maskFromDoc(' (B, S) 1 = attend -> (B, 1, 1, S) additive, 0 kept, min where masked'), { polarity: 'keep' });
    // An additive mask stated before the arrow is still one; an arrow to a word still states a meaning.
    assert.deepEqual(maskFromDoc(' (B, 1, 1, S) additive, 0 = keep, -inf = masked'), { additive: true });
    assert.deepEqual(maskFromDoc(' additive -> (B, H, T, S) after broadcasting'), { additive: true });
    assert.deepEqual(maskFromDoc(' bool, True -> padding'), { dtype: 'bool', polarity: 'ignore' });
  });

  it('reads a float mask whose values are written as floats, and no 0 or 1 inside another number', () => {
    // The 0 after the point of "1.0" is not a statement "0 = may attend" (read as True/1 = masked out).
    assert.deepEqual(maskFromDoc(' (B, T, T) 1.0 = may attend'), { polarity: 'keep' });
    assert.deepEqual(maskFromDoc(' (B, T, T) 1.0 = padding'), { polarity: 'ignore' });
    // Nor is "1.0 = keep" the additive "0 = keep" of a bias mask.
    assert.deepEqual(maskFromDoc(' (B, T) float, 1.0 = keep, 0.0 = padding'), { dtype: 'float', polarity: 'keep' });
    assert.deepEqual(maskFromDoc(' 0.0 = keep, -1e9 = masked'), { additive: true });
    // The HF docstring's wording, and a 0.5 that states nothing.
    assert.deepEqual(maskFromDoc(' 1 for tokens that are NOT MASKED, 0 for MASKED tokens'), { polarity: 'keep' });
    assert.deepEqual(maskFromDoc(' True means keep'), { polarity: 'keep' });
    assert.deepEqual(maskFromDoc(' (B, S) 0 for padding'), { polarity: 'keep' });
    assert.deepEqual(maskFromDoc(' scaled by 1e9 where the mask is set, 0.5 = keep'), {});
  });

  it('gives roles, dimensions and mask conventions from names', () => {
    assert.equal(roleOfName('query_layer'), 'query');
    assert.equal(roleOfName('key_states'), 'key');
    assert.equal(roleOfName('xv'), 'value');
    assert.equal(roleOfName('key_padding_mask'), undefined);
    assert.equal(roleOfName('qk'), undefined);
    assert.equal(projectionRole('q_proj'), 'query');
    assert.equal(projectionRole('to_k'), 'key');
    assert.equal(dimOfName('self.head_dim')!.which, 'head');
    assert.equal(dimOfName('d_model')!.which, 'model');
    assert.equal(maskOfName('src_key_padding_mask')!.polarity, 'ignore');
    assert.equal(maskOfName('attention_mask')!.polarity, 'keep');
    assert.ok(isScaleName('self.scaling'));
    assert.ok(!isScaleName('scaled_dot'));
    for (const n of ['config', 'cfg', 'args', 'hparams', 'attn_config', 'model_args']) assert.ok(isConfigName(n), n);
    for (const n of ['d_model', 'dim', 'conv', 'configure', 'n_head']) assert.ok(!isConfigName(n), n);
  });

  it('reads the precision a file runs in: a disabled torch.cuda.amp.autocast is float32, other amp code is half', () => {
    assert.equal(sourcePrecision('with torch.cuda.amp.autocast(enabled = False):\n    y = f(x.float())\n').fp16, false);
    assert.equal(sourcePrecision('with torch.cuda.amp.autocast():\n    y = f(x)\n').fp16, true);
    assert.equal(sourcePrecision('model, opt = amp.initialize(model, opt)\n').fp16, true);
    assert.equal(sourcePrecision('scaler = torch.cuda.amp.GradScaler()\n').fp16, true);
  });

  it('takes prose that says the file runs in half precision as evidence from prose, and "fits float16" as none', () => {
    assert.deepEqual(sourcePrecision('x = 1\n# trained in half precision on the GPU\n'), { fp16: true, bf16: false, fromProse: true });
    // Code evidence is code evidence, whatever the comments say.
    assert.deepEqual(sourcePrecision('model = model.half()  # half precision\n'), { fp16: true, bf16: false });
    // A value chosen to stay in float16's range says the code supports half precision, not that it runs in it.
    assert.equal(sourcePrecision('scores = scores.masked_fill(pad, -1e4)  # fits float16\n').fp16, false);
    assert.equal(sourcePrecision('x = 1\n# -1e4 is safe for fp16, float16-safe\n').fp16, false);
    assert.equal(sourcePrecision('x = 1\n# keeps the bias finite in half precision\n').fp16, false);
  });

  it('does not take a test of a dtype against float16 for evidence that the file runs in float16', () => {
    // Loaded parameters cast up to float32 when they come in as float16: a question about the data, not an answer.
    const castUp = 'params = tree_map(lambda x: x.astype(jnp.float32) if x.dtype == jnp.float16 else x, params)\n';
    assert.equal(sourcePrecision(castUp).fp16, false);
    assert.equal(sourcePrecision('if scores.dtype in (torch.float16, torch.bfloat16):\n    scores = scores.float()\n').fp16, false);
    assert.equal(sourcePrecision('if x.dtype is not torch.half:\n    x = x.float()\n').fp16, false);
    // A cast to float16 in the same file is evidence, and is where it points.
    const both = `${castUp}model = model.to(torch.float16)\n`;
    assert.equal(sourcePrecision(both).fp16, true);
    assert.deepEqual(precisionEvidenceAt(both), { line: 2, column: 24 });
  });

  it('does not take the import path of the autocast module for an amp flag, nor point at a disabled autocast', () => {
    const imported = 'from torch.cuda.amp.autocast_mode import autocast\n';
    assert.equal(sourcePrecision(imported).fp16, false);
    assert.equal(sourcePrecision(`${imported}with autocast(enabled=False):\n    loss = f(x)\n`).fp16, false);
    // Autocast turned on later in the file is the evidence, at the call that turns it on.
    const both = `${imported}with autocast(enabled=False):\n    loss = f(x)\nwith autocast(enabled=True):\n    loss = g(x)\n`;
    assert.equal(sourcePrecision(both).fp16, true);
    assert.deepEqual(precisionEvidenceAt(both), { line: 4, column: 6 });
    // Other amp code still counts.
    assert.equal(sourcePrecision('from apex import amp\nmodel, opt = amp.initialize(model, opt)\n').fp16, true);
  });

  it('does not take a comment that the code stays fp16-compatible for evidence that the file runs in fp16', () => {
    const cast = 'm = m.to(dtype=self.dtype)  # fp16 compatibility\nm = (1.0 - m) * -10000.0\n';
    assert.equal(sourcePrecision(cast).fp16, false);
    // Prose that says the file runs in half precision still counts, next to the compatibility note.
    assert.equal(sourcePrecision(`${cast}x = m  # this model is trained with --fp16\n`).fp16, true);
  });

  it('parses noqa comments', () => {
    assert.equal(parseNoqa('# noqa'), 'all');
    assert.deepEqual([...(parseNoqa('# noqa: ATT001, att003') as Set<string>)], ['ATT001', 'ATT003']);
    assert.deepEqual([...(parseNoqa('# type: ignore  # noqa:E501') as Set<string>)], ['E501']);
    assert.equal(parseNoqa('# just a comment'), undefined);
  });

  it('maps offsets to UTF-16 line/columns across \\n, \\r\\n and \\r', () => {
    const idx = new LineIndex('ab\r\ncd\ref\ngh');
    assert.deepEqual(idx.position(0), { line: 1, column: 1 });
    assert.deepEqual(idx.position(4), { line: 2, column: 1 });
    assert.deepEqual(idx.position(7), { line: 3, column: 1 });
    assert.deepEqual(idx.position(10), { line: 4, column: 1 });
    assert.equal(idx.lineText(2), 'cd');
  });
});

describe('evaluator', () => {
  async function valueOf(src: string, exprText: string): Promise<AValue> {
    const parser = await createPythonParser(grammar());
    // Every block and body (these snippets need not hold a site).
    const tree = parser.parse(src, { full: true });
    const sr = analyseScopes(tree);
    const ev = new Evaluator(tree, sr);
    ev.run();
    // The last occurrence: a read of the name (the first one is usually the assignment target).
    let last: typeof tree.root | undefined;
    walk(tree.root, (n) => {
      if (src.slice(n.start, n.end) === exprText && n.type !== 'expression_statement') last = n;
    });
    let found: AValue | undefined;
    if (last) {
      const n = last;
      const scope = [...sr.scopes].reverse().find((s) => s.node.start <= n.start && n.end <= s.node.end && s.kind !== 'comprehension') ?? sr.module;
      found = ev.eval(n, ev.defaultCtx(scope));
    }
    assert.ok(found, `${exprText} not found`);
    return found;
  }

  it('follows layouts through view/transpose and finds the key axis of q @ kᵀ', async () => {
    const src = `def f(x, B, T, n_head, hs):
    q = x.view(B, T, n_head, hs).transpose(1, 2)
    k = x.view(B, T, n_head, hs).transpose(1, 2)
    att = q @ k.transpose(-2, -1)
    return att
`;
    const q = await valueOf(src, 'q');
    assert.equal(q.ndim, 4);
    assert.deepEqual(
      q.axes!.map((a) => a.label),
      ['batch', 'head', 'seq', 'feat'],
    );
    const att = await valueOf(src, 'att');
    assert.equal(att.attn?.keyAxis, -1);
    assert.equal(att.ndim, 4);
  });

  it('gives a scalar made from a float literal float32, and a cast to its dtype that dtype', async () => {
    const src = [
      'import tensorflow as tf',
      'one = tf.constant(1.0)',
      'half = tf.constant(1.0, dtype=tf.float16)',
      'count = tf.constant(3)',
      'mask = ids > 0',
      'm = tf.cast(mask, dtype=one.dtype)',
      'h = tf.cast(mask, dtype=half.dtype)',
      'bias = (one - m) * -1e8',
      'out = [h, bias]',
      '',
    ].join('\n');
    assert.equal((await valueOf(src, 'one')).dtype, 'float32');
    assert.equal((await valueOf(src, 'half')).dtype, 'float16');
    assert.equal((await valueOf(src, 'count')).dtype, undefined);
    assert.equal((await valueOf(src, 'm')).dtype, 'float32');
    assert.equal((await valueOf(src, 'h')).dtype, 'float16');
    assert.equal((await valueOf(src, 'bias')).dtype, 'float32');
  });

  it('follows mask polarity through comparisons, ~ and == 0', async () => {
    const src = `def f(ids, pad_id, T):
    pad = ids == pad_id
    keep = ~pad
    causal = torch.tril(torch.ones(T, T)) == 0
    return pad, keep, causal
`;
    assert.equal((await valueOf(src, 'pad')).mask?.polarity, 'ignore');
    assert.equal((await valueOf(src, 'keep')).mask?.polarity, 'keep');
    const causal = await valueOf(src, 'causal');
    assert.deepEqual([causal.mask?.polarity, causal.mask?.tri], ['ignore', { region: 'upper', k: 1 }]);
  });

  it('resolves self attributes set in __init__ and calls into methods of classes in the file', async () => {
    const src = `import torch.nn as nn
class A(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.softmax = nn.Softmax(dim=-2)
        self.scale = d ** -0.5
    def forward(self, q, k):
        return self.softmax(q @ k.transpose(-2, -1) * self.scale)
`;
    const s = await valueOf(src, 'self.scale');
    assert.equal(s.kind, 'number');
    assert.equal(s.dimPow?.power, -0.5);
    const sm = await valueOf(src, 'self.softmax');
    assert.equal(sm.layer?.api, 'torch.nn.Softmax');
    assert.equal(sm.layer?.dim, -2);
  });

  it('reads a constructor config object by its fields: the model width, a head count, their quotient the head width', async () => {
    const src = `import math
import torch.nn as nn
class A(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.hidden_size = config.hidden_size
        self.head_dim = config.hidden_size // config.num_attention_heads
        self.scaling = config.hidden_size ** -0.5
    def forward(self, q, k):
        return (q @ k.transpose(-2, -1) / math.sqrt(self.hidden_size)).softmax(-1), self.head_dim, self.scaling
`;
    const width = await valueOf(src, 'self.hidden_size');
    assert.deepEqual([width.dimPow?.dim.which, width.dimPow?.dim.text, width.dimPow?.power], ['model', 'config.hidden_size', 1]);
    const head = await valueOf(src, 'self.head_dim');
    assert.equal(head.dimPow?.dim.which, 'head');
    const scaling = await valueOf(src, 'self.scaling');
    assert.deepEqual([scaling.dimPow?.dim.which, scaling.dimPow?.power], ['model', -0.5]);
    // The config object itself is no size (it used to be read as one, and its fields were then lost).
    const config = await valueOf(src, 'config');
    assert.equal(config.kind, 'unknown');
  });

  /** Whether every path of a value's operations scales it by a power of D (`* D ** -0.5`). */
  const scaledByD = (v: AValue): boolean => (v.ops ?? []).length > 0 && v.ops!.every((path) => path.some((op) => op.kind === 'scale' && op.dim?.text === 'D'));
  /** Whether some path of a value's operations scales it by a power of D. */
  const mayBeScaledByD = (v: AValue): boolean => (v.ops ?? []).some((path) => path.some((op) => op.kind === 'scale' && op.dim?.text === 'D'));

  it('evaluates a comprehension over a tuple once per element: unpacking gives each name its own value', async () => {
    const src = `def f(x, wq, wk, wv, B, T, H, D):
    q = (x @ wq).view(B, T, H, D) * D ** -0.5
    k = (x @ wk).view(B, T, H, D)
    v = (x @ wv).view(B, T, H * D)
    q, k, v = (t.transpose(1, 2) for t in (q, k, v))
    return q, k, v
`;
    const [q, k, v] = [await valueOf(src, 'q'), await valueOf(src, 'k'), await valueOf(src, 'v')];
    assert.ok(scaledByD(q), 'q keeps its scale');
    assert.ok(!mayBeScaledByD(k), "k does not take q's scale");
    assert.deepEqual(
      q.axes?.map((a) => a.label),
      ['batch', 'head', 'seq', 'feat'],
    );
    assert.deepEqual([q.ndim, k.ndim, v.ndim], [4, 4, 3]);
  });

  it('evaluates a list comprehension over a zip of known tuples element by element', async () => {
    const src = `def f(q, k, v, D):
    scales = (D ** -0.5, 1.0, 1.0)
    q, k, v = [t * s for t, s in zip((q, k, v), scales)]
    return q, k
`;
    assert.ok(scaledByD(await valueOf(src, 'q')));
    assert.ok(!mayBeScaledByD(await valueOf(src, 'k')));
  });

  it('keeps the join where the elements a comprehension yields are not known (a filter, an unknown iterable)', async () => {
    const src = `def f(q, k, D, extra):
    q = q * D ** -0.5
    a, b = [t for t in (q, k) if t is not None]
    c, d = [t for t in extra]
    return a, b, c
`;
    // The filter may drop q: the second name may be q, so it may carry q's scale (and may not).
    const b = await valueOf(src, 'b');
    assert.ok(mayBeScaledByD(b) && !scaledByD(b));
    assert.equal((await valueOf(src, 'c')).ndim, undefined);
  });

  it('calls map over a tuple once per element, a bound method after its self, over several iterables in step', async () => {
    const src = `import torch.nn as nn
from einops import rearrange
class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
    def split_heads(self, t):
        b, n, _ = t.shape
        return t.view(b, n, self.heads, -1).transpose(1, 2)
    def forward(self, x, D):
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q = q * D ** -0.5
        q1, k1, v1 = map(self.split_heads, (q, k, v))
        q2, k2, v2 = map(lambda t: rearrange(t, 'b n (h d) -> b h n d', h=self.heads), (q, k, v))
        q3, k3 = map(lambda t, s: t * s, (k, v), (D ** -0.5, 1.0))
        return q1, k1, q2, k2, q3, k3
`;
    const [q1, k1, q2, k2, q3, k3] = await Promise.all(['q1', 'k1', 'q2', 'k2', 'q3', 'k3'].map((n) => valueOf(src, n)));
    assert.ok(scaledByD(q1) && !mayBeScaledByD(k1));
    assert.deepEqual([q1.ndim, k1.ndim], [4, 4]);
    assert.ok(scaledByD(q2) && !mayBeScaledByD(k2));
    assert.deepEqual(
      k2.axes?.map((a) => a.label),
      ['batch', 'head', 'seq', 'feat'],
    );
    assert.ok(scaledByD(q3) && !mayBeScaledByD(k3));
  });

  it('reads a value redefined from itself in a loop as its entry value or what the loop makes of it (shapes, scales)', async () => {
    const src = `def f(x, q, k, B, T, H, D, layers):
    x = x.view(B, T, H, D)
    for layer in layers:
        x = x.view(B, T, H, D)
    y = x
    h = x.view(B, T, H, D)
    for layer in layers:
        h = h.transpose(1, 2)
    z = h
    for layer in layers:
        s = q @ k.transpose(-2, -1)
        q = q * D ** -0.5
    return y, z, s, q
`;
    // A step that keeps the rank: the rank holds after the loop.
    assert.equal((await valueOf(src, 'y')).ndim, 4);
    // A step whose result depends on the loop-carried value (a transpose each pass): no layout is claimed.
    assert.equal((await valueOf(src, 'z')).axes, undefined);
    // Scaled in the loop: the scores before the scaling may be unscaled (first pass) or scaled (later passes).
    const s = await valueOf(src, 's');
    assert.ok(mayBeScaledByD(s) && !scaledByD(s));
    // After the loop q may be the entry value (no pass) or scaled.
    const q = await valueOf(src, 'q');
    assert.ok(mayBeScaledByD(q) && !scaledByD(q));
  });
});

describe('operand sources (what an operand of a product was made from)', () => {
  async function sourcesOf(src: string, productText: string): Promise<string[][]> {
    const parser = await createPythonParser(grammar());
    const tree = parser.parse(src, { full: true });
    const ev = new Evaluator(tree, analyseScopes(tree));
    let product: typeof tree.root | undefined;
    walk(tree.root, (n) => {
      if (src.slice(n.start, n.end) === productText && n.type === 'call') product = n;
    });
    assert.ok(product, `${productText} not found`);
    const p = product;
    const args = p.children.find((c) => c.type === 'argument_list')!;
    return args.children.filter((c) => c.type !== '(' && c.type !== ')' && c.type !== ',').map((o) => operandSources(ev, o, p));
  }

  it('looks through a layout function and through a name bound once to a rearrangement', async () => {
    const src = `import tensorflow as tf
def f(src, trg, other, w):
    trg_t = tf.transpose(trg, perm=[0, 2, 1])
    k_t = other.permute(0, 2, 1)
    proj = tf.reshape(src, [-1, 8])
    twice = other.permute(0, 2, 1)
    twice = w.permute(0, 2, 1)
    a = tf.matmul(src, tf.transpose(trg, perm=[0, 2, 1]))
    b = tf.matmul(proj, trg_t)
    c = tf.matmul(src, k_t)
    d = tf.matmul(src, twice)
    return a, b, c, d
`;
    assert.deepEqual(await sourcesOf(src, 'tf.matmul(src, tf.transpose(trg, perm=[0, 2, 1]))'), [['src'], ['trg']]);
    // proj is bound to a reshape (not a pure rearrangement of one tensor's axes): only its own name.
    assert.deepEqual(await sourcesOf(src, 'tf.matmul(proj, trg_t)'), [['proj'], ['trg_t', 'trg']]);
    assert.deepEqual(await sourcesOf(src, 'tf.matmul(src, k_t)'), [['src'], ['k_t', 'other']]);
    // Bound twice: which tensor it came from is not known.
    assert.deepEqual(await sourcesOf(src, 'tf.matmul(src, twice)'), [['src'], ['twice']]);
  });

  it('ignores bindings after the product, in nested functions, and names at module level', async () => {
    const src = `import torch
def f(src, trg):
    def inner():
        late = trg.permute(0, 2, 1)
        return late
    out = torch.bmm(src, late)
    late = trg.permute(0, 2, 1)
    return out
x = torch.bmm(a, b_t)
`;
    assert.deepEqual(await sourcesOf(src, 'torch.bmm(src, late)'), [['src'], ['late']]);
    assert.deepEqual(await sourcesOf(src, 'torch.bmm(a, b_t)'), [['a'], ['b_t']]);
  });
});

describe('the flag lattice (flags.ts)', () => {
  /** The values of the last occurrence of `exprText` in every context its function was evaluated in (default first). */
  async function valuesOf(src: string, exprText: string): Promise<AValue[]> {
    const parser = await createPythonParser(grammar());
    const tree = parser.parse(src, { full: true });
    const sr = analyseScopes(tree);
    const ev = new Evaluator(tree, sr);
    ev.run();
    let last: typeof tree.root | undefined;
    walk(tree.root, (n) => {
      if (src.slice(n.start, n.end) === exprText && n.type !== 'expression_statement') last = n;
    });
    assert.ok(last, `${exprText} not found`);
    const n = last;
    const scope = [...sr.scopes].reverse().find((s) => s.node.start <= n.start && n.end <= s.node.end && s.kind !== 'comprehension') ?? sr.module;
    const ctxs = ev.contextsOf(scope);
    if (ctxs.length === 0) ctxs.push(ev.defaultCtx(scope));
    return ctxs.map((c) => ev.eval(n, c));
  }
  const truths = (vs: readonly AValue[]): (boolean | undefined)[] => vs.map((v) => (v.kind === 'none' ? false : v.truth));

  it('knows literals, not, and/or (short circuit), and forgets what a join with None or an unknown leaves open', async () => {
    const src = `def f(x):
    a = not (True and False)
    b = x and False
    c = x or True
    d = x and True
    e = True if x else None
    return a, b, c, d, e
`;
    assert.deepEqual(truths(await valuesOf(src, 'a')), [true]);
    assert.deepEqual(truths(await valuesOf(src, 'b')), [false]);
    assert.deepEqual(truths(await valuesOf(src, 'c')), [true]);
    assert.deepEqual(truths(await valuesOf(src, 'd')), [undefined]);
    assert.deepEqual(truths(await valuesOf(src, 'e')), [undefined]);
  });

  it('reads a flag parameter as the caller passes it, its default only where a call leaves it out', async () => {
    const src = `def attend(q, causal=False):
    flag = causal
    return flag

def run(q):
    attend(q, causal=True)
    attend(q)
`;
    const [dflt, ...calls] = await valuesOf(src, 'flag');
    assert.equal(dflt?.truth, undefined, 'no caller in view: the default is no evidence');
    assert.deepEqual(dflt?.flagParam, { name: 'causal', default: false });
    assert.deepEqual(truths(calls).sort(), [false, true]);
    const t = calls.find((v) => v.truth === true);
    assert.equal(t?.setAt?.type, 'true', 'where the flag was set: the caller literal');
  });

  it('evaluates exists(mask) / mask is None in the caller context (None, a tensor, left out)', async () => {
    const src = `import torch
def exists(val):
    return val is not None

def attend(q, mask=None):
    e = exists(mask)
    n = mask is None
    return e, n

def run(q):
    attend(q, None)
    attend(q, torch.ones(4, 4))
    attend(q)
`;
    const es = await valuesOf(src, 'e');
    assert.equal(es[0]?.truth, undefined, 'a parameter with no caller in view may be None or not');
    assert.deepEqual(truths(es.slice(1)).sort(), [false, false, true]);
    const ns = await valuesOf(src, 'n');
    assert.deepEqual(truths(ns.slice(1)).sort(), [false, true, true]);
  });

  it('drops a definition in an if arm whose condition is known False in the context', async () => {
    const src = `def exists(val):
    return val is not None

def attend(q, mask=None):
    causal = True
    if exists(mask):
        causal = False
    return causal

def run(q):
    attend(q)
`;
    const [dflt, call] = await valuesOf(src, 'causal');
    assert.equal(dflt?.truth, undefined, 'either arm in the default context');
    assert.equal(call?.truth, true, 'the reset cannot run when the caller passes no mask');
  });

  it("reads self.causal as the constructor's argument where the module is built", async () => {
    const src = `import torch.nn as nn
class Attend(nn.Module):
    def __init__(self, causal=False):
        super().__init__()
        self.causal = causal
    def forward(self, q):
        c = self.causal
        return c

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.attend = Attend(causal=True)
    def forward(self, q):
        return self.attend(q)
`;
    const vs = await valuesOf(src, 'c');
    assert.equal(vs[0]?.truth, undefined);
    assert.ok(
      vs.slice(1).some((v) => v.truth === true),
      'True in the context of the module Block builds',
    );
  });
});
