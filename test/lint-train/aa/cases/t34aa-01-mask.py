# case: t34aa-01-mask
# modelled-on: timotheegath/gpt-from-scratch-arena1.1 https://github.com/timotheegath/gpt-from-scratch-arena1.1/commit/f386890e4cf1cfbc7328d20b6505b8a50e8bf4aa
# label: buggy
# class: real-bug
# pattern: a GPT-2 re-implementation exercise (ARENA 1.1): the attention module keeps a -inf IGNORE buffer and a causal-mask method that builds its boolean mask as `torch.triu(scores, diagonal=1) == 0` and hands it to `scores.masked_fill(mask, IGNORE)`; the forward pass is not written yet at this commit, only the mask method and its printing check
# why: buggy: `triu(scores, 1) == 0` is True on the diagonal and the whole lower triangle (the past and the token itself) and False on the future, so masked_fill(-inf) removes exactly the keys a causal decoder must keep and keeps the future ones (the polarity of the mask is inverted for masked_fill, which fills where True); it also masks any future score that happens to be exactly 0; the author rewrote the method two commits later (39eb887, "Implemented the attention heads") as `torch.triu(torch.ones(Tq, Tk), diagonal=1).bool()`, True above the diagonal
# source: https://github.com/timotheegath/gpt-from-scratch-arena1.1 https://github.com/timotheegath/gpt-from-scratch-arena1.1/commit/f386890e4cf1cfbc7328d20b6505b8a50e8bf4aa custom_transformer.py
from dataclasses import dataclass

import torch as t
import torch.nn as nn
from jaxtyping import Float
from torch import Tensor

device = t.device("cuda" if t.cuda.is_available() else "cpu")


@dataclass
class Config:
    d_model: int = 768
    debug: bool = True
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
        self.register_buffer("NEG", t.tensor(float("-inf"), dtype=t.float32, device=device))

    def apply_causal_mask(
        self,
        scores: Float[Tensor, "batch n_heads query_pos key_pos"],
    ) -> Float[Tensor, "batch n_heads query_pos key_pos"]:
        """Masks the scores of the keys a query may not see and returns the masked scores."""
        future = t.triu(scores, diagonal=1) == 0
        return scores.masked_fill(future, self.NEG)  # expect: ATT002

    def check_causal_mask(self) -> None:
        n = self.cfg.d_model // self.cfg.d_head
        scores = t.rand([2, self.cfg.n_heads, n, n]).to(device)
        masked = self.apply_causal_mask(scores)
        print("masked shape:", masked.shape)
        print(masked[0, 0])


if __name__ == "__main__":
    Attention(Config(debug=True)).check_causal_mask()
