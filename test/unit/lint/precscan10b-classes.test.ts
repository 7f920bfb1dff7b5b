// Classes of correct code read wrongly by the scale rule, found by the false-positive scan of session 30
// (test/lint-scan/results/2026-12-05-scan-precscan10b.md, speech-synthesis transformers written from scratch).
// Small examples written fresh, each with its buggy forms, which must still be reported.
//  1. ATT004: a fused projection split into heads whose head width is a constructor parameter of its own
//     (`nn.Linear(in_dim, 3 * head_dim * n_heads)`, `view(B, T, self.n_heads, 3 * self.head_dim)` then
//     `chunk(3, dim=-1)`), scaled by the input width (`math.sqrt(self.in_dim)`), where every construction of the
//     class the workspace shows passes the same value for both (`SelfAttention(d_model, d_model, n_heads)`): each
//     head is as wide as the input, so the scale is the head width's. Decided from the stated split (chunk(3) of an
//     axis of 3 * head_dim gives pieces head_dim wide) and from the constructions, in this file or in one importing
//     it; a narrower head (`d_model // n_heads`), a head width the class derives itself, or one construction that
//     differs keeps the finding.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const ATTN = `import math

import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, in_dim, head_dim, n_heads, dropout=0.1):
        super().__init__()
        self.in_dim = in_dim
        self.head_dim = head_dim
        self.n_heads = n_heads
        self.qkv = nn.Linear(in_dim, 3 * head_dim * n_heads)
        self.out = nn.Linear(head_dim * n_heads, in_dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, mask=None):
        B, T = x.shape[0], x.shape[1]
        qkv = self.qkv(x).view(B, T, self.n_heads, 3 * self.head_dim).transpose(1, 2)
        q, k, v = qkv.chunk(3, dim=-1)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.in_dim)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e9)
        attn = scores.softmax(dim=-1)
        y = torch.matmul(self.drop(attn), v).transpose(1, 2).reshape(B, T, -1)
        return self.out(y)
`;

const BLOCK = (args: string, extra = ''): string => `

class Block(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.1):
        super().__init__()
        self.attn = SelfAttention(${args})
        self.norm = nn.LayerNorm(d_model)${extra}

    def forward(self, x, mask=None):
        return self.norm(x + self.attn(x, mask))
`;

const MODEL = (args: string): string => `import torch.nn as nn

from attention import SelfAttention


class Encoder(nn.Module):
    def __init__(self, d_model=256, n_heads=2, n_layers=4):
        super().__init__()
        self.layers = nn.ModuleList([SelfAttention(${args}) for _ in range(n_layers)])

    def forward(self, x, mask=None):
        for layer in self.layers:
            x = x + layer(x, mask)
        return x
`;

describe('lint: a fused projection split into heads, each as wide as the input at every construction (ATT004)', () => {
  it('no construction in sight: the input width on per-head scores is reported', async () => {
    assert.deepEqual(await findingLines(ATTN, 'ATT004'), [21]);
  });
  it('every construction passes the same value for in_dim and head_dim: silent', async () => {
    assert.deepEqual(await findingLines(ATTN + BLOCK('d_model, d_model, n_heads, dropout'), 'ATT004'), []);
  });
  it('by keyword (SelfAttention(in_dim=d_model, head_dim=d_model, n_heads=n_heads)): silent', async () => {
    assert.deepEqual(await findingLines(ATTN + BLOCK('in_dim=d_model, head_dim=d_model, n_heads=n_heads'), 'ATT004'), []);
  });
  it('buggy: the head built narrower (d_model // n_heads) is reported', async () => {
    assert.deepEqual(await findingLines(ATTN + BLOCK('d_model, d_model // n_heads, n_heads, dropout'), 'ATT004'), [21]);
  });
  it('buggy: one construction of two passes a narrower head: reported', async () => {
    const extra = '\n        self.cross = SelfAttention(d_model, 64, n_heads, dropout)';
    assert.deepEqual(await findingLines(ATTN + BLOCK('d_model, d_model, n_heads, dropout', extra), 'ATT004'), [21]);
  });
  it('buggy: the class derives the head width itself (self.head_dim = in_dim // n_heads): reported', async () => {
    const derived = ATTN.replace('self.head_dim = head_dim', 'self.head_dim = in_dim // n_heads');
    assert.deepEqual(await findingLines(derived + BLOCK('d_model, d_model, n_heads, dropout'), 'ATT004'), [21]);
  });
  it('the split does not state the head width (view(B, T, self.n_heads, -1)): reported, as without the constructions', async () => {
    const unstated = ATTN.replace('3 * self.head_dim)', '-1)');
    assert.deepEqual(await findingLines(unstated + BLOCK('d_model, d_model, n_heads, dropout'), 'ATT004'), [21]);
  });
  it('cross-file: the encoder in another file builds SelfAttention(d_model, d_model, n_heads): silent', async () => {
    const files = { 'attention.py': ATTN, 'model.py': MODEL('d_model, d_model, n_heads') };
    assert.deepEqual(await workspaceFindingLines(files, 'attention.py', 'ATT004'), []);
  });
  it('cross-file, buggy: the encoder builds SelfAttention(d_model, d_model // n_heads, n_heads): reported', async () => {
    const files = { 'attention.py': ATTN, 'model.py': MODEL('d_model, d_model // n_heads, n_heads') };
    assert.deepEqual(await workspaceFindingLines(files, 'attention.py', 'ATT004'), [21]);
  });
});
