// Session 35, prec-mask35: four classes of correct code that ATT002 and ATT007 reported from a guess, found on HF
// transformers 5.12.1 (whose masks match their checkpoints):
//  1. ATT002: a triangle whose diagonal is a band's or a window's edge (`tril(ones, diagonal=past - window - 1)`, HF's
//     sliding-window mask: the keys too far back, filled on purpose), a literal two or more keys off the main diagonal,
//     or an offset whose sign the code does not show, says neither keep nor ignore. A non-negative offset (`past_length`,
//     `past_length + 1`) still gives the causal side, and `S - L` the bottom-right alignment.
//  2. ATT002: an additive reading assumed for a mask of unknown meaning added to zeros (`bias = zeros + attention_mask`,
//     pix2struct) is no construction: `1 - bias` and `bias == 1` are not read as a flipped additive mask.
//  3. ATT002: pairwise scores filled and returned unread (a global pointer's span logits, scored by a loss) are attention
//     scores only where a softmax of the file, or of an importing file calling the function, normalises them.
//  4. ATT007: one product read in both directions (grounding-dino's bi-attention: `w.transpose(1, 2)` softmaxed over the
//     axis the operands call the queries) is judged along the axis its softmax normalises.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

// scores: (B, H, T, S); a (T, S) boolean mask filled where True.
const fillWith = (maskLines: string, params = 'self, q, k, v') => `import torch
import torch.nn as nn


class Attention(nn.Module):
    def forward(${params}):
        T, S = q.size(-2), k.size(-2)
        scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5  # (B, H, T, S)
${maskLines}
        scores = scores.masked_fill(hide, torch.finfo(scores.dtype).min)
        return torch.softmax(scores, dim=-1) @ v
`;

describe('prec-mask35 1. ATT002: a triangle whose diagonal is a band or window edge', () => {
  it('the natural bug, tril(ones) filled where True (the past hidden): reported', async () => {
    assert.deepEqual(await findingLines(fillWith('        hide = torch.tril(torch.ones(T, S, dtype=torch.bool))'), 'ATT002'), [10]);
  });
  it('fixed: triu(ones, diagonal=1) filled: silent', async () => {
    assert.deepEqual(await findingLines(fillWith('        hide = torch.triu(torch.ones(T, S, dtype=torch.bool), diagonal=1)'), 'ATT002'), []);
  });
  it("HF's sliding window, tril with diagonal = past - window - 1 (the keys too far back), filled: silent", async () => {
    const src = fillWith(
      '        diagonal = past - window - 1\n        hide = torch.tril(torch.ones(T, S, dtype=torch.bool), diagonal=diagonal)',
      'self, q, k, v, past=0, window=4096',
    );
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
    const inline = fillWith('        hide = torch.tril(torch.ones(T, S, dtype=torch.bool), diagonal=past - window)', 'self, q, k, v, past=0, window=8');
    assert.deepEqual(await findingLines(inline, 'ATT002'), []);
  });
  it('a literal band edge, tril(ones, -4) filled and triu(ones, 3) to SDPA, and a parameter defaulting to -2: silent', async () => {
    assert.deepEqual(await findingLines(fillWith('        hide = torch.tril(torch.ones(T, S, dtype=torch.bool), -4)'), 'ATT002'), []);
    assert.deepEqual(
      await findingLines(fillWith('        hide = torch.tril(torch.ones(T, S, dtype=torch.bool), diagonal=d)', 'self, q, k, v, d=-2'), 'ATT002'),
      [],
    );
    const sdpa = `import torch
import torch.nn.functional as F


def attend(q, k, v):
    T, S = q.size(-2), k.size(-2)
    band = torch.triu(torch.ones(T, S, dtype=torch.bool), 3)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=band)
`;
    assert.deepEqual(await findingLines(sdpa, 'ATT002'), []);
  });
  it('an offset known non-negative keeps the causal side: triu(diagonal=past_length + 1) given to SDPA as keep is reported', async () => {
    const src = `import torch
import torch.nn.functional as F


def attend(q, k, v, past_length=0):
    T, S = q.size(-2), k.size(-2)
    future = torch.triu(torch.ones(T, S, dtype=torch.bool), diagonal=past_length + 1)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=future)
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), [8]);
    assert.deepEqual(await findingLines(src.replace('torch.triu(', 'torch.tril(').replace('past_length + 1', 'past_length'), 'ATT002'), []);
  });
  it('cross-file: a helper building the window edge in another file is silent; one building tril(ones) is reported', async () => {
    const model = `import torch
import torch.nn as nn

from masks import far_keys


class Attention(nn.Module):
    def forward(self, q, k, v):
        scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5  # (B, H, T, S)
        hide = far_keys(q.size(-2), k.size(-2), 64)
        scores = scores.masked_fill(hide, float("-inf"))
        return torch.softmax(scores, dim=-1) @ v
`;
    const edge = `import torch


def far_keys(t, s, window, start=0):
    return torch.tril(torch.ones(t, s, dtype=torch.bool), diagonal=start - window)
`;
    assert.deepEqual(await workspaceFindingLines({ 'model.py': model, 'masks.py': edge }, 'model.py', 'ATT002'), []);
    const causal = edge.replace('diagonal=start - window', 'diagonal=start');
    assert.deepEqual(await workspaceFindingLines({ 'model.py': model, 'masks.py': causal }, 'model.py', 'ATT002'), [11]);
  });
});

// pix2struct's vision attention: a (B, S) 0/1 mask added to zeros, flipped with `1 - bias`, filled where it is 1.
const pix2struct = (callerMask: string) => `import torch
from torch import nn


class VisionAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.n_heads = h
        self.query = nn.Linear(d, d)
        self.key = nn.Linear(d, d)

    def forward(self, x, attention_mask=None, position_bias=None):
        b, n, _ = x.shape
        q = self.query(x).view(b, n, self.n_heads, -1).transpose(1, 2)  # (b, h, n, dh)
        k = self.key(x).view(b, n, self.n_heads, -1).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(3, 2)) / q.size(-1) ** 0.5  # (b, h, n, n)
        if position_bias is None:
            position_bias = torch.zeros((1, self.n_heads, n, n), dtype=scores.dtype)
            if attention_mask.dim() == 2:
                position_bias = position_bias + attention_mask[:, None, None, :]
            else:
                attention_mask = torch.ones((b, n), dtype=position_bias.dtype)
                position_bias = position_bias + attention_mask
            position_bias = 1 - position_bias
        scores = scores + position_bias.masked_fill(position_bias == 1, torch.finfo(scores.dtype).min)
        return torch.softmax(scores, dim=-1)


class VisionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = VisionAttention(64, 8)

    def forward(self, patches, attention_mask=None):
        if attention_mask is None:
            attention_mask = ${callerMask}
        return self.attn(patches, attention_mask)
`;

describe('prec-mask35 2. ATT002: an additive reading assumed for a mask added to zeros', () => {
  it("pix2struct's form with the caller's keep mask (patches that are not all zero): silent", async () => {
    assert.deepEqual(await findingLines(pix2struct('(patches.sum(dim=-1) != 0).float()'), 'ATT002'), []);
  });
  it('the attention alone, its mask a parameter no caller in view passes: silent (main read it as additive and flipped)', async () => {
    const alone = pix2struct('None').split('\n\nclass VisionModel')[0] ?? '';
    assert.ok(alone.includes('position_bias == 1') && !alone.includes('VisionModel'));
    assert.deepEqual(await findingLines(alone, 'ATT002'), []);
  });
  it('a mask additive by construction read as 0/1 (`bias.bool()` to SDPA) is still reported', async () => {
    const src = `import torch
import torch.nn.functional as F


def attend(q, k, v, ids, pad_id=0):
    keep = (ids != pad_id).float()[:, None, None, :]
    bias = (1.0 - keep) * -10000.0
    return F.scaled_dot_product_attention(q, k, v, attn_mask=bias.bool())
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), [8]);
  });
});

// A global pointer: span logits over (start, end) pairs, the lower triangle filled, returned for a loss.
const pointer = (tail: string) => `import torch
from torch import nn


class GlobalPointer(nn.Module):
    def __init__(self, hidden, head_size):
        super().__init__()
        self.head_size = head_size
        self.dense = nn.Linear(hidden, head_size * 2)

    def forward(self, x):
        b, n, _ = x.shape
        q, k = torch.unbind(self.dense(x).reshape(b, n, 2, self.head_size), dim=2)
        logits = (q @ k.transpose(-2, -1)) / (self.head_size**0.5)  # (b, n, n)
        lower = torch.tril(torch.ones(n, n, device=logits.device)).bool()
${tail}
`;

const HELPER = `import torch


def masked_scores(q, k):
    n = q.size(-2)
    scores = (q @ k.transpose(-2, -1)) / (q.size(-1) ** 0.5)  # (b, n, n)
    keep = torch.tril(torch.ones(n, n, device=q.device)).bool()
    scores = scores.masked_fill(keep, float("-inf"))
    return scores
`;

describe('prec-mask35 3. ATT002: scores filled and returned unread', () => {
  it('a global pointer filling its lower triangle and returning the logits (bound or returned directly): silent', async () => {
    assert.deepEqual(await findingLines(pointer('        logits = logits.masked_fill(lower.unsqueeze(0), -1e4)\n        return logits'), 'ATT002'), []);
    assert.deepEqual(await findingLines(pointer('        return logits.masked_fill(lower.unsqueeze(0), -1e4)'), 'ATT002'), []);
    assert.deepEqual(await findingLines(pointer('        logits.masked_fill_(lower.unsqueeze(0), -1e4)\n        return logits'), 'ATT002'), []);
  });
  it('the same logits softmaxed in the function: reported', async () => {
    const src = pointer('        logits = logits.masked_fill(lower.unsqueeze(0), -1e4)\n        return torch.softmax(logits, dim=-1)');
    assert.deepEqual(await findingLines(src, 'ATT002'), [16]);
  });
  it('a helper returning masked scores to a caller of the file that softmaxes them: reported', async () => {
    const src = `${HELPER}

def attend(q, k, v):
    return torch.softmax(masked_scores(q, k), dim=-1) @ v
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), [8]);
  });
  it('cross-file: reported where an importing file calls the helper and takes a softmax; silent where it only returns them', async () => {
    const model = `import torch

from scores import masked_scores


def attend(q, k, v):
    w = torch.softmax(masked_scores(q, k), dim=-1)
    return w @ v
`;
    assert.deepEqual(await workspaceFindingLines({ 'scores.py': HELPER, 'model.py': model }, 'scores.py', 'ATT002'), [8]);
    const head = `from scores import masked_scores


def span_logits(q, k):
    return masked_scores(q, k)
`;
    assert.deepEqual(await workspaceFindingLines({ 'scores.py': HELPER, 'head.py': head }, 'scores.py', 'ATT002'), []);
  });
});

// grounding-dino's bi-attention: one product (B*H, N_img, N_txt), transposed for the text queries over the image keys.
const biAttention = (maskLine: string) => `import torch
from torch import nn


class BiAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.num_heads = h
        self.head_dim = d // h
        self.v_proj = nn.Linear(d, d)
        self.l_proj = nn.Linear(d, d)

    def forward(self, vision, text, vision_mask, text_mask):
        b, n_img, _ = vision.shape
        q = self.v_proj(vision).view(b * self.num_heads, n_img, self.head_dim) * self.head_dim**-0.5
        k = self.l_proj(text).view(b * self.num_heads, -1, self.head_dim)
        attn = torch.bmm(q, k.transpose(1, 2))  # (B*H, N_img, N_txt)
        text_attn = attn.transpose(1, 2)  # (B*H, N_txt, N_img): text queries over image keys
${maskLine}
        return text_attn.softmax(dim=-1)


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = BiAttention(64, 8)

    def forward(self, vision, text, key_padding_mask, text_padding_mask):
        return self.attn(vision, text, key_padding_mask, text_padding_mask)
`;

describe('prec-mask35 4. ATT007: a product read in both directions', () => {
  it("the image padding over the text queries' keys, filled with -inf: silent (every text row keeps its real image keys)", async () => {
    const line = '        m = vision_mask[:, None, None, :].repeat(1, self.num_heads, 1, 1).flatten(0, 1)\n        text_attn.masked_fill_(m, float("-inf"))';
    assert.deepEqual(await findingLines(biAttention(line), 'ATT007'), []);
  });
  it('the text padding spread over the text queries (rows), filled with -inf: reported (padded rows all -inf)', async () => {
    const line = '        m = text_mask[:, None, :, None].repeat(1, self.num_heads, 1, 1).flatten(0, 1)\n        text_attn.masked_fill_(m, float("-inf"))';
    assert.deepEqual(await findingLines(biAttention(line), 'ATT007'), [20]);
  });
  it('ordinary scores with the padding spread over the queries stay reported', async () => {
    const src = `import torch


def attend(q, k, v, pad_mask):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5  # (B, H, T, T)
    scores = scores.masked_fill(pad_mask[:, None, :, None], float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
`;
    assert.deepEqual(await findingLines(src, 'ATT007'), [6]);
  });
});

// torchscale's (fairseq-style) attention: an incremental state joins the cached keys; a flash path substitutes
// xformers' top-left LowerTriangularMask for the causal mask the decoder passes, taken only when one is passed.
const torchscale = (cond: string) => `import torch
import xformers.ops as xops


def attend(q, k, v, incremental_state=None, attn_mask=None, use_flash=True):
    # q: (B*H, L, D); k, v: (B*H, S, D) with the cached keys first
    if incremental_state is not None:
        if "prev_key" in incremental_state:
            k = torch.cat([incremental_state["prev_key"], k], dim=1)
            v = torch.cat([incremental_state["prev_value"], v], dim=1)
        incremental_state["prev_key"] = k
        incremental_state["prev_value"] = v
    if ${cond}:
        return xops.memory_efficient_attention(q, k, v, xops.LowerTriangularMask())
    w = torch.softmax(torch.bmm(q, k.transpose(1, 2)) / q.size(-1) ** 0.5, dim=-1)
    return torch.bmm(w, v)
`;

describe('prec-mask35 5. ATT008: a top-left causal object taken only where the caller passes its own mask', () => {
  it('the natural bug, the object on every flash call with the cache joined: reported', async () => {
    assert.deepEqual(await findingLines(torchscale('use_flash'), 'ATT008'), [14]);
  });
  it("torchscale's form, the flash path only when the decoder passes attn_mask (never read there): silent", async () => {
    assert.deepEqual(await findingLines(torchscale('use_flash and attn_mask is not None'), 'ATT008'), []);
    assert.deepEqual(await findingLines(torchscale('not (attn_mask is None or not use_flash)'), 'ATT008'), []);
  });
  it('the path taken where no mask is passed (the decoding steps pass none), or under an `or`: reported', async () => {
    assert.deepEqual(await findingLines(torchscale('use_flash and attn_mask is None'), 'ATT008'), [14]);
    assert.deepEqual(await findingLines(torchscale('use_flash or attn_mask is not None'), 'ATT008'), [14]);
  });
});
