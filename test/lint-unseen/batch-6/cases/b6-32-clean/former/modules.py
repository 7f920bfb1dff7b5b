# case: b6-32-clean
# modelled-on: DemoVersion/transformer-from-scratch https://github.com/DemoVersion/transformer-from-scratch/commit/80ab94788727b7ee3f61ddd41b92df7b72782ddd
# label: correct
# class: clean
# pattern: a GPT-2-style self-attention written to match the Hugging Face port: a fused c_attn projection split into query, key and value, split_heads permutes keys straight to (batch, head, head_features, seq) with is_key=True and the others to (batch, head, seq, head_features), _attn takes torch.matmul(q, k) with the already-transposed keys, divides by sqrt(v.size(-1)) (the head width), applies an in-place causal mask helper from a util module (triu_indices with offset 1, filled with -inf) and softmaxes with an nn.Softmax(dim=-1) built inline
# why: correct: the keys are transposed by split_heads, so matmul(q, k) is Q K^T; v.size(-1) equals the key head width, so the scale is 1/sqrt(d_head); the helper fills only i < j (mask_diagonal=False), the future keys, before the softmax over the last axis
# looks-like: ATT002, ATT004, ATT005, ATT006
# source: https://github.com/DemoVersion/transformer-from-scratch https://github.com/DemoVersion/transformer-from-scratch/commit/80ab94788727b7ee3f61ddd41b92df7b72782ddd former/modules.py
import torch
from torch import nn

from .util import mask_


class SelfAttentionGPT2(nn.Module):
    """Self-attention as in the Hugging Face port of GPT-2, for comparison with the canonical implementation."""

    def __init__(self, emb, heads, mask=False):
        super().__init__()
        self.nheads = heads
        self.emb = emb
        self.mask = mask
        self.c_attn = nn.Linear(emb, 3 * emb)
        self.c_proj = nn.Linear(emb, emb)

    def _attn(self, q, k, v):
        dot = torch.matmul(q, k)  # raw attention weights
        dot = dot / (float(v.size(-1)) ** 0.5)  # scaled attention weights
        if self.mask:
            mask_(dot, maskval=float("-inf"), mask_diagonal=False)
        dot = nn.Softmax(dim=-1)(dot)  # normalized attention weights
        return torch.matmul(dot, v)

    def merge_heads(self, x):
        x = x.permute(0, 2, 1, 3).contiguous()
        return x.view(*x.size()[:-2], x.size(-2) * x.size(-1))

    def split_heads(self, x, is_key=False):
        x = x.view(*x.size()[:-1], self.nheads, x.size(-1) // self.nheads)
        if is_key:
            return x.permute(0, 2, 3, 1)  # (batch, head, head_features, seq_length)
        return x.permute(0, 2, 1, 3)  # (batch, head, seq_length, head_features)

    def forward(self, input_sequence):
        b, t, e = input_sequence.size()
        query, key, value = self.c_attn(input_sequence).split(e, dim=2)
        a = self._attn(self.split_heads(query), self.split_heads(key, is_key=True), self.split_heads(value))
        return self.c_proj(self.merge_heads(a))
