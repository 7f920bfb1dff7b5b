import torch.nn as nn

from heads import CausalHeads


class DecoderBlock(nn.Module):
    def __init__(self, n_embd, n_head, block_size, dropout=0.1):
        super().__init__()
        self.ln_attn = nn.LayerNorm(n_embd)
        self.attn = CausalHeads(n_embd, n_head, block_size, dropout)
        self.ln_ff = nn.LayerNorm(n_embd)
        self.ff = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd), nn.Dropout(dropout))

    def forward(self, x):
        update, probs = self.attn(self.ln_attn(x))
        x = x + update
        return x + self.ff(self.ln_ff(x)), probs

