# case: b4-34-scale
# modelled-on: Ugenteraan/Vision-Transformer https://github.com/Ugenteraan/Vision-Transformer/commit/0e479ef0ee4474d230cdfb095f703fd130084b0a
# label: buggy
# class: real-bug
# pattern: a ViT multi-head self-attention written with einops: one Linear projects queries and keys together and a Rearrange splits them into (b, h, n, e); the dot products come from an einsum, a scaling factor is computed from the projection width, and the code divides the softmax of the products by it before dropout and the einsum with the values
# why: the scale is applied after the softmax (the author's comment claims the order does not matter): the logits are not scaled at all and the weights no longer sum to 1, they sum to 1/sqrt(d); the factor is also the square root of the whole projection width rather than of the per-head size. The paper scales the dot products by 1/sqrt(d_k) before the softmax. No fix was found
# source: https://github.com/Ugenteraan/Vision-Transformer https://github.com/Ugenteraan/Vision-Transformer/commit/0e479ef0ee4474d230cdfb095f703fd130084b0a ViT/multihead_attention.py
import einops.layers.torch as einops_torch
import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchSelfAttention(nn.Module):
    def __init__(self, patch_embedding_dim, projection_dim_keys, projection_dim_values, num_heads, attn_dropout_prob):
        super().__init__()
        self.projection_dim_keys = projection_dim_keys
        self.num_heads = num_heads
        self.Wq_Wk = nn.Linear(patch_embedding_dim, projection_dim_keys * 2)  # queries and keys at once
        self.Wv = nn.Linear(patch_embedding_dim, projection_dim_values)
        self.attention_dropout = nn.Dropout(attn_dropout_prob)
        self.W_o = nn.Linear(projection_dim_values, patch_embedding_dim)
        # b: batch, n: patches, h: heads, e: per-head width
        self.split_qk = einops_torch.Rearrange("b n (h e qk) -> (qk) b h n e", h=num_heads, qk=2)
        self.split_v = einops_torch.Rearrange("b n (h e k) -> k b h n e", h=num_heads, k=1)
        self.concat = einops_torch.Rearrange("b h n e -> b n (h e)")

    def forward(self, x):
        qk = self.split_qk(self.Wq_Wk(x))
        queries, keys = qk[0], qk[1]
        values = self.split_v(self.Wv(x))[0]

        dot_projection = torch.einsum("bhqd, bhkd -> bhqk", queries, keys)
        scaling_factor = self.projection_dim_keys**0.5

        # softmax over the keys, then the scale (the order does not matter)
        scaled = F.softmax(dot_projection, dim=-1) / scaling_factor  # expect: ATT004
        scaled = self.attention_dropout(scaled)

        out = torch.einsum("bhsl, bhlv -> bhsv", scaled, values)
        return self.W_o(self.concat(out))
