import torch
import torch.nn as nn

from .modules import CausalSelfAttention


class SASRec(nn.Module):
    def __init__(self, item_num: int, hidden_units=64, maxlen=200, num_blocks=2, num_heads=1, dropout_rate=0.2):
        super().__init__()
        self.item_emb = nn.Embedding(item_num + 1, hidden_units, padding_idx=0)
        self.pos_emb = nn.Embedding(maxlen + 1, hidden_units, padding_idx=0)
        self.attn = nn.ModuleList([CausalSelfAttention(hidden_units, num_heads, dropout_rate) for _ in range(num_blocks)])
        self.ffn = nn.ModuleList(
            [nn.Sequential(nn.LayerNorm(hidden_units), nn.Linear(hidden_units, hidden_units), nn.ReLU(), nn.Linear(hidden_units, hidden_units)) for _ in range(num_blocks)]
        )
        self.final_norm = nn.LayerNorm(hidden_units)

    def forward(self, seq: torch.Tensor) -> torch.Tensor:
        B, L = seq.shape
        pos_ids = torch.arange(1, L + 1, device=seq.device).unsqueeze(0).expand(B, -1) * (seq != 0).long()
        x = self.item_emb(seq) + self.pos_emb(pos_ids)
        for attn, ffn in zip(self.attn, self.ffn):
            x = attn(x, seq)
            x = x + ffn(x)
        return self.final_norm(x)
