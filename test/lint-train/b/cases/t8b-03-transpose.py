# case: t8b-03-transpose
# modelled-on: ies0411/openViT https://github.com/ies0411/openViT/commit/3549324143c3f177ea5085b916250c8ebd4052dc
# label: buggy
# class: real-bug
# pattern: a ViT written from scratch: multi-head self-attention over (B, patches + 1, D) token features with three Linear(D, D) projections split into heads with .view, the keys "transposed" by viewing them as (B, heads, head_dim, -1), scores divided by sqrt(head_dim) and softmaxed over the last axis, used by a pre-norm encoder block
# why: buggy: k.view(B, heads, head_dim, -1) only reinterprets the (B, N, D) buffer, it does not swap the token and feature axes, so q @ k multiplies each query with scrambled key entries; the same reshape-for-transpose also splits q and v into heads without moving the token axis; the fix (d7bca1c) views the keys as (B, N, heads, head_dim) and permutes them to (B, heads, head_dim, N) (and q, v to (B, heads, N, head_dim)); the real file also used undefined names (head_dim, device, attention), written here as the author defines them after the fix
# source: https://github.com/ies0411/openViT https://github.com/ies0411/openViT/commit/d7bca1c180b188035d4983f448deabd8b8469d7e model/detector/vit.py
import torch
import torch.nn as nn


class MultiheadedSelfAttention(nn.Module):
    def __init__(self, latent_vector_dim, head_num, drop_rate):
        super().__init__()
        self.latent_vector_dim = latent_vector_dim
        self.head_num = head_num
        self.head_dim = int(latent_vector_dim / head_num)
        self.query = nn.Linear(latent_vector_dim, latent_vector_dim)
        self.key = nn.Linear(latent_vector_dim, latent_vector_dim)
        self.value = nn.Linear(latent_vector_dim, latent_vector_dim)
        self.dropout = nn.Dropout(drop_rate)
        self.scale = torch.sqrt(self.head_dim * torch.ones(1))

    def forward(self, x):
        # x: (B, patches + 1, latent_vector_dim)
        batch_size = x.size(0)
        q = self.query(x)
        k = self.key(x)
        v = self.value(x)
        q = q.view(batch_size, self.head_num, -1, self.head_dim)
        k = k.view(batch_size, self.head_num, self.head_dim, -1)  # expect: ATT005
        v = v.view(batch_size, self.head_num, -1, self.head_dim)
        att = torch.softmax(q @ k / self.scale.to(x.device), dim=-1)
        x = self.dropout(att) @ v
        x = x.reshape(batch_size, -1, self.latent_vector_dim)
        return x, att


class TransformerEncoder(nn.Module):
    def __init__(self, latent_vector_dim, head_num, mlp_hidden_dim, drop_rate=0.1):
        super().__init__()
        self.ln1 = nn.LayerNorm(latent_vector_dim)
        self.ln2 = nn.LayerNorm(latent_vector_dim)
        self.msa = MultiheadedSelfAttention(latent_vector_dim, head_num, drop_rate)
        self.dropout = nn.Dropout(drop_rate)
        self.mlp = nn.Sequential(
            nn.Linear(latent_vector_dim, mlp_hidden_dim),
            nn.GELU(),
            nn.Dropout(drop_rate),
            nn.Linear(mlp_hidden_dim, latent_vector_dim),
            nn.Dropout(drop_rate),
        )

    def forward(self, x):
        z, att = self.msa(self.ln1(x))
        x = x + self.dropout(z)
        x = x + self.mlp(self.ln2(x))
        return x, att
