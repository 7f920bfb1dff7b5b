# case: b8-16-clean
# modelled-on: HyeonHo99/Transformer-scratch https://github.com/HyeonHo99/Transformer-scratch/commit/b97d524fbc4d9b97936367b56645cfd456b132ae
# label: correct
# class: clean
# pattern: a small PyTorch encoder-decoder transformer: the attention transposes the split keys with transpose(2, 3), scales by sqrt(d_head) and fills masked_fill(mask == 0, float("-1e20")); the model module builds the masks: (src != pad) reshaped to (N, 1, 1, L) and a float tril(ones) expanded to (N, 1, L, L) for the decoder
# why: correct: both masks are keep masks and the fill goes where they are 0; the model runs in float32, whose range (about 3.4e38) holds -1e20, so nothing overflows; each decoder row keeps its diagonal and each source row keeps its first token; transpose(2, 3) on (N, H, L, d) is the key transpose over the last two axes
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/HyeonHo99/Transformer-scratch https://github.com/HyeonHo99/Transformer-scratch/commit/b97d524fbc4d9b97936367b56645cfd456b132ae MultiHeadAttention.py
import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, nheads: int):
        super().__init__()
        self.d_model, self.nheads, self.d_head = d_model, nheads, d_model // nheads
        assert self.nheads * self.d_head == self.d_model, "embed_size is not divisible by num_heads"
        self.w_q = nn.Linear(d_model, d_model, bias=False)
        self.w_k = nn.Linear(d_model, d_model, bias=False)
        self.w_v = nn.Linear(d_model, d_model, bias=False)
        self.w_concat = nn.Linear(d_model, d_model, bias=False)

    def split(self, t):
        N, L, _ = t.size()
        return t.view(N, L, self.nheads, self.d_head).transpose(1, 2)  # [N, H, L, d_head]

    def forward(self, q, k, v, mask):
        q, k, v = self.split(self.w_q(q)), self.split(self.w_k(k)), self.split(self.w_v(v))
        score = (q @ k.transpose(2, 3)) / math.sqrt(self.d_head)
        if mask is not None:
            score = score.masked_fill(mask == 0, float("-1e20"))
        score = torch.softmax(score, dim=-1)
        out = score @ v
        N, H, L, D = out.shape
        return self.w_concat(out.transpose(1, 2).contiguous().view(N, L, H * D))
