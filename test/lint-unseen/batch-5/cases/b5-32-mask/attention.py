# case: b5-32-mask
# modelled-on: so-dev000/llm-from-scratch https://github.com/so-dev000/llm-from-scratch/commit/86b14f08297e627a45f05a32efc520c75344f5a2
# label: buggy
# class: real-bug
# pattern: a LLaMA-style grouped-query attention that moved from hand-written scores to F.scaled_dot_product_attention: it reshapes a 2-D or 3-D mask to 4-D and "ensures the mask dtype matches the query dtype" with .to(dtype=q.dtype) before passing it as attn_mask with is_causal=False; the Lightning module in another file builds the mask as a boolean tril(ones) causal mask & the padding mask of the keys and of the queries (True = may attend), and the model passes it down unchanged
# why: SDPA reads a boolean attn_mask as "True = take part" but adds a floating-point attn_mask to the scores: after the cast the allowed positions get +1.0 and the hidden ones +0.0, so nothing is masked and every token attends to the tokens after it during training; no fix was found (the repository's current code), and the label rests on PyTorch's documented mask semantics and on the training step's own causal mask
# source: https://github.com/so-dev000/llm-from-scratch https://github.com/so-dev000/llm-from-scratch/commit/86b14f08297e627a45f05a32efc520c75344f5a2 component/attention.py
import torch
import torch.nn.functional as F
from torch import nn


class GroupedAttention(nn.Module):
    def __init__(self, model_dim: int, num_heads: int, num_kv_heads: int, dropout: float = 0.0):
        super().__init__()
        self.num_heads = num_heads
        self.num_kv_heads = num_kv_heads
        self.head_dim = model_dim // num_heads
        self.per_kv = num_heads // num_kv_heads
        self.wq = nn.Linear(model_dim, num_heads * self.head_dim, bias=False)
        self.wk = nn.Linear(model_dim, num_kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(model_dim, num_kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(num_heads * self.head_dim, model_dim, bias=False)
        self.dropout_p = dropout

    def forward(self, x: torch.Tensor, mask: torch.Tensor = None) -> torch.Tensor:
        b, n, _ = x.shape
        q = self.wq(x).view(b, n, self.num_heads, self.head_dim)
        k = self.wk(x).view(b, n, self.num_kv_heads, self.head_dim)
        v = self.wv(x).view(b, n, self.num_kv_heads, self.head_dim)
        k = k.repeat_interleave(self.per_kv, dim=2)
        v = v.repeat_interleave(self.per_kv, dim=2)
        # (b, n, heads, head_dim) -> (b, heads, n, head_dim)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        attn_mask = None
        if mask is not None:
            if mask.dim() == 2:
                attn_mask = mask.unsqueeze(0).unsqueeze(0)  # (1, 1, n, n)
            elif mask.dim() == 3:
                attn_mask = mask.unsqueeze(1)  # (b, 1, n, n)
            else:
                attn_mask = mask
            # make the mask's dtype match the queries
            attn_mask = attn_mask.to(dtype=q.dtype)
        out = F.scaled_dot_product_attention(
            q,
            k,
            v,
            attn_mask=attn_mask,  # expect: ATT002
            dropout_p=self.dropout_p if self.training else 0.0,
            is_causal=False,
        )
        out = out.transpose(1, 2).contiguous().view(b, n, -1)
        return self.wo(out)
