# case: mask-sasrec-inverted-tril-bool
# modelled-on: pmixer/SASRec.pytorch https://github.com/pmixer/SASRec.pytorch/issues/6
# label: correct
# pattern: SASRec's fix of the same block: attn_mask = ~torch.tril(ones(bool)) handed to nn.MultiheadAttention; padding is handled by zeroing pad embeddings with the inverted timeline mask
# why: nn.MultiheadAttention's boolean attn_mask blocks True positions, and ~tril is True strictly above the diagonal; the diagonal stays open so no row is fully masked
# looks-like: ATT002, ATT007
import numpy as np
import torch
import torch.nn as nn


class SASRec(nn.Module):
    def __init__(self, item_num: int, hidden_units: int = 50, maxlen: int = 200, num_blocks: int = 2, num_heads: int = 1, dropout_rate: float = 0.2):
        super().__init__()
        self.item_emb = nn.Embedding(item_num + 1, hidden_units, padding_idx=0)
        self.pos_emb = nn.Embedding(maxlen, hidden_units)
        self.emb_dropout = nn.Dropout(p=dropout_rate)
        self.attention_layernorms = nn.ModuleList()
        self.attention_layers = nn.ModuleList()
        for _ in range(num_blocks):
            self.attention_layernorms.append(nn.LayerNorm(hidden_units, eps=1e-8))
            self.attention_layers.append(nn.MultiheadAttention(hidden_units, num_heads, dropout_rate))
        self.last_layernorm = nn.LayerNorm(hidden_units, eps=1e-8)

    def log2feats(self, log_seqs: np.ndarray, dev: str) -> torch.Tensor:
        seqs = self.item_emb(torch.LongTensor(log_seqs).to(dev))  # (B, T, H)
        seqs *= self.item_emb.embedding_dim ** 0.5
        positions = np.tile(np.arange(log_seqs.shape[1]), [log_seqs.shape[0], 1])
        seqs += self.pos_emb(torch.LongTensor(positions).to(dev))
        seqs = self.emb_dropout(seqs)

        timeline_mask = torch.BoolTensor(log_seqs == 0).to(dev)  # True at padding
        seqs *= ~timeline_mask.unsqueeze(-1)

        tl = seqs.shape[1]
        attention_mask = ~torch.tril(torch.ones((tl, tl), dtype=torch.bool, device=dev))  # True = blocked (future)
        for i in range(len(self.attention_layers)):
            seqs = torch.transpose(seqs, 0, 1)  # (T, B, H)
            q = self.attention_layernorms[i](seqs)
            mha_outputs, _ = self.attention_layers[i](q, seqs, seqs, attn_mask=attention_mask)
            seqs = torch.transpose(q + mha_outputs, 0, 1)
            seqs *= ~timeline_mask.unsqueeze(-1)
        return self.last_layernorm(seqs)
