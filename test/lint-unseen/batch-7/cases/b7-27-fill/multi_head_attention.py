# case: b7-27-fill
# modelled-on: longlnOff/Transformer-from-scratch-with-Torch-and-TorchLightning https://github.com/longlnOff/Transformer-from-scratch-with-Torch-and-TorchLightning/commit/1909ecbfb2ded0d36c0730a0fd4ddd55b35380e7
# label: buggy
# class: real-bug
# pattern: the Lightning port of a from-scratch translation transformer: einops splits d_model into heads, a static attention function divides by sqrt(d_k) and fills the scores with masked_fill(mask=(mask == 0), value=1e-10) before the softmax; the data module in another file returns keep masks (tokens != pad, & a causal mask from triu(...) == 0) and the training script runs Lightning with precision="16-mixed"
# why: buggy: 1e-10 is a tiny positive number, so the masked logits become about 0 instead of a large negative number and the padding and future positions keep a weight near exp(0) / Z; the decoder can read the future. The repository's plain-PyTorch version of the same module fills with -1e9; no fix was found for this one
# source: https://github.com/longlnOff/Transformer-from-scratch-with-Torch-and-TorchLightning https://github.com/longlnOff/Transformer-from-scratch-with-Torch-and-TorchLightning/commit/1909ecbfb2ded0d36c0730a0fd4ddd55b35380e7 TorchLightning/models/modules/MultiHeadAttention.py
import math

import einops
import lightning.pytorch as pl
import torch


class MultiHeadAttention(pl.LightningModule):
    def __init__(self, d_model: int, n_head: int, dropout: float):
        super().__init__()
        assert d_model % n_head == 0, "n_head must be divisible by d_model"
        self.d_model, self.n_head = d_model, n_head
        self.d_head = d_model // n_head
        self.dropout = torch.nn.Dropout(dropout)
        self.w_q = torch.nn.Linear(d_model, d_model, bias=False)
        self.w_k = torch.nn.Linear(d_model, d_model, bias=False)
        self.w_v = torch.nn.Linear(d_model, d_model, bias=False)
        self.w_o = torch.nn.Linear(d_model, d_model, bias=False)

    @staticmethod
    def attention_calculate(q, k, v, mask, dropout: torch.nn.Dropout):
        # q, k, v: (B, H, S, d_head); mask: (B, 1, 1 or S, S), 1 = keep
        d_k = q.shape[-1]
        score = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)
        if mask is not None:
            score = score.masked_fill(mask=(mask == 0), value=1e-10)  # expect: ATT007
        score = torch.nn.functional.softmax(score, dim=-1)
        score = dropout(score)
        return torch.matmul(score, v), score

    def forward(self, q, k, v, mask):
        q = einops.rearrange(self.w_q(q).float(), "b s (h d) -> b h s d", h=self.n_head, d=self.d_head)
        k = einops.rearrange(self.w_k(k).float(), "b s (h d) -> b h s d", h=self.n_head, d=self.d_head)
        v = einops.rearrange(self.w_v(v).float(), "b s (h d) -> b h s d", h=self.n_head, d=self.d_head)
        attention, score = MultiHeadAttention.attention_calculate(q=q, k=k, v=v, mask=mask, dropout=self.dropout)
        attention = einops.rearrange(attention, "b h s d -> b s (h d)", h=self.n_head, d=self.d_head)
        return self.w_o(attention), score
