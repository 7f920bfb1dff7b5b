# case: t44ff-14-clean
# modelled-on: NewbieTed/relation-aware-slot-attention https://github.com/NewbieTed/relation-aware-slot-attention/commit/09afa4690c3d9ab403154c9afef096a3a884ea72
# label: correct
# class: clean
# pattern: a diffusers attention processor for layout-guided cross-attention: the keys are text tokens followed by object slots, a spatial bias `-exp(scale) * dist^2` between each query pixel and each slot's position is filled with -1e4 where `~slot_mask` (slot_mask True = a real object), written into the slot columns of a zero bias, added to the prepared attention mask, and the scores `q k^T / sqrt(head_dim)` plus that bias are softmaxed in float32 over the keys
# why: correct: slot_mask marks the objects that exist, so `~slot_mask` selects the padding slots that get the large negative bias (the text columns keep 0, so no row is empty); -1e4 is representable in half precision and the softmax runs in float32; the bias is additive before the softmax over the last (key) axis, and the scale is 1/sqrt(head_dim)
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/NewbieTed/relation-aware-slot-attention https://github.com/NewbieTed/relation-aware-slot-attention/commit/09afa4690c3d9ab403154c9afef096a3a884ea72 training/relation_attention.py
import math

import torch
import torch.nn as nn


def pixel_grid(batch, n_query, device):
    side = int(math.sqrt(n_query))
    h, w = (side, side) if side * side == n_query else (1, n_query)
    ys = torch.linspace(-1.0, 1.0, steps=h, device=device)
    xs = torch.linspace(-1.0, 1.0, steps=w, device=device)
    gy, gx = torch.meshgrid(ys, xs, indexing="ij")
    return torch.stack([gx, gy], dim=-1).reshape(1, h * w, 2).expand(batch, -1, -1)


class SlotBiasProcessor(nn.Module):
    def __init__(self, use_bias=True):
        super().__init__()
        self.use_bias = use_bias
        self.dist_scale = nn.Parameter(torch.tensor(2.0))
        self.slot_gain = nn.Parameter(torch.tensor(1.0))

    def __call__(self, attn, hidden, context=None, attention_mask=None, slot_xy=None, slot_mask=None, n_text=None):
        context = hidden if context is None else context
        b, n_keys, _ = context.shape
        n_query = hidden.shape[1]
        if attention_mask is not None:
            attention_mask = attn.prepare_attention_mask(attention_mask, n_keys, b)
            attention_mask = attention_mask.view(b, attn.heads, -1, attention_mask.shape[-1])
        q, k, v = attn.to_q(hidden), attn.to_k(context), attn.to_v(context)
        hd = k.shape[-1] // attn.heads
        q = q.view(b, -1, attn.heads, hd).transpose(1, 2)
        k = k.view(b, -1, attn.heads, hd).transpose(1, 2)
        v = v.view(b, -1, attn.heads, hd).transpose(1, 2)
        if self.use_bias and slot_xy is not None and slot_mask is not None and n_text is not None:
            n_slots = slot_xy.shape[1]
            dist2 = ((pixel_grid(b, n_query, q.device).unsqueeze(2) - slot_xy[..., :2].unsqueeze(1)) ** 2).sum(-1)
            slot_bias = (-self.dist_scale.exp() * dist2).masked_fill(~slot_mask.unsqueeze(1), -1e4)
            bias = torch.zeros(b, n_query, n_text + n_slots, device=q.device, dtype=q.dtype)
            bias[:, :, n_text:] = slot_bias.to(q.dtype) * self.slot_gain
            bias = bias.unsqueeze(1).expand(-1, attn.heads, -1, -1)
            attention_mask = bias if attention_mask is None else attention_mask + bias
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(hd)
        if attention_mask is not None:
            scores = scores + attention_mask
        probs = torch.softmax(scores.float(), dim=-1).to(q.dtype)
        out = torch.matmul(probs, v).transpose(1, 2).reshape(b, -1, attn.heads * hd)
        return attn.to_out[1](attn.to_out[0](out))
