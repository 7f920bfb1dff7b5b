import torch
from torch import nn

from grouped_query_attention import GroupedQueryAttention


def rope_tables(head_dim, context_length, theta_base=1_000_000.0):
    inv_freq = 1.0 / (theta_base ** (torch.arange(0, head_dim, 2).float() / head_dim))
    angles = torch.arange(context_length).float()[:, None] * inv_freq[None, :]
    angles = torch.cat([angles, angles], dim=1)
    return torch.cos(angles), torch.sin(angles)


class GQAModel(nn.Module):
    def __init__(self, vocab_size=151936, emb_dim=1024, n_heads=16, n_kv_groups=8, head_dim=128, n_layers=28, context_length=4096):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab_size, emb_dim)
        self.blocks = nn.ModuleList(
            [GroupedQueryAttention(emb_dim, n_heads, n_kv_groups, head_dim=head_dim, qk_norm=True) for _ in range(n_layers)]
        )
        self.final_norm = nn.LayerNorm(emb_dim)
        self.out_head = nn.Linear(emb_dim, vocab_size, bias=False)
        cos, sin = rope_tables(head_dim, context_length)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)

    def forward(self, in_idx):
        x = self.tok_emb(in_idx)
        num_tokens = x.shape[1]
        mask = torch.triu(torch.ones(num_tokens, num_tokens, device=x.device, dtype=torch.bool), diagonal=1)
        for block in self.blocks:
            x = x + block(x, mask, self.cos, self.sin)
        return self.out_head(self.final_norm(x))
