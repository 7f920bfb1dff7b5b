// Session 33, prec-mask: a mask's meaning read from its name yields to what the workspace's own code stores under that
// name. Two additive-attention modules fill with one parameter, `encoder_padding_mask`, one as it is and one as
// `1 - mask`: one of the two is wrong, and PyTorch's convention for the name (True at padding) would blame the second.
// A features module of the same workspace stores the tokenizer's attention_mask (1 on tokens) under that name: the
// project does not follow the name's library convention, so the first fill is the bug (t26s-04-mask's class). Where
// the workspace stores masks of both meanings under the name, nothing is known: silence. Where it stores one that
// agrees with the name, or none, the name (with the second use agreeing) decides as before.
import { strict as assert } from 'node:assert';
import { workspaceFindingLines } from './helpers';

// Two modules of one file reading the same parameter, one fill as it is, one as `1 - mask`.
// scores: (B, L, 1); encoder_padding_mask: (B, L) -> (B, L, 1); softmax over the source positions (dim=1).
const attention = (plain: string, inverted: string) => `import torch
import torch.nn as nn


class AttnWithCoverage(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.W = nn.Linear(hidden, hidden)
        self.v = nn.Linear(hidden, 1, bias=False)

    def forward(self, enc_out, encoder_padding_mask, s):
        encoder_padding_mask = encoder_padding_mask.unsqueeze(2)  # (B, L, 1)
        scores = self.v(torch.tanh(self.W(enc_out) + s.unsqueeze(1)))  # (B, L, 1)
        scores = scores.masked_fill(${plain}, float("-inf"))
        return torch.softmax(scores, dim=1)


class Attn(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.W = nn.Linear(hidden, hidden)
        self.v = nn.Linear(hidden, 1, bias=False)

    def forward(self, enc_out, encoder_padding_mask, s):
        encoder_padding_mask = encoder_padding_mask.unsqueeze(2)  # (B, L, 1)
        scores = self.v(torch.tanh(self.W(enc_out) + s.unsqueeze(1)))  # (B, L, 1)
        scores = scores.masked_fill(${inverted}, float("-inf"))
        return torch.softmax(scores, dim=1)
`;

const BUGGY = attention('encoder_padding_mask', '1 - encoder_padding_mask');
const FIXED = attention('encoder_padding_mask == 0', '1 - encoder_padding_mask');

// A features module storing the tokenizer's mask (1 on tokens, 0 on padding) under the padding name.
const tokenizerFeatures = `class Features:
    def __init__(self, tokenizer):
        self.tokenizer = tokenizer

    def encode(self, articles):
        enc = self.tokenizer(articles, padding="longest", return_tensors="pt")
        return {"input_ids": enc["input_ids"], "encoder_padding_mask": enc["attention_mask"]}
`;

// A collate function storing a comparison with the padding id: True at padding, the name's own convention.
const paddingCollate = `import torch

PAD = 0


def collate(batch):
    ids = torch.nn.utils.rnn.pad_sequence(batch, batch_first=True, padding_value=PAD)
    return {"input_ids": ids, "encoder_padding_mask": ids == PAD}
`;

const keepCollate = paddingCollate.replace('ids == PAD', 'ids != PAD');

describe('prec-mask 34: a mask name read as the workspace stores it', () => {
  it("the workspace stores the tokenizer's keep mask under the padding name: the plain fill is the bug, `1 - mask` is right", async () => {
    const lines = await workspaceFindingLines({ 'pg/attention.py': BUGGY, 'pg/features.py': tokenizerFeatures, 'pg/__init__.py': '' }, 'pg/attention.py', 'ATT002');
    assert.deepEqual(lines, [14]);
  });

  it('fixed: both fills read the keep mask the workspace stores the right way round: silent', async () => {
    const lines = await workspaceFindingLines({ 'pg/attention.py': FIXED, 'pg/features.py': tokenizerFeatures, 'pg/__init__.py': '' }, 'pg/attention.py', 'ATT002');
    assert.deepEqual(lines, []);
  });

  it('a collate in another directory stores `ids != PAD` (a keep mask) under the name, as a keyword of dict(): the plain fill', async () => {
    const collate = keepCollate.replace('return {"input_ids": ids, "encoder_padding_mask": ids != PAD}', 'return dict(input_ids=ids, encoder_padding_mask=ids != PAD)');
    const lines = await workspaceFindingLines({ 'model/attention.py': BUGGY, 'data/collate.py': collate }, 'model/attention.py', 'ATT002');
    assert.deepEqual(lines, [14]);
  });

  it("the workspace stores a padding comparison (the name's own convention) under it: the `1 - mask` fill, as before", async () => {
    const lines = await workspaceFindingLines({ 'model/attention.py': BUGGY, 'model/collate.py': paddingCollate }, 'model/attention.py', 'ATT002');
    assert.deepEqual(lines, [27]);
  });

  it('the workspace stores masks of both meanings under the name: nothing is known, silent', async () => {
    const both = paddingCollate + '\n\ndef collate_eval(batch):\n    ids = torch.stack(batch)\n    return {"encoder_padding_mask": ids.ne(PAD)}\n';
    const lines = await workspaceFindingLines({ 'model/attention.py': BUGGY, 'model/collate.py': both }, 'model/attention.py', 'ATT002');
    assert.deepEqual(lines, []);
  });

  it('the keep mask stored, but only one fill reads the name (no second use says which reading the code follows): silent', async () => {
    const single = BUGGY.slice(0, BUGGY.indexOf('\n\nclass Attn(')) + '\n';
    const lines = await workspaceFindingLines({ 'pg/attention.py': single, 'pg/features.py': tokenizerFeatures }, 'pg/attention.py', 'ATT002');
    assert.deepEqual(lines, []);
  });

  it('stores that pass the name on (`encoder_padding_mask=encoder_padding_mask`) or read a batch of unknown origin by key show nothing: as with no store', async () => {
    const passOn = `from attention import Attn


def step(model, batch, enc_out, s, encoder_padding_mask):
    out = model(enc_out, encoder_padding_mask=encoder_padding_mask, s=s)
    feats = {"encoder_padding_mask": batch["attention_mask"]}
    return out, feats
`;
    const lines = await workspaceFindingLines({ 'attention.py': BUGGY, 'train.py': passOn }, 'attention.py', 'ATT002');
    // No construction in view: the name's convention with the second fill agreeing, as before this change.
    assert.deepEqual(lines, [27]);
  });

  it('a library parameter: a collate stores a keep mask under `key_padding_mask`; the MultiheadAttention use is the bug, not the SDPA one', async () => {
    const model = `import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.mha = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, x, key_padding_mask):
        out, _ = self.mha(x, x, x, key_padding_mask=key_padding_mask)
        return out


class FastBlock(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.h = h

    def forward(self, x, key_padding_mask):
        b, n, d = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4)  # each (B, H, N, hd)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=key_padding_mask[:, None, None, :])
`;
    const collate = keepCollate.replace('"encoder_padding_mask"', '"key_padding_mask"');
    const keepStored = await workspaceFindingLines({ 'net/model.py': model, 'net/collate.py': collate }, 'net/model.py', 'ATT002');
    assert.deepEqual(keepStored, [12]);
    const padStored = await workspaceFindingLines(
      { 'net/model.py': model, 'net/collate.py': paddingCollate.replace('"encoder_padding_mask"', '"key_padding_mask"') },
      'net/model.py',
      'ATT002',
    );
    assert.deepEqual(padStored, [25]);
  });
});
