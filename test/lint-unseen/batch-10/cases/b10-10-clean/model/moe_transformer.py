import torch
import torch.nn as nn

from .transformer import MultiHeadAttention


class MoEBlock(nn.Module):
    def __init__(self, d_model, n_heads, max_seq_len, n_experts=4):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attention = MultiHeadAttention(d_model, n_heads, max_seq_len)
        self.ln2 = nn.LayerNorm(d_model)
        self.router = nn.Linear(d_model, n_experts)
        self.experts = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(n_experts)])

    def forward(self, x, mask=None):
        """mask: attention mask [batch, seq_len, seq_len]."""
        x = x + self.attention(self.ln1(x), mask=mask)
        h = self.ln2(x)
        gate = torch.softmax(self.router(h), dim=-1)
        mixed = sum(gate[..., i : i + 1] * expert(h) for i, expert in enumerate(self.experts))
        return x + mixed


class MoETransformer(nn.Module):
    def __init__(self, vocab_size=32000, d_model=512, n_heads=8, n_layers=4, max_seq_len=1024):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, d_model)
        self.blocks = nn.ModuleList([MoEBlock(d_model, n_heads, max_seq_len) for _ in range(n_layers)])
        self.ln_f = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, ids):
        _, seq_len = ids.shape
        x = self.tok(ids)
        # create causal mask
        mask = torch.tril(torch.ones(seq_len, seq_len, device=ids.device)).unsqueeze(0)
        for block in self.blocks:
            x = block(x, mask=mask)
        return self.lm_head(self.ln_f(x))
