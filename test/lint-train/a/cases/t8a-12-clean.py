# case: t8a-12-clean
# modelled-on: mutassimalzeem/transformer-from-scratch https://github.com/mutassimalzeem/transformer-from-scratch/commit/ea8ef53464ceb59532ad2e251fe22d50639f03ac
# label: correct
# class: clean
# pattern: a learning repo's decoder demo: masked self-attention built on nn.MultiheadAttention (batch_first) with a boolean causal mask triu(ones(T, T), diagonal=1).bool() passed as attn_mask, token plus learned position embeddings, and a next-token head
# why: correct: nn.MultiheadAttention reads a boolean attn_mask as True = not allowed, and triu(..., diagonal=1) is True exactly at the future positions, so each token sees itself and the past (the opposite of SDPA's boolean convention, which this module does not use)
# looks-like: ATT002
# source: https://github.com/mutassimalzeem/transformer-from-scratch https://github.com/mutassimalzeem/transformer-from-scratch/commit/ea8ef53464ceb59532ad2e251fe22d50639f03ac experiments/phase_08_decoder_concepts/task_01_masked_attention.py
import torch
import torch.nn as nn


class MaskedSelfAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int):
        super().__init__()
        self.mha = nn.MultiheadAttention(embed_dim=d_model, num_heads=num_heads, batch_first=True)

    def forward(self, x: torch.Tensor):
        """x: (B, T, d_model)."""
        T = x.size(1)
        # True above the diagonal: position i may not look at j > i
        future = torch.triu(torch.ones(T, T, device=x.device), diagonal=1).bool()
        out, weights = self.mha(query=x, key=x, value=x, attn_mask=future)
        return out, weights


class DecoderDemo(nn.Module):
    def __init__(self, vocab_size: int, d_model: int = 64, num_heads: int = 4, max_len: int = 128):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.attn = MaskedSelfAttention(d_model, num_heads)
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size)

    def forward(self, token_ids: torch.Tensor):
        B, T = token_ids.shape
        positions = torch.arange(T, device=token_ids.device).unsqueeze(0).expand(B, T)
        x = self.tok(token_ids) + self.pos(positions)
        h, weights = self.attn(x)
        return self.head(self.norm(x + h)), weights


if __name__ == "__main__":
    model = DecoderDemo(vocab_size=100)
    logits, w = model(torch.randint(0, 100, (2, 10)))
    assert torch.all(w.triu(1) == 0)
