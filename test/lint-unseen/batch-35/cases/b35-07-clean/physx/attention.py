# case: b35-07-clean
# modelled-on: zabaras/transformer-physx https://github.com/zabaras/transformer-physx/commit/88bb0a5b952f8947c0e8f92037d4596bc4bd6b22
# label: correct
# class: clean
# pattern: the self-attention of a physics surrogate transformer (Koopman embeddings of Lorenz / cylinder-flow / Gray-Scott states, predicted autoregressively), adapted from GPT-2: the keys are split straight into (batch, head, features, seq) so scores are q @ k with no transpose, cached keys are stored transposed back and concatenated on the last axis, the scores are divided by sqrt(v.size(-1)) when scale is set (every block sets it), a registered 0/1 buffer (tril, or tril plus a block diagonal over the patches of one time step, clamped to 1) is sliced [ns - nd : ns, :ns] and applied with torch.where(mask.bool(), w, -1e4), an optional additive mask is added, and nn.Softmax(dim=-1) normalises; the head mask multiplies the weights after the softmax
# why: correct: split_heads(k=True) already permutes the keys to (batch, head, features, seq), so q @ k is q @ k^T; the buffer is 1 where a step may attend (its past, itself and, in block mode, the patches of its own time step), and torch.where keeps w there; slicing rows ns - nd .. ns aligns the nd new queries with the end of the ns keys, so cached decoding stays causal; v.size(-1) is the per-head width; -1e4 is PyTorch GPT-2's masked_bias, far below the scores in float32; the head mask is a documented per-head gate after the softmax, not a key mask
# looks-like: ATT002, ATT004, ATT005, ATT006, ATT007, ATT008
# source: https://github.com/zabaras/transformer-physx https://github.com/zabaras/transformer-physx/commit/88bb0a5b952f8947c0e8f92037d4596bc4bd6b22 trphysx/transformer/attention.py
from typing import List, Optional

import torch
import torch.nn as nn

from .conv1d import Conv1D


class EmbeddingSelfAttention(nn.Module):
    def __init__(self, nx: int, n_ctx: int, n_head: int, n_patches: int = 1, scale: bool = False,
                 mask: str = "tril", attn_pdrop: float = 0.0, resid_pdrop: float = 0.0) -> None:
        super().__init__()
        assert nx % n_head == 0
        lower = torch.tril(torch.ones((n_ctx, n_ctx), dtype=torch.uint8))
        if mask == "tril":
            allowed = lower
        elif mask == "block":  # a time step's patches also see each other
            same_step = torch.block_diag(*[torch.ones((n_patches, n_patches), dtype=torch.uint8)] * (n_ctx // n_patches))
            allowed = (lower + same_step).clamp(0, 1)
        else:
            raise ValueError(f"Unsupported mask type {mask}")
        self.register_buffer("bias", allowed.view(1, 1, n_ctx, n_ctx))
        self.register_buffer("masked_bias", torch.tensor(-1e4))
        self.n_head, self.split_size, self.scale = n_head, nx, scale
        self.c_attn, self.c_proj = Conv1D(3 * nx, nx), Conv1D(nx, nx)
        self.attn_dropout, self.resid_dropout = nn.Dropout(attn_pdrop), nn.Dropout(resid_pdrop)

    def split_heads(self, x: torch.Tensor, is_key: bool = False) -> torch.Tensor:
        x = x.view(*x.size()[:-1], self.n_head, x.size(-1) // self.n_head)
        # keys go straight to (batch, head, features, seq)
        return x.permute(0, 2, 3, 1) if is_key else x.permute(0, 2, 1, 3)

    def merge_heads(self, x: torch.Tensor) -> torch.Tensor:
        x = x.permute(0, 2, 1, 3).contiguous()
        return x.view(*x.size()[:-2], x.size(-2) * x.size(-1))

    def _attend(self, q, k, v, attention_mask=None, head_mask=None):
        w = torch.matmul(q, k)
        if self.scale:
            w = w / (float(v.size(-1)) ** 0.5)
        nd, ns = w.size(-2), w.size(-1)
        causal = self.bias[:, :, ns - nd: ns, :ns]
        w = torch.where(causal.bool(), w, self.masked_bias.to(w.dtype))
        if attention_mask is not None:
            w = w + attention_mask
        w = self.attn_dropout(nn.Softmax(dim=-1)(w))
        if head_mask is not None:
            w = w * head_mask
        return torch.matmul(w, v), w

    def forward(self, x: torch.Tensor, layer_past: Optional[torch.Tensor] = None, attention_mask=None,
                head_mask=None, use_cache: bool = False) -> List[torch.Tensor]:
        query, key, value = self.c_attn(x).split(self.split_size, dim=2)
        query, key, value = self.split_heads(query), self.split_heads(key, is_key=True), self.split_heads(value)
        if layer_past is not None:
            past_key, past_value = layer_past[0].transpose(-2, -1), layer_past[1]
            key = torch.cat((past_key, key), dim=-1)
            value = torch.cat((past_value, value), dim=-2)
        present = torch.stack((key.transpose(-2, -1), value)) if use_cache else None
        out, _ = self._attend(query, key, value, attention_mask, head_mask)
        out = self.resid_dropout(self.c_proj(self.merge_heads(out)))
        return [out, present]


class Block(nn.Module):
    def __init__(self, n_ctx: int, nx: int, n_head: int, scale: bool = True) -> None:
        super().__init__()
        self.ln_1, self.ln_2 = nn.LayerNorm(nx), nn.LayerNorm(nx)
        self.attn = EmbeddingSelfAttention(nx, n_ctx, n_head, scale=scale)
        self.mlp = nn.Sequential(Conv1D(4 * nx, nx), nn.GELU(), Conv1D(nx, 4 * nx))

    def forward(self, x, layer_past=None, use_cache=False):
        a, present = self.attn(self.ln_1(x), layer_past=layer_past, use_cache=use_cache)
        x = x + a
        return x + self.mlp(self.ln_2(x)), present
