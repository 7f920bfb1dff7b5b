// Session 33, prec-mask: a mask's meaning read from its name yields to what the workspace's own code stores under that
// name. Two additive-attention modules fill with one parameter, `encoder_padding_mask`, one as it is and one as
// `1 - mask`: one of the two is wrong, and PyTorch's convention for the name (True at padding) would blame the second.
// A features module of the same workspace stores the tokenizer's attention_mask (1 on tokens) under that name: the
// project does not follow the name's library convention, so the first fill is the bug (t26s-04-mask's class). Where
// the workspace stores masks of both meanings under the name, nothing is known: silence. Where it stores one that
// agrees with the name, the name (with the second use agreeing) decides as before; where it stores none, the name
// alone decides nothing at a fill (prec-mask36).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

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
    const lines = await workspaceFindingLines(
      { 'pg/attention.py': BUGGY, 'pg/features.py': tokenizerFeatures, 'pg/__init__.py': '' },
      'pg/attention.py',
      'ATT002',
    );
    assert.deepEqual(lines, [14]);
  });

  it('fixed: both fills read the keep mask the workspace stores the right way round: silent', async () => {
    const lines = await workspaceFindingLines(
      { 'pg/attention.py': FIXED, 'pg/features.py': tokenizerFeatures, 'pg/__init__.py': '' },
      'pg/attention.py',
      'ATT002',
    );
    assert.deepEqual(lines, []);
  });

  it('a collate in another directory stores `ids != PAD` (a keep mask) under the name, as a keyword of dict(): the plain fill', async () => {
    const collate = keepCollate.replace(
      'return {"input_ids": ids, "encoder_padding_mask": ids != PAD}',
      'return dict(input_ids=ids, encoder_padding_mask=ids != PAD)',
    );
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
    // No construction in view: the name alone, with another fill of the file agreeing, is no evidence (prec-mask36).
    assert.deepEqual(lines, []);
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

// A parameter's description that states only the kept positions' 0 beside a large negative value names an additive
// mask's values, not a 0/1 mask: "0 kept, -inf masked" on `scores + mask` is the additive mask done right.
const additiveAdded = (comment: string) =>
  `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, mask=None):
        b, n, d = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4)  # (B, H, N, hd)
        scores = q @ k.transpose(-2, -1) / (d // self.h) ** 0.5  # (B, H, N, N)
        if mask is not None:
            scores = scores + mask  # additive float mask: 0 kept, -inf masked
        attn = scores.softmax(dim=-1)
        return attn @ v

`.replace('# additive float mask: 0 kept, -inf masked', comment);

describe('prec-mask 34: descriptions of additive masks, and correct masks the name-free paths leave alone', () => {
  for (const comment of ['# additive float mask: 0 kept, -inf masked', '# mask: 0 kept, -1e9 masked', '# mask: 0 = valid, -10000 = padding']) {
    it(`\`scores + mask  ${comment}\`: an additive mask added to the scores, silent`, async () => {
      assert.deepEqual(await findingLines(additiveAdded(comment), 'ATT006'), []);
    });
  }

  it('a description stating a 0/1 mask ("1 kept, 0 masked") added to the scores is still reported (ATT006)', async () => {
    assert.deepEqual(await findingLines(additiveAdded('# mask: 1 kept, 0 masked'), 'ATT006'), [16]);
  });

  const correct: Record<string, string> = {
    'a Hugging Face attention_mask handed to a helper that turns it additive, `(1.0 - m) * finfo.min`': `import torch
import torch.nn as nn


def extend(attention_mask, dtype):
    # attention_mask: (B, S), 1 = token, 0 = padding (Hugging Face)
    ext = attention_mask[:, None, None, :].to(dtype)
    return (1.0 - ext) * torch.finfo(dtype).min


class SelfAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)

    def forward(self, x, attention_mask):
        b, n, d = x.shape
        q = self.q(x).view(b, n, self.h, -1).transpose(1, 2)  # (B, H, N, hd)
        k = self.k(x).view(b, n, self.h, -1).transpose(1, 2)
        v = self.v(x).view(b, n, self.h, -1).transpose(1, 2)
        scores = q @ k.transpose(-1, -2) / (d // self.h) ** 0.5
        scores = scores + extend(attention_mask, scores.dtype)
        return scores.softmax(-1) @ v


class Encoder(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.attn = SelfAttention(d, h)

    def forward(self, x, attention_mask):
        return self.attn(x, attention_mask)
`,
    'a keep mask and an additive bias built by `torch.where` from the padding comparison': `import torch
import torch.nn.functional as F


def attend(q, k, v, ids, pad_id):
    # q, k, v: (B, H, N, hd); ids: (B, N)
    keep = torch.where(ids == pad_id, 0, 1).bool()[:, None, None, :]  # True = token
    bias = torch.where(ids == pad_id, float("-inf"), 0.0)[:, None, None, :]
    scores = q @ k.transpose(-2, -1) * q.shape[-1] ** -0.5 + bias
    w = scores.softmax(-1)
    out1 = w @ v
    out2 = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
    return out1, out2
`,
    'key_padding_mask built as `src == pad_idx`, and the same name filled where True': `import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, vocab, d, h, pad_idx):
        super().__init__()
        self.pad_idx = pad_idx
        self.emb = nn.Embedding(vocab, d, padding_idx=pad_idx)
        self.mha = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, src):
        key_padding_mask = src == self.pad_idx  # (B, S) True at padding
        x = self.emb(src)
        out, _ = self.mha(x, x, x, key_padding_mask=key_padding_mask)
        return out

    def masked(self, x, key_padding_mask):
        scores = x @ x.transpose(1, 2)  # (B, S, S)
        scores = scores.masked_fill(key_padding_mask.unsqueeze(1), float("-inf"))
        return scores.softmax(-1) @ x
`,
    '`1 - mask` on a mask of unknown polarity (an additive fill and a masked_fill)': `import torch


def attention(q, k, v, mask):
    # q: (B, T, d), k, v: (B, S, d); mask: (B, 1, S)
    scores = torch.bmm(q, k.transpose(1, 2)) / q.size(-1) ** 0.5
    scores = scores - 1e9 * (1 - mask)
    w = torch.softmax(scores, dim=-1)
    return torch.bmm(w, v)


def attention2(q, k, v, mask):
    scores = torch.bmm(q, k.transpose(1, 2)) / q.size(-1) ** 0.5
    scores = scores.masked_fill(1 - mask, -1e9)
    w = torch.softmax(scores, dim=-1)
    return torch.bmm(w, v)
`,
  };
  for (const [what, src] of Object.entries(correct)) {
    it(`${what}: no ATT002, ATT006 or ATT007`, async () => {
      for (const code of ['ATT002', 'ATT006', 'ATT007']) assert.deepEqual(await findingLines(src, code), [], code);
    });
  }
});

// A trainer that imports torch.cuda.amp's GradScaler and autocast but never calls them trains in float32: the import
// names what the file may use, not what it runs. The fill of -1e9 in the model it imports is right there; once the
// trainer calls them (`GradScaler()`, `with autocast():`), the scores are float16 and -1e9 overflows (ATT007).
const fillModel = `import math
import torch
import torch.nn as nn


class Attention(nn.Module):
    def forward(self, q, k, v, mask=None):
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))  # (B, H, T, S)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e9)
        return torch.softmax(scores, dim=-1) @ v
`;

const trainer = (body: string) => `import torch
from torch.cuda.amp import GradScaler, autocast

from model import Attention


def train(loader, q, k, v):
    model = Attention()
${body}
`;

describe('prec-mask 34: half precision from an import alone', () => {
  it('GradScaler and autocast imported, never used: no half precision, no ATT007 in the model', async () => {
    const files = { 'model.py': fillModel, 'train.py': trainer('    for mask in loader:\n        out = model(q, k, v, mask)\n        out.sum().backward()') };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT007'), []);
  });

  it('the trainer calls them: the fill overflows float16 (ATT007)', async () => {
    const body =
      '    scaler = GradScaler()\n    for mask in loader:\n        with autocast():\n            out = model(q, k, v, mask)\n        scaler.scale(out.sum()).backward()';
    assert.deepEqual(await workspaceFindingLines({ 'model.py': fillModel, 'train.py': trainer(body) }, 'model.py', 'ATT007'), [10]);
  });

  it('`from apex import amp` without amp.initialize is no evidence either; with it, it is', async () => {
    const apex = (body: string) =>
      `from apex import amp\nfrom model import Attention\n\n\ndef train(opt, q, k, v, mask):\n    model = Attention()\n${body}\n    return model(q, k, v, mask)\n`;
    assert.deepEqual(await workspaceFindingLines({ 'model.py': fillModel, 'train.py': apex('    pass') }, 'model.py', 'ATT007'), []);
    const used = apex('    model, opt = amp.initialize(model, opt, opt_level="O1")');
    assert.deepEqual(await workspaceFindingLines({ 'model.py': fillModel, 'train.py': used }, 'model.py', 'ATT007'), [10]);
  });
});

// A bias or mask the forward makes with a factory given no dtype (`torch.zeros(B, 1, 1, T)`, `torch.ones(T, T)`) is
// float32 whatever precision the model runs in: autocast leaves factories alone and `.half()` converts parameters and
// buffers, not tensors a forward makes. -1e9 fits there, and added to float16 scores the sum is promoted to float32.
// A `*_like` of the scores, a factory given the scores' dtype, a conversion to it, and the scores themselves are half.
const amp = (lines: string) => `import torch
import torch.nn as nn


class Attn(nn.Module):
    def forward(self, q, k, v, pad):
        # q, k, v: (B, H, T, hd); pad: (B, T) True at padding
        T = q.size(-2)
        scores = q @ k.transpose(-2, -1) * q.size(-1) ** -0.5  # (B, H, T, T)
${lines}
        return scores.softmax(-1) @ v


def train(model, batches):
    scaler = torch.cuda.amp.GradScaler()
    for q, k, v, pad in batches:
        with torch.autocast("cuda"):
            out = model(q, k, v, pad)
        scaler.scale(out.sum()).backward()
`;

describe('prec-mask 34: fills of float32 factory tensors in half-precision code (ATT007)', () => {
  const silent: Record<string, string> = {
    'zeros filled where padded, added': `        bias = torch.zeros(q.size(0), 1, 1, T, device=q.device)
        bias = bias.masked_fill(pad[:, None, None, :], -1e9)
        scores = scores + bias`,
    'ones cut to the future triangle times -1e9, added': `        causal = torch.ones(T, T, device=q.device).triu(1) * -1e9
        scores = scores + causal`,
  };
  for (const [what, lines] of Object.entries(silent)) {
    it(`${what}: float32, silent`, async () => {
      assert.deepEqual(await findingLines(amp(lines), 'ATT007'), []);
    });
  }

  const reported: Record<string, [string, number]> = {
    'zeros_like of the scores filled with -1e9': [
      `        bias = torch.zeros_like(scores).masked_fill(pad[:, None, None, :], -1e9)
        scores = scores + bias`,
      10,
    ],
    'zeros given the scores dtype, filled with -1e9': [
      `        bias = torch.zeros(q.size(0), 1, 1, T, dtype=scores.dtype, device=q.device)
        bias = bias.masked_fill(pad[:, None, None, :], -1e9)
        scores = scores + bias`,
      11,
    ],
    // Session 37: converted to the scores' dtype, `triu(1)` (the diagonal kept) would be -inf only above the diagonal,
    // which empties no row (silent, att007-fp16-rows37); a triangle that hides the diagonal empties the first row.
    'ones triangle hiding the diagonal, converted to the scores dtype, times -1e9': [
      `        causal = torch.ones(T, T, device=q.device).triu().to(scores.dtype) * -1e9
        scores = scores + causal`,
      10,
    ],
    'the scores filled with -1e9': [`        scores = scores.masked_fill(pad[:, None, None, :], -1e9)`, 10],
  };
  for (const [what, [lines, line]] of Object.entries(reported)) {
    it(`${what}: half, ATT007`, async () => {
      assert.deepEqual(await findingLines(amp(lines), 'ATT007'), [line]);
    });
  }

  it('cross-file: the trainer in another file runs autocast; the model builds its bias with torch.zeros: silent, with zeros_like: ATT007', async () => {
    const model = (bias: string) => `import torch
import torch.nn as nn


class Attn(nn.Module):
    def forward(self, q, k, v, pad):
        scores = q @ k.transpose(-2, -1) * q.size(-1) ** -0.5  # (B, H, T, S)
        bias = ${bias}.masked_fill(pad[:, None, None, :], -1e9)
        return (scores + bias).softmax(-1) @ v
`;
    const train = `import torch
from model import Attn


def train(batches):
    model = Attn()
    scaler = torch.cuda.amp.GradScaler()
    for q, k, v, pad in batches:
        with torch.autocast("cuda"):
            out = model(q, k, v, pad)
        scaler.scale(out.sum()).backward()
`;
    assert.deepEqual(
      await workspaceFindingLines({ 'model.py': model('torch.zeros(pad.size(0), 1, 1, pad.size(1))'), 'train.py': train }, 'model.py', 'ATT007'),
      [],
    );
    assert.deepEqual(await workspaceFindingLines({ 'model.py': model('torch.zeros_like(scores)'), 'train.py': train }, 'model.py', 'ATT007'), [8]);
  });
});

describe("prec-mask 34: a library's mask keyword is a use, not the project's store", () => {
  it('a keep mask given to nn.MultiheadAttention as key_padding_mask is reported there, and does not silence the name elsewhere', async () => {
    const model = `import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.mha = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, x, ids, pad_id):
        out, _ = self.mha(x, x, x, key_padding_mask=ids != pad_id)
        return out
`;
    const other = BUGGY.replace(/encoder_padding_mask/g, 'key_padding_mask');
    const files = { 'net/block.py': model, 'net/attention.py': other };
    assert.deepEqual(await workspaceFindingLines(files, 'net/block.py', 'ATT002'), [11]);
    // The MHA use of another file stores nothing under the name; the name alone decides nothing here (prec-mask36).
    assert.deepEqual(await workspaceFindingLines(files, 'net/attention.py', 'ATT002'), []);
  });
});

describe('prec-mask 34: a local variable of another file is no store of the name', () => {
  it("`key_padding_mask = ids != PAD` inside another file's function (handed on by position) does not decide the name here", async () => {
    const other = `from attention import Attn

PAD = 0


def encode(model, enc_out, ids, s):
    key_padding_mask = ids != PAD  # True at tokens, a local name of this function
    return model(enc_out, key_padding_mask.float(), s)
`;
    const files = { 'net/run.py': other, 'net/attention.py': BUGGY.replace(/encoder_padding_mask/g, 'key_padding_mask') };
    // No store: the name alone, with another fill of the file agreeing, is no evidence (prec-mask36).
    assert.deepEqual(await workspaceFindingLines(files, 'net/attention.py', 'ATT002'), []);
    const collate = { ...files, 'net/collate.py': keepCollate.replace('"encoder_padding_mask"', '"key_padding_mask"') };
    assert.deepEqual(await workspaceFindingLines(collate, 'net/attention.py', 'ATT002'), [14]);
  });
});
