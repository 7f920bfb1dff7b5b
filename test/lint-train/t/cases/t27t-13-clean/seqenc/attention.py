# case: t27t-13-clean
# modelled-on: olezha223/SASRec_HSE_project https://github.com/olezha223/SASRec_HSE_project/commit/d3ad4355dfb03d613f3a8d07ce30560e6f1b45b7
# label: correct
# class: clean
# pattern: a GPT-style user encoder over listening histories: a helper module right-pads the flattened histories and returns a bool mask it calls padding_mask, True at valid elements; the attention turns it around (padding_mask = ~mask), fills a zero float (B, 1, S, S) tensor with -inf where padding_mask[:, None, None, :] and where triu(ones, 1) are True, and hands that additive mask to F.scaled_dot_product_attention(attn_mask=...); a test compares the module with a reference that gives SDPA the bool keep mask mask & tril and, on the fallback path, fills masked_fill(~am, -inf)
# why: correct: the helper's mask is True on valid elements whatever its local name, so ~mask is True on padding and the -inf fill lands on padded keys and on future keys; a float mask is added to the scores by SDPA, and this one is 0 where attention is allowed; with right padding and the causal mask every query keeps key 0 (a real item), so no row is all -inf; the test reference uses SDPA's boolean convention (True = attend) and its inverse for masked_fill, both right
# looks-like: ATT002, ATT007
# source: https://github.com/olezha223/SASRec_HSE_project https://github.com/olezha223/SASRec_HSE_project/commit/d3ad4355dfb03d613f3a8d07ce30560e6f1b45b7 src/nn/attention.py
import torch
import torch.nn.functional as F
from torch import nn


class CausalSelfAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.0):
        super().__init__()
        self.d_model, self.n_heads, self.dropout = d_model, n_heads, dropout
        self.head_dim = d_model // n_heads
        self.W = nn.Linear(d_model, 3 * d_model, bias=False)
        self.final_proj = nn.Linear(d_model, d_model, bias=False)

    def _build_mask(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        B, S, _ = x.shape
        padding_mask = ~mask
        padding_mask = padding_mask[:, None, None, :]  # (B, 1, 1, S)
        causal_mask = torch.triu(torch.ones(S, S, dtype=torch.bool, device=x.device), diagonal=1)[None, None]
        combined = torch.zeros(B, 1, S, S, device=x.device)
        combined = combined.masked_fill(padding_mask, float("-inf"))
        combined = combined.masked_fill(causal_mask, float("-inf"))
        return combined  # additive: 0 = attend, -inf = blocked

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        B, S, D = x.shape
        q, k, v = self.W(x).reshape(B, S, 3, self.n_heads, self.head_dim).unbind(dim=2)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)  # (B, H, S, hd)
        out = F.scaled_dot_product_attention(
            q, k, v,
            attn_mask=self._build_mask(x, mask),
            dropout_p=self.dropout if self.training else 0.0,
        )
        return self.final_proj(out.transpose(1, 2).reshape(B, S, D))
