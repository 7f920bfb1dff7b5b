# case: t34aa-02-mask
# modelled-on: timotheegath/gpt-from-scratch-arena1.1 https://github.com/timotheegath/gpt-from-scratch-arena1.1/commit/39eb887c1142fe9db413449b1f23cdb92578ad11
# label: correct
# class: fixed
# pattern: the same GPT-2 exercise after the fix: per-head weight tensors (n_heads, d_model, d_head) applied by broadcasting matmuls to (batch, heads, posn, d_head) q/k/v, scores `q @ k.transpose(2, 3)` divided by `torch.sqrt(Tensor([d_head]))`, the causal mask made in a separate method from `triu(ones(Tq, Tk), diagonal=1).bool()` and filled with a registered -inf buffer, then `torch.softmax(masked, 3)` with the dim given positionally, and the heads summed through W_O
# why: correct: the mask is True strictly above the diagonal (the future) as masked_fill expects; the -inf fill is a float32 buffer and no row is fully masked (the diagonal is always kept); dim 3 of the 4-D scores is the key axis (positional dim, not a missing one); the scale is 1/sqrt(d_head) computed as a one-element tensor; transpose(2, 3) of 4-D keys is the last two axes; the output sums the per-head projections over dim 1, as GPT-2's concatenation followed by W_O does
# looks-like: ATT001, ATT002, ATT003, ATT005, ATT007
# source: https://github.com/timotheegath/gpt-from-scratch-arena1.1 https://github.com/timotheegath/gpt-from-scratch-arena1.1/commit/39eb887c1142fe9db413449b1f23cdb92578ad11 custom_transformer.py
from dataclasses import dataclass

import torch as t
import torch.nn as nn
from jaxtyping import Float
from torch import Tensor

device = t.device("cuda" if t.cuda.is_available() else "cpu")


@dataclass
class Config:
    d_model: int = 768
    layer_norm_eps: float = 1e-5
    d_vocab: int = 50257
    init_range: float = 0.02
    n_ctx: int = 1024
    d_head: int = 64
    d_mlp: int = 3072
    n_heads: int = 12
    n_layers: int = 12


class Attention(nn.Module):
    NEG: Float[Tensor, ""]

    def __init__(self, cfg: Config):
        super().__init__()
        self.cfg = cfg
        self.W_Q = nn.Parameter(t.empty((cfg.n_heads, cfg.d_model, cfg.d_head)))
        self.W_K = nn.Parameter(t.empty((cfg.n_heads, cfg.d_model, cfg.d_head)))
        self.W_V = nn.Parameter(t.empty((cfg.n_heads, cfg.d_model, cfg.d_head)))
        self.W_O = nn.Parameter(t.empty((cfg.n_heads, cfg.d_head, cfg.d_model)))
        self.b_Q = nn.Parameter(t.zeros((cfg.n_heads, cfg.d_head)))
        self.b_K = nn.Parameter(t.zeros((cfg.n_heads, cfg.d_head)))
        self.b_V = nn.Parameter(t.zeros((cfg.n_heads, cfg.d_head)))
        self.b_O = nn.Parameter(t.zeros(cfg.d_model))
        for w in (self.W_Q, self.W_K, self.W_V, self.W_O):
            nn.init.normal_(w, std=cfg.init_range)
        self.register_buffer("NEG", t.tensor(float("-inf"), dtype=t.float32, device=device))

    def forward(self, resid: Float[Tensor, "batch posn d_model"]) -> Float[Tensor, "batch posn d_model"]:
        x = resid.unsqueeze(1)  # (batch, 1, posn, d_model) against (1, heads, d_model, d_head)
        q = t.matmul(x, self.W_Q.unsqueeze(0)) + self.b_Q.unsqueeze(0).unsqueeze(2)
        k = t.matmul(x, self.W_K.unsqueeze(0)) + self.b_K.unsqueeze(0).unsqueeze(2)
        v = t.matmul(x, self.W_V.unsqueeze(0)) + self.b_V.unsqueeze(0).unsqueeze(2)
        # (batch, heads, posn_q, posn_k)
        scores = t.matmul(q, k.transpose(2, 3))
        scores = scores / t.sqrt(Tensor([self.cfg.d_head]).to(device).to(t.float))
        masked = self.apply_causal_mask(scores)
        pattern = t.softmax(masked, 3)
        z = t.matmul(pattern, v)  # (batch, heads, posn, d_head)
        return t.matmul(z, self.W_O).sum(dim=1) + self.b_O

    def apply_causal_mask(
        self,
        scores: Float[Tensor, "batch n_heads query_pos key_pos"],
    ) -> Float[Tensor, "batch n_heads query_pos key_pos"]:
        """Masks the scores of the keys a query may not see and returns the masked scores."""
        ones = t.ones(scores.size(-2), scores.size(-1), device=scores.device)
        future = t.triu(ones, diagonal=1).bool()
        return scores.masked_fill(future, self.NEG)
