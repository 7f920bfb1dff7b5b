# case: t27t-03-clean
# modelled-on: none34829/recrl https://github.com/none34829/recrl/commit/0ce4bedcdd7c44af92d3c01ac1e41b73c8c6f32b
# label: correct
# class: clean
# pattern: a SASRec ranker built from nn.TransformerEncoderLayer(batch_first=True) blocks; the training module left-pads each user's item ids with 0 (item ids start at 1, the embedding has padding_idx=0); the model passes src_key_padding_mask=~seq.bool() to every layer and reads the last position; a 3-D ~seq.bool() mask is built under the name attn_mask and never used
# why: correct: seq.bool() is True at real items (nonzero ids) and ~ turns it into True at padding, which is what src_key_padding_mask expects (True = ignore this key); the last slot always holds the newest real item because padding is on the left; the unused attn_mask changes nothing
# looks-like: ATT002
# source: https://github.com/none34829/recrl https://github.com/none34829/recrl/commit/0ce4bedcdd7c44af92d3c01ac1e41b73c8c6f32b code/ranker/models/sasrec.py
import torch
import torch.nn as nn


class SASRec(nn.Module):
    def __init__(self, n_items: int, hidden: int = 128, n_layers: int = 2, max_len: int = 50,
                 n_heads: int = 2, dropout: float = 0.2):
        super().__init__()
        self.item_emb = nn.Embedding(n_items + 1, hidden, padding_idx=0)
        self.pos_emb = nn.Embedding(max_len, hidden)
        self.layers = nn.ModuleList([
            nn.TransformerEncoderLayer(hidden, n_heads, hidden * 4, dropout, batch_first=True)
            for _ in range(n_layers)
        ])
        self.dropout = nn.Dropout(dropout)
        self.max_len = max_len
        nn.init.normal_(self.item_emb.weight, std=0.02)

    def forward(self, seq: torch.Tensor) -> torch.Tensor:  # seq: (B, L) item ids, 0 = padding
        b, l = seq.size()
        pos = torch.arange(l, device=seq.device).unsqueeze(0)
        x = self.dropout(self.item_emb(seq) + self.pos_emb(pos))  # (B, L, H)
        attn_mask = ~seq.bool().unsqueeze(1).expand(-1, l, -1)  # padding mask (B, L, L), unused
        for layer in self.layers:
            x = layer(x, src_key_padding_mask=~seq.bool())
        out = x[:, -1, :]                        # newest item (left padding)
        return out @ self.item_emb.weight.T      # (B, n_items + 1)
