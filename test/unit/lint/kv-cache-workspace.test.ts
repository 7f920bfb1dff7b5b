// Cross-file pairs for ATT008: keys kept by a class of another file that extends them by concatenation
// (a KV cache whatever it is called), read by an attention module here with is_causal=True (buggy) or a
// bottom-right aligned mask (fixed). For ATT002: a padding-mask helper of another file built with each of the
// forms real code uses, read by nn.MultiheadAttention and SDPA; and a helper whose meaning only its callers
// know (an additive conversion of a mask parameter), judged in its own file as the files importing it call it.
import { strict as assert } from 'node:assert';
import { createLinter, type ExtendedLinter, type Finding } from '../../../src/lint';
import { grammar, KV_STORE_PY, kvStoreModelPy, memoryWorkspace as workspace } from './helpers';

async function workspaceLinter(files: Record<string, string>): Promise<ExtendedLinter> {
  return createLinter(grammar(), { workspace: workspace(files), onInternalError: (e) => assert.fail(String(e)) });
}

const codes = (fs: readonly Finding[]): string[] => fs.map((f) => `${f.code}@${f.line}`);

describe('workspace: a KV cache kept by a class of another file', () => {
  const STORE = KV_STORE_PY;
  const model = kvStoreModelPy;

  it('is_causal=True on the keys it returns: buggy (links the concatenation in store.py); a bottom-right mask: fixed', async () => {
    const buggy = model('        return F.scaled_dot_product_attention(q, k, v, is_causal=True)');
    const l = await workspaceLinter({ 'store.py': STORE, 'model.py': buggy });
    const fs = l.lintPython(buggy, { path: 'model.py' });
    assert.deepEqual(codes(fs), ['ATT008@14']);
    const fixed = model(`        L, S = q.size(-2), k.size(-2)
        keep = torch.ones(L, S, dtype=torch.bool, device=q.device).tril(diagonal=S - L)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=keep)`);
    assert.deepEqual(codes((await workspaceLinter({ 'store.py': STORE, 'model.py': fixed })).lintPython(fixed, { path: 'model.py' })), []);
  });

  it('without the store writing its concatenation back there is no cache, and nothing to report', async () => {
    const noState = STORE.replace('self.k = torch.cat([self.k, k], dim=2)', 'k2 = torch.cat([self.k, k], dim=2)').replace(
      'return self.k, self.v',
      'return k, v',
    );
    const src = model('        return F.scaled_dot_product_attention(q, k, v, is_causal=True)');
    assert.deepEqual(codes((await workspaceLinter({ 'store.py': noState, 'model.py': src })).lintPython(src, { path: 'model.py' })), []);
  });
});

describe('workspace: padding masks built by a helper of another file, in the forms real code uses', () => {
  // Each helper returns a mask that is True at padding (ignore) or True at real tokens (keep).
  const IGNORE = [
    'ids == pad_id',
    'ids.data.eq(pad_id)',
    'ids.ne(pad_id).logical_not()',
    '1 - (ids != pad_id).long()',
    'torch.arange(ids.size(1), device=ids.device)[None, :] >= lengths[:, None]',
    '~(torch.arange(ids.size(1), device=ids.device)[None, :] < lengths[:, None])',
  ];
  const KEEP = [
    '(ids != pad_id).long().bool()',
    '(ids != pad_id).to(torch.float32)',
    'ids.ne(pad_id)',
    'torch.arange(ids.size(1))[None, :] < lengths[:, None]',
  ];
  const masks = (expr: string) => `import torch


def build(ids, lengths=None, pad_id=0):
    return ${expr}
`;
  const MODEL = `import torch.nn as nn
import torch.nn.functional as F
from masks import build


class Encoder(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.mha = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, x, ids, lengths):
        a, _ = self.mha(x, x, x, key_padding_mask=build(ids, lengths))
        return a

    def attend(self, q, k, v, ids, lengths):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=build(ids, lengths)[:, None, None, :].bool())
`;
  it('an ignore mask is right for key_padding_mask and wrong for SDPA; a keep mask the other way round', async () => {
    for (const expr of IGNORE) {
      const l = await workspaceLinter({ 'masks.py': masks(expr), 'model.py': MODEL });
      const fs = l.lintPython(MODEL, { path: 'model.py' });
      assert.deepEqual(codes(fs), ['ATT002@16'], expr);
      assert.match(fs[0].message, /masks\.py:5/, expr);
    }
    for (const expr of KEEP) {
      const l = await workspaceLinter({ 'masks.py': masks(expr), 'model.py': MODEL });
      assert.deepEqual(codes(l.lintPython(MODEL, { path: 'model.py' })), ['ATT002@12'], expr);
    }
  });
});

describe('workspace: a mask helper judged as the files importing it call it', () => {
  const UTILS = (bias: string) => `import torch


def extended_bias(attention_mask, dtype):
    ext = attention_mask[:, None, None, :].to(dtype)
    return ${bias}
`;
  const MODEL = (mask: string) => `import torch
from utils import extended_bias


def attend(q, k, v, input_ids, pad_id):
    mask = ${mask}
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    scores = scores + extended_bias(mask, scores.dtype)
    return torch.softmax(scores, dim=-1) @ v
`;
  async function lintUtils(bias: string, mask: string): Promise<Finding[]> {
    const files = { 'utils.py': UTILS(bias), 'model.py': MODEL(mask) };
    return (await workspaceLinter(files)).lintPython(files['utils.py'], { path: 'utils.py' });
  }

  it('a keep mask from the caller multiplied by the large negative value: buggy in utils.py (names model.py); (1 - m) fixed', async () => {
    const fs = await lintUtils('ext * torch.finfo(dtype).min', '(input_ids != pad_id).long()');
    assert.deepEqual(codes(fs), ['ATT002@6']);
    assert.match(fs[0].message, /model\.py:8/);
    assert.deepEqual(
      fs[0].related?.filter((r) => r.path !== undefined).map((r) => [r.path, r.line]),
      [['model.py', 8]],
    );
    assert.deepEqual(await lintUtils('(1.0 - ext) * torch.finfo(dtype).min', '(input_ids != pad_id).long()'), []);
  });

  it('the caller decides: the same helper given a mask that is True at padding is right', async () => {
    assert.deepEqual(await lintUtils('ext * torch.finfo(dtype).min', '(input_ids == pad_id).long()'), []);
    assert.deepEqual(codes(await lintUtils('(1.0 - ext) * torch.finfo(dtype).min', '(input_ids == pad_id).long()')), ['ATT002@6']);
  });

  it('alone (no file imports it), the helper says nothing about its parameter: silent', async () => {
    const files = { 'utils.py': UTILS('ext * torch.finfo(dtype).min') };
    assert.deepEqual((await workspaceLinter(files)).lintPython(files['utils.py'], { path: 'utils.py' }), []);
  });
});

describe("workspace: a module's forward judged as the files importing it call the instance", () => {
  const MODEL = `import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.mha = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, x, pad_mask):
        y, _ = self.mha(x, x, x, key_padding_mask=pad_mask)
        return y
`;
  const TRAIN = (mask: string) => `from model import Encoder


def run(emb, ids, pad_id):
    model = Encoder(64, 4)
    mask = ${mask}
    return model(emb(ids), mask)
`;
  async function lintModel(mask: string): Promise<Finding[]> {
    return (await workspaceLinter({ 'model.py': MODEL, 'train.py': TRAIN(mask) })).lintPython(MODEL, { path: 'model.py' });
  }

  it('the caller passes a keep mask to key_padding_mask: buggy in model.py (names train.py); an ignore mask: fixed', async () => {
    const fs = await lintModel('ids != pad_id');
    assert.deepEqual(codes(fs), ['ATT002@10']);
    assert.match(fs[0].message, /train\.py:7/);
    assert.deepEqual(await lintModel('ids == pad_id'), []);
    assert.deepEqual(await lintModel('~(ids != pad_id)'), []);
  });

  it('a namesake class defined in the caller is not this one: silent', async () => {
    const files = {
      'model.py': MODEL,
      'train.py': TRAIN('ids != pad_id').replace('from model import Encoder', 'import torch.nn as nn\n\n\nclass Encoder(nn.Module):\n    pass'),
    };
    assert.deepEqual((await workspaceLinter(files)).lintPython(MODEL, { path: 'model.py' }), []);
  });
});

describe('workspace: a padding mask built in a collate function, through the DataLoader and the training loop', () => {
  const MODEL = `import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.mha = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, x, pad_mask):
        y, _ = self.mha(x, x, x, key_padding_mask=pad_mask)
        return y
`;
  const DATA = (cmp: string) => `from torch.nn.utils.rnn import pad_sequence


def collate(batch, pad_id=0):
    ids = pad_sequence([item["ids"] for item in batch], batch_first=True, padding_value=pad_id)
    mask = ids ${cmp} pad_id
    return ids, mask
`;
  const TRAIN = `from torch.utils.data import DataLoader
from data import collate
from model import Encoder


def train(dataset, emb):
    model = Encoder(64, 4)
    loader = DataLoader(dataset, batch_size=16, shuffle=True, collate_fn=collate)
    for ids, mask in loader:
        model(emb(ids), mask).sum().backward()
`;
  async function lintModel(cmp: string): Promise<Finding[]> {
    return (await workspaceLinter({ 'model.py': MODEL, 'data.py': DATA(cmp), 'train.py': TRAIN })).lintPython(MODEL, { path: 'model.py' });
  }

  it('collate builds a keep mask for key_padding_mask: buggy in model.py (names data.py and train.py); True at padding: fixed', async () => {
    const fs = await lintModel('!=');
    assert.deepEqual(codes(fs), ['ATT002@10']);
    assert.match(fs[0].message, /data\.py:6.*train\.py:10/);
    assert.deepEqual(await lintModel('=='), []);
  });
});

describe('workspace: keys joined with a cache in the file that calls the attention module', () => {
  const ATTEND = `import torch.nn.functional as F
from torch import nn


class Attend(nn.Module):
    def __init__(self, causal=False):
        super().__init__()
        self.causal = causal

    def forward(self, q, k, v):
        # q: (b, h, i, d); k, v: (b, h, j, d)
        return F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)
`;
  const BLOCK = (join: string) => `import torch
from torch import nn

from attend import Attend


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, dim * 3, bias=False)
        self.attend = Attend(causal=True)

    def forward(self, x, cache=None):
        b, n, _ = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.heads, -1).permute(2, 0, 3, 1, 4)  # each (b, h, n, d)
        if cache is not None:
            ck, cv = cache
${join}
        out = self.attend(q, k, v)
        return out.transpose(1, 2).reshape(b, n, -1), (k, v)
`;

  it("the related location of the cache is the importer's torch.cat, in that file", async () => {
    const block = BLOCK('            k = torch.cat((ck, k), dim=-2)\n            v = torch.cat((cv, v), dim=-2)');
    const fs = (await workspaceLinter({ 'attend.py': ATTEND, 'block.py': block })).lintPython(ATTEND, { path: 'attend.py' });
    assert.deepEqual(codes(fs), ['ATT008@12']);
    assert.match(fs[0].message, /block\.py:21/);
    const cacheAt = fs[0].related?.find((r) => /include the KV cache/.test(r.message));
    assert.deepEqual([cacheAt?.path, cacheAt?.line], ['block.py', 19]);
    assert.match(cacheAt?.message ?? '', /torch\.cat\(\(ck, k\), dim=-2\)/);
  });

  it('a cache that only stores the new keys (they are not joined) leaves the lengths equal: silent', async () => {
    const block = BLOCK('            cache = (k, v)');
    assert.deepEqual(codes((await workspaceLinter({ 'attend.py': ATTEND, 'block.py': block })).lintPython(ATTEND, { path: 'attend.py' })), []);
  });
});
