# case: b6-24-scale
# modelled-on: Grozby/vit-from-scratch https://github.com/Grozby/vit-from-scratch/commit/eb02b981c43fa9d400a381acec4450c9ff028082
# label: buggy
# class: real-bug
# pattern: a ViT built from per-head modules: AttentionScaledDotProduct(model_dim, embedding_dim) projects the model_dim inputs to embedding_dim queries, keys and values and divides q @ k^T by root_model_dim = model_dim ** 0.5 stored in __init__; the multi-head module in another file builds number_attention_heads of them with embedding_dim = model_dim // number_attention_heads and concatenates them
# why: buggy: each head's queries and keys have embedding_dim = model_dim // heads features, so the paper's scale is 1 / sqrt(embedding_dim); dividing by sqrt(model_dim) makes every head's softmax sqrt(heads) times flatter. The line divided by sqrt(q.shape[-1]) (the head width, though torch.sqrt of an int raises) until commit d2dc4bb5a2cebe54ef9d0102bd95b5703c57a64e replaced it with the stored sqrt(model_dim); no later fix was found
# source: https://github.com/Grozby/vit-from-scratch https://github.com/Grozby/vit-from-scratch/commit/d2dc4bb5a2cebe54ef9d0102bd95b5703c57a64e pytorch/transformer/attention.py
import torch
import torch.nn as nn


class AttentionScaledDotProduct(nn.Module):
    def __init__(self, model_dim: int, embedding_dim: int, dropout_rate: float = 0.0):
        super().__init__()
        self.model_dim = model_dim
        self.embedding_dim = embedding_dim
        self.linear_queries = nn.Linear(in_features=model_dim, out_features=embedding_dim)
        self.linear_keys = nn.Linear(in_features=model_dim, out_features=embedding_dim)
        self.linear_values = nn.Linear(in_features=model_dim, out_features=embedding_dim)
        self.dropout = nn.Dropout(p=dropout_rate)
        self.root_model_dim = model_dim**0.5

    def forward(self, queries: torch.Tensor, keys: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
        q = self.linear_queries(queries)  # (B, N, embedding_dim)
        k = self.linear_keys(keys)
        v = self.linear_values(values)
        attention = torch.softmax(
            (q @ k.transpose(-2, -1)) / self.root_model_dim,  # expect: ATT004
            dim=-1,
        )
        attention = self.dropout(attention)
        return attention @ v
