# case: t23p-05-clean
# modelled-on: attilad/learning-clip-from-scratch https://github.com/attilad/learning-clip-from-scratch/commit/d7187e3487e287c2f03f85bd3fc9b0ad307d0a1e
# label: correct
# class: clean
# pattern: a LoRA drop-in for a pretrained CLIP's nn.MultiheadAttention: the frozen packed in_proj_weight is sliced into W_q, W_k, W_v, low-rank deltas are added to q and v, heads are split with view(...).transpose(1, 2), and F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask) is called with whatever mask the block passes; the text tower in another module builds CLIP's causal mask as an additive float matrix (-inf above the diagonal, zero elsewhere) and passes it as attn_mask; the image tower passes none
# why: correct: SDPA adds a float attn_mask to the scores, so the additive causal matrix blocks exactly the future tokens (its polarity is right for a float mask, unlike a boolean one), the mask's shape (L, L) broadcasts over batch and heads, and SDPA applies the 1/sqrt(head_dim) scale itself, which is the scale the frozen weights were trained with; no is_causal flag is needed since the mask carries the causality
# looks-like: ATT002, ATT003, ATT008
# source: https://github.com/attilad/learning-clip-from-scratch https://github.com/attilad/learning-clip-from-scratch/commit/d7187e3487e287c2f03f85bd3fc9b0ad307d0a1e src/adapt.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRAAttention(nn.Module):
    """nn.MultiheadAttention (batch-first) with trainable low-rank deltas on the query and value projections."""

    def __init__(self, original: nn.MultiheadAttention, rank: int = 4):
        super().__init__()
        self.embed_dim = original.embed_dim
        self.num_heads = original.num_heads
        self.head_dim = self.embed_dim // self.num_heads
        self.scaling = 1.0 / rank
        self.in_proj_weight = original.in_proj_weight
        self.in_proj_bias = original.in_proj_bias
        self.out_proj = original.out_proj
        for p in [self.in_proj_weight, self.in_proj_bias, *self.out_proj.parameters()]:
            p.requires_grad = False
        dev, dt = original.in_proj_weight.device, original.in_proj_weight.dtype
        self.q_a = nn.Parameter(torch.empty(rank, self.embed_dim, device=dev, dtype=dt))
        self.q_b = nn.Parameter(torch.zeros(self.embed_dim, rank, device=dev, dtype=dt))
        self.v_a = nn.Parameter(torch.empty(rank, self.embed_dim, device=dev, dtype=dt))
        self.v_b = nn.Parameter(torch.zeros(self.embed_dim, rank, device=dev, dtype=dt))
        nn.init.kaiming_uniform_(self.q_a)
        nn.init.kaiming_uniform_(self.v_a)

    def forward(self, query, key, value, need_weights=False, attn_mask=None):
        d = self.embed_dim
        w_q, w_k, w_v = self.in_proj_weight[:d], self.in_proj_weight[d : 2 * d], self.in_proj_weight[2 * d :]
        b_q, b_k, b_v = self.in_proj_bias[:d], self.in_proj_bias[d : 2 * d], self.in_proj_bias[2 * d :]
        q = F.linear(query, w_q, b_q) + F.linear(query, self.q_b @ self.q_a) * self.scaling
        k = F.linear(key, w_k, b_k)
        v = F.linear(value, w_v, b_v) + F.linear(value, self.v_b @ self.v_a) * self.scaling

        b, n_q, _ = q.shape
        n_kv = k.shape[1]
        q = q.view(b, n_q, self.num_heads, self.head_dim).transpose(1, 2)
        k = k.view(b, n_kv, self.num_heads, self.head_dim).transpose(1, 2)
        v = v.view(b, n_kv, self.num_heads, self.head_dim).transpose(1, 2)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
        out = out.transpose(1, 2).contiguous().view(b, n_q, d)
        return self.out_proj(out), None


def apply_lora(model: nn.Module, rank: int = 4) -> int:
    for p in model.parameters():
        p.requires_grad = False
    n = 0
    for module in model.modules():
        if hasattr(module, "attn") and isinstance(module.attn, nn.MultiheadAttention):
            module.attn = LoRAAttention(module.attn, rank=rank)
            n += 1
    return n
