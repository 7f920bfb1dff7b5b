from typing import Dict, List

import torch
from torch import nn

from musicrel.attention import RelativeMultiHeadAttention, StandardMultiHeadAttention


class EncoderBlock(nn.Module):
    def __init__(self, attention: nn.Module, d_model: int, d_ff: int, dropout: float):
        super().__init__()
        self.attn = attention
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        x = x + self.dropout(self.attn(self.ln1(x)))
        return x + self.dropout(self.ff(self.ln2(x)))


class MusicTransformer(nn.Module):
    def __init__(self, vocab_size: int, d_model: int = 128, num_layers: int = 4, num_heads: int = 4,
                 d_ff: int = 256, dropout: float = 0.1, relative: bool = True, local_window=None):
        super().__init__()
        self.token_emb = nn.Embedding(vocab_size, d_model)
        blocks = []
        for _ in range(num_layers):
            attn = (RelativeMultiHeadAttention(d_model, num_heads, dropout, 64, local_window) if relative
                    else StandardMultiHeadAttention(d_model, num_heads, dropout))
            blocks.append(EncoderBlock(attn, d_model, d_ff, dropout))
        self.layers = nn.ModuleList(blocks)
        self.ln_f = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # x: (B, L) token ids
        h = self.token_emb(x)
        for layer in self.layers:
            h = layer(h)
        return self.head(self.ln_f(h))  # (B, L, V)


@torch.no_grad()
def sample_tokens(model: MusicTransformer, vocab: Dict[str, int], block_size: int,
                  max_time_steps: int = 128, temperature: float = 1.0) -> List[int]:
    """No cache: every step re-runs the last block_size tokens."""
    model.eval()
    tokens = [vocab["bos_id"]]
    steps = 0
    while steps < max_time_steps:
        x = torch.tensor(tokens[-block_size:], dtype=torch.long).unsqueeze(0)
        logits = model(x)[:, -1, :] / max(1e-5, temperature)
        nxt = int(torch.multinomial(torch.softmax(logits, dim=-1), 1))
        tokens.append(nxt)
        steps += nxt == vocab["time_shift_id"]
    return tokens
