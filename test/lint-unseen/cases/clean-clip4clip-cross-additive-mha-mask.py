# case: clean-clip4clip-cross-additive-mha-mask
# modelled-on: ArrowLuo/CLIP4Clip https://github.com/ArrowLuo/CLIP4Clip/blob/master/modules/module_cross.py
# label: correct
# class: clean
# pattern: a frame-level keep mask (1 = real frame) turned additive with (1.0 - m) * -1000000.0 in a model method, expanded to (B, L, L), repeated per head and handed to nn.MultiheadAttention's attn_mask through a tuple that travels along nn.Sequential
# why: nn.MultiheadAttention adds a float attn_mask to the scores, so 0 on real frames and a large negative number on padded frames is the right polarity; repeat_interleave over heads matches the (B * heads, L, L) layout MHA expects; the first frame of every clip is real, so no row is fully masked
# looks-like: ATT002, ATT007
# source: https://github.com/ArrowLuo/CLIP4Clip https://github.com/ArrowLuo/CLIP4Clip/commit/508ffa3de39ba0563a03199c440ab602a72e9b6f modules/module_cross.py
from collections import OrderedDict

import torch
from torch import nn


class QuickGELU(nn.Module):
    def forward(self, x: torch.Tensor):
        return x * torch.sigmoid(1.702 * x)


class ResidualAttentionBlock(nn.Module):
    def __init__(self, d_model: int, n_head: int):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_head)
        self.ln_1 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(OrderedDict([
            ("c_fc", nn.Linear(d_model, d_model * 4)),
            ("gelu", QuickGELU()),
            ("c_proj", nn.Linear(d_model * 4, d_model)),
        ]))
        self.ln_2 = nn.LayerNorm(d_model)
        self.n_head = n_head

    def attention(self, x: torch.Tensor, attn_mask: torch.Tensor):
        attn_mask_ = attn_mask.repeat_interleave(self.n_head, dim=0)
        return self.attn(x, x, x, need_weights=False, attn_mask=attn_mask_)[0]

    def forward(self, para_tuple: tuple):
        x, attn_mask = para_tuple
        x = x + self.attention(self.ln_1(x), attn_mask)
        x = x + self.mlp(self.ln_2(x))
        return (x, attn_mask)


class Transformer(nn.Module):
    def __init__(self, width: int, layers: int, heads: int):
        super().__init__()
        self.width = width
        self.resblocks = nn.Sequential(*[ResidualAttentionBlock(width, heads) for _ in range(layers)])

    def forward(self, x: torch.Tensor, attn_mask: torch.Tensor):
        return self.resblocks((x, attn_mask))[0]


class CrossModel(nn.Module):
    def __init__(self, hidden_size, num_hidden_layers, num_attention_heads, max_frames):
        super().__init__()
        self.position_embeddings = nn.Embedding(max_frames, hidden_size)
        self.transformer = Transformer(width=hidden_size, layers=num_hidden_layers, heads=num_attention_heads)

    @property
    def dtype(self):
        return next(self.parameters()).dtype

    def build_attention_mask(self, attention_mask):
        extended_attention_mask = attention_mask.unsqueeze(1)
        extended_attention_mask = extended_attention_mask.to(dtype=self.dtype)  # fp16 compatibility
        extended_attention_mask = (1.0 - extended_attention_mask) * -1000000.0
        extended_attention_mask = extended_attention_mask.expand(-1, attention_mask.size(1), -1)
        return extended_attention_mask

    def forward(self, concat_input, attention_mask=None):
        if attention_mask is None:
            attention_mask = torch.ones(concat_input.size(0), concat_input.size(1))
        extended_attention_mask = self.build_attention_mask(attention_mask)

        position_ids = torch.arange(concat_input.size(1), dtype=torch.long, device=concat_input.device)
        embedding_output = concat_input + self.position_embeddings(position_ids).unsqueeze(0)
        embedding_output = embedding_output.permute(1, 0, 2)  # NLD -> LND
        embedding_output = self.transformer(embedding_output, extended_attention_mask)
        return embedding_output.permute(1, 0, 2)  # LND -> NLD
