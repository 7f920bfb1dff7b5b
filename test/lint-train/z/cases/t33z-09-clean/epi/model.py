import torch
import torch.nn as nn

from epi.diff_attention import DiffAttention


class DiffEncoderLayer(nn.Module):
    def __init__(self, d_model=256, nhead=8, dropout=0.1):
        super().__init__()
        self.self_attn = DiffAttention(embed_dim=d_model, num_heads=nhead, depth=12)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, d_model * 4), nn.GELU(),
                                nn.Linear(d_model * 4, d_model), nn.Dropout(dropout))

    def forward(self, x, padding_mask=None, attn_mask=None):
        h, w = self.self_attn(self.norm1(x), key_padding_mask=padding_mask, attn_mask=attn_mask)
        x = x + h
        return x + self.ff(self.norm2(x)), w


class PromoterEnhancerModel(nn.Module):
    """Token 0 is the promoter; tokens 1..n are candidate enhancers (all-zero one-hot = empty slot)."""

    def __init__(self, seq_encoder, n_layers=3, d_model=256, n_heads=8):
        super().__init__()
        self.seq_encoder = seq_encoder
        self.layers = nn.ModuleList([DiffEncoderLayer(d_model, n_heads) for _ in range(n_layers)])
        self.to_expr = nn.Linear(d_model, 1)

    def forward(self, p_seq, e_seqs):
        # e_seqs: (batch, n_enhancers, length, 4) one-hot
        empty = ~(e_seqs.sum(-1).sum(-1) > 0).bool()                  # (batch, n_enhancers), True = empty slot
        padding_mask = torch.cat((torch.zeros(empty.shape[0], 1, device=e_seqs.device), empty), dim=1).bool()
        padding_mask = padding_mask.unsqueeze(1).unsqueeze(1)          # (batch, 1, 1, 1 + n_enhancers)
        padding_mask = torch.where(padding_mask == 1, torch.tensor(float('-inf')), padding_mask).float()

        tokens = torch.cat([self.seq_encoder(p_seq).unsqueeze(1), self.seq_encoder(e_seqs)], dim=1)
        for layer in self.layers:
            tokens, _ = layer(tokens, padding_mask=padding_mask)
        return self.to_expr(tokens[:, 0])
