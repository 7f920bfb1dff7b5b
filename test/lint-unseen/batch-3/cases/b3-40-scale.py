# case: b3-40-scale
# modelled-on: s-chh/PyTorch-Scratch-Vision-Transformer-ViT https://github.com/s-chh/PyTorch-Scratch-Vision-Transformer-ViT/commit/4e67eb145f909128ae4adf236a9df29aea932901
# label: buggy
# class: real-bug
# pattern: a from-scratch ViT attention layer with the shapes in comments: queries, keys and values reshaped to (B, H, S, HE), folded to (BH, S, HE), keys transposed to (BH, HE, K) and multiplied with bmm; the layer keeps both embed_dim (E) and head_embed_dim (HE = E / H); the settings come from argparse arguments
# why: the scores are divided by sqrt(embed_dim), the full width, instead of sqrt(head_embed_dim), the width of the vectors in the dot product, so they are sqrt(H) times too small; commit 4e67eb1 divides by head_embed_dim ** 0.5 (the real layer also returned before its output projection; the case applies it, so that the rest is correct)
# source: https://github.com/s-chh/PyTorch-Scratch-Vision-Transformer-ViT https://github.com/s-chh/PyTorch-Scratch-Vision-Transformer-ViT/commit/4e67eb145f909128ae4adf236a9df29aea932901 model.py
import torch
import torch.nn as nn

# B -> Batch Size, E -> Embedding Dimension, S -> Sequence Length, H -> Number of heads
# HE -> Head Embedding Dimension = E / H, Q / K / V -> query / key / value sequence lengths


class AttentionLayer(nn.Module):
    def __init__(self, args):
        super(AttentionLayer, self).__init__()
        self.num_heads = args.n_heads
        self.embed_dim = args.embed_dim
        self.head_embed_dim = self.embed_dim // self.num_heads

        self.queries = nn.Linear(self.embed_dim, self.head_embed_dim * self.num_heads, bias=False)
        self.keys = nn.Linear(self.embed_dim, self.head_embed_dim * self.num_heads, bias=False)
        self.values = nn.Linear(self.embed_dim, self.head_embed_dim * self.num_heads, bias=False)
        self.fc = nn.Linear(self.embed_dim, self.embed_dim)

    def forward(self, q, k, v):
        x_queries = self.queries(q).reshape(q.shape[0], q.shape[1], self.num_heads, self.head_embed_dim)  # B, Q, E -> B, Q, H, HE
        x_queries = x_queries.transpose(1, 2)  # B, Q, H, HE -> B, H, Q, HE
        x_keys = self.keys(k).reshape(k.shape[0], k.shape[1], self.num_heads, self.head_embed_dim)  # B, K, E -> B, K, H, HE
        x_keys = x_keys.transpose(1, 2)  # B, K, H, HE -> B, H, K, HE
        x_values = self.values(v).reshape(v.shape[0], v.shape[1], self.num_heads, self.head_embed_dim)
        x_values = x_values.transpose(1, 2)  # B, V, H, HE -> B, H, V, HE

        x_queries = x_queries.reshape([-1, x_queries.shape[2], x_queries.shape[3]])  # B, H, Q, HE -> (BH), Q, HE
        x_keys = x_keys.reshape([-1, x_keys.shape[2], x_keys.shape[3]])  # B, H, K, HE -> (BH), K, HE
        x_values = x_values.reshape([-1, x_values.shape[2], x_values.shape[3]])  # B, H, V, HE -> (BH), V, HE

        x_keys = x_keys.transpose(1, 2)  # (BH), K, HE -> (BH), HE, K
        x_attention = x_queries.bmm(x_keys)  # (BH), Q, HE . (BH), HE, K -> (BH), Q, K
        x_attention = x_attention / self.embed_dim ** 0.5  # expect: ATT004
        x_attention = torch.softmax(x_attention, dim=-1)

        x = x_attention.bmm(x_values)  # (BH), Q, K . (BH), V, HE -> (BH), Q, HE
        x = x.reshape([-1, self.num_heads, x.shape[1], x.shape[2]])  # (BH), Q, HE -> B, H, Q, HE
        x = x.transpose(1, 2)  # B, H, Q, HE -> B, Q, H, HE
        x = x.reshape(x.shape[0], x.shape[1], -1)  # B, Q, H, HE -> B, Q, E
        return self.fc(x)
