// A bias parameter added to the scores (`scores + attn_bias`) is a position bias or an additive mask according to how
// the callers build it, not to its name: an additive mask (zeros filled with -inf where a padding or causal mask is
// True) masks the scores before the softmax, so zeroing the same rows of the weights after it only cleans them
// (no ATT006); a position bias (ALiBi distances) masks nothing, so zeroing after the softmax leaves rows that do not
// sum to 1 (ATT006). With no caller in view nothing says which, and nothing is claimed. Same-file callers and a
// cross-file pair (the caller in a file that imports the attention function).
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { grammar, linter, memoryWorkspace } from './helpers';

const ATTENTION = `import math
import torch


def attention(q, k, v, attn_bias, pad):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)) + attn_bias
    weights = scores.softmax(dim=-1)
    weights = weights.masked_fill(pad, 0.0)
    return weights @ v
`;

const PADDING_BIAS = `pad = (ids == 0)[:, None, None, :]
    bias = torch.zeros(pad.shape).masked_fill(pad, float("-inf"))`;
const CAUSAL_BIAS = `pad = (ids == 0)[:, None, None, :]
    causal = torch.triu(torch.ones(q.size(-2), q.size(-2), dtype=torch.bool), diagonal=1)
    bias = torch.zeros(causal.shape).masked_fill(causal, float("-inf"))`;
const ALIBI_BIAS = `pad = (ids == 0)[:, None, None, :]
    pos = torch.arange(q.size(-2))
    bias = slopes[:, None, None] * (pos[None, :] - pos[:, None]).abs().neg()`;

const caller = (build: string) => `

def run(q, k, v, ids, slopes):
    ${build}
    return attention(q, k, v, bias, pad)
`;

async function att006(source: string): Promise<string[]> {
  return (await linter()).lintPython(source, { select: ['ATT006'] }).map((f) => `${f.line} ${f.code}`);
}

describe('a bias added to the scores is read from its construction, not its name', () => {
  it('no caller in view: nothing says whether attn_bias masks, nothing is reported', async () => {
    assert.deepEqual(await att006(ATTENTION), []);
  });

  it('a caller builds it as a padding mask (zeros filled with -inf): the scores are masked, silent', async () => {
    assert.deepEqual(await att006(ATTENTION + caller(PADDING_BIAS)), []);
  });

  it('a caller builds it from a causal triangle: masked causally only, so the padded keys zeroed after are reported', async () => {
    // leftovers30: the bias masks no padded key; zeroing them after the softmax (a key mask, another mask) leaves
    // rows that do not sum to 1.
    assert.deepEqual(await att006(ATTENTION + caller(CAUSAL_BIAS)), ['8 ATT006']);
  });
  it('a caller builds it from a causal triangle and the same triangle is zeroed after: silent', async () => {
    const src = ATTENTION + caller(CAUSAL_BIAS).replace('return attention(q, k, v, bias, pad)', 'return attention(q, k, v, bias, causal)');
    assert.deepEqual(await att006(src), []);
  });

  it('a caller builds it as a position bias (ALiBi): the weights masked after the softmax are reported', async () => {
    assert.deepEqual(await att006(ATTENTION + caller(ALIBI_BIAS)), ['8 ATT006']);
  });

  it('a parameter named as a position bias stays a position bias with no caller in view', async () => {
    assert.deepEqual(await att006(ATTENTION.replace(/attn_bias/g, 'position_bias')), ['8 ATT006']);
  });

  it('an unshown bias is no evidence of a mask: a bare `scores + attn_bias` is not a discarded mask', async () => {
    const src = `import math
import torch


def attention(q, k, v, attn_bias):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores + attn_bias
    return torch.softmax(scores, dim=-1) @ v
`;
    assert.deepEqual((await linter()).lintPython(src, { select: ['ATT007'] }), []);
  });

  it('an unshown bias beside a 0/1 product: the product is still the only mask, reported', async () => {
    const src = `import math
import torch


def attention(q, k, v, attn_bias, ids):
    keep = (ids != 0)[:, None, None, :].float()
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores = scores * keep + attn_bias
    return torch.softmax(scores, dim=-1) @ v
`;
    assert.deepEqual(await att006(src), ['8 ATT006']);
  });

  describe('cross-file: the caller in a file that imports the attention function', () => {
    async function lintAttention(build: string): Promise<string[]> {
      const run = `import torch
from attn import attention
${caller(build)}`;
      const files = { 'attn.py': ATTENTION, 'run.py': run };
      const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
      return l.lintPython(files['attn.py'], { path: 'attn.py', select: ['ATT006'] }).map((f) => `${f.line} ${f.code}`);
    }

    it('built there as a padding mask: silent', async () => {
      assert.deepEqual(await lintAttention(PADDING_BIAS), []);
    });

    it('built there as a position bias: reported here', async () => {
      assert.deepEqual(await lintAttention(ALIBI_BIAS), ['8 ATT006']);
    });
  });
});
