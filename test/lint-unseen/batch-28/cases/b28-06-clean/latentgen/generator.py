# case: b28-06-clean
# modelled-on: AndrewSukhobok95/discrete_latents_for_text_to_image_gen https://github.com/AndrewSukhobok95/discrete_latents_for_text_to_image_gen/commit/2f1a98a6aa344c16cf1c1a3e388f351c3b2780fc
# label: correct
# class: clean
# pattern: a thesis project's autoregressive prior over discrete image latents: common_utils.causal_float_mask builds the additive float mask of nn.Transformer (triu(ones) == 1 transposed gives the lower triangle; 0 there, -inf above the diagonal), the generator passes it as attn_mask to every pre-norm encoder block, which hands it to nn.MultiheadAttention (sequence-first); sampling reruns the prior and softmaxes the logits of position i over the codebook
# why: correct: an additive float attn_mask is added to the scores, so 0.0 on and below the diagonal keeps the past and -inf above it removes future keys, which is what a causal prior needs; the mask is (L, L) for sequence-first inputs; the sampling softmax is over the codebook (last) axis of a (batch, codebook) slice, not an attention softmax
# looks-like: ATT002, ATT008
# source: https://github.com/AndrewSukhobok95/discrete_latents_for_text_to_image_gen https://github.com/AndrewSukhobok95/discrete_latents_for_text_to_image_gen/commit/2f1a98a6aa344c16cf1c1a3e388f351c3b2780fc modules/transformer_gen/ar_uncond/generator.py
import torch
import torch.nn.functional as F
from torch import nn

from .common_blocks import PreNormBlock
from .common_utils import causal_float_mask


class CodePrior(nn.Module):
    def __init__(self, grid_w, grid_h, n_codes, num_blocks, hidden_dim, n_attn_heads, dropout_prob):
        super().__init__()
        self.grid_w = grid_w
        self.grid_h = grid_h
        self.n_codes = n_codes
        self.proj_in = nn.Linear(n_codes, n_codes)
        self.proj_out = nn.Linear(n_codes, n_codes)
        self.pos_col = nn.Parameter(torch.randn(grid_w, 1, n_codes))
        self.pos_row = nn.Parameter(torch.randn(grid_h, 1, n_codes))
        self.blocks = nn.ModuleList([
            PreNormBlock(n_codes, n_attn_heads, hidden_dim, dropout_prob) for _ in range(num_blocks)
        ])

    def forward(self, x):
        seq_len, batch, emb = x.size()
        future = causal_float_mask(seq_len).to(x.device)
        x = self.proj_in(x)
        x = x + self.pos_col.repeat(self.grid_w, 1, 1) + self.pos_row.repeat_interleave(self.grid_h, dim=0)
        for block in self.blocks:
            x = block(x, causal=future)
        return self.proj_out(x)

    def sample(self, n_samples):
        seq_len = self.grid_w * self.grid_h
        tokens = torch.zeros(seq_len + 1, n_samples, self.n_codes)
        for i in range(seq_len):
            out = self.forward(tokens[:-1, :, :])
            probs = F.softmax(out[i, :, :], dim=-1)
            index = torch.multinomial(probs, num_samples=1)
            picked = torch.scatter(torch.zeros(n_samples, self.n_codes), 1, index, 1.0)
            tokens[i + 1, :, :] = picked
        return tokens[1:, :, :]
