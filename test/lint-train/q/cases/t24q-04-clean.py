# case: t24q-04-clean
# modelled-on: matfu-pixel/GraphSASRec https://github.com/matfu-pixel/GraphSASRec/commit/12aabab7e0814a284c64339921cbbe9c23bba891
# label: correct
# class: clean
# pattern: a PyTorch port of the original TensorFlow SASRec attention: heads stacked on the batch axis with torch.cat(x.chunk(h, dim=2), dim=0), scores Q_ @ K_.transpose(1, 2) / K_.size(-1) ** 0.5, a key mask derived from the inputs themselves (torch.sign of the summed absolute key embeddings, 0 on padded positions whose embedding is zero) filled with -inf where == 0, an optional tril causal mask filled where == 0, softmax(dim=-1), nan_to_num, then the weights multiplied by a query mask (0 for padded queries) after the softmax
# why: correct: keys padded with zero embeddings give sign(sum|k|) = 0, so == 0 blocks exactly the padded keys; tril(ones) is 1 on the allowed keys, so == 0 blocks the future; K_.size(-1) is the per-head width after the chunk; a padded query whose row is fully masked gives NaN, which nan_to_num zeroes, and multiplying the weights by the query mask after the softmax only zeroes whole rows of padded queries (their outputs are ignored), it does not mask keys
# looks-like: ATT002, ATT004, ATT006, ATT007
# source: https://github.com/matfu-pixel/GraphSASRec https://github.com/matfu-pixel/GraphSASRec/commit/12aabab7e0814a284c64339921cbbe9c23bba891 src/models/transformer_decoder.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class StackedHeadAttention(nn.Module):
    def __init__(self, dim: int, num_heads: int, dropout_rate: float = 0.5):
        super().__init__()
        self.num_heads = num_heads
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        self.dropout = nn.Dropout(dropout_rate)

    def forward(self, queries, keys, causality: bool = False):
        Q, K, V = self.q_proj(queries), self.k_proj(keys), self.v_proj(keys)
        # (h * B, L, dim / h)
        Q_ = torch.cat(Q.chunk(self.num_heads, dim=2), dim=0)
        K_ = torch.cat(K.chunk(self.num_heads, dim=2), dim=0)
        V_ = torch.cat(V.chunk(self.num_heads, dim=2), dim=0)

        scores = torch.matmul(Q_, K_.transpose(1, 2))
        scores = scores / (K_.size(-1) ** 0.5)

        key_masks = torch.sign(torch.sum(torch.abs(keys), dim=-1))  # (B, Lk), 0 on padding
        key_masks = key_masks.repeat(self.num_heads, 1).unsqueeze(1).repeat(1, queries.size(1), 1)
        scores = scores.masked_fill(key_masks == 0, float("-inf"))

        if causality:
            tril = torch.tril(torch.ones_like(scores[0]))
            scores = scores.masked_fill(tril[None].repeat(scores.size(0), 1, 1) == 0, float("-inf"))

        weights = F.softmax(scores, dim=-1)
        weights = torch.nan_to_num(weights, nan=0.0, posinf=0.0, neginf=0.0)

        query_masks = torch.sign(torch.sum(torch.abs(queries), dim=-1))  # (B, Lq)
        query_masks = query_masks.repeat(self.num_heads, 1).unsqueeze(-1).repeat(1, 1, keys.size(1))
        weights = weights * query_masks

        per_head = torch.stack(weights.chunk(self.num_heads, dim=0), dim=1)
        out = torch.matmul(self.dropout(weights), V_)
        out = torch.cat(out.chunk(self.num_heads, dim=0), dim=2)
        return out, per_head


class SASRecBlock(nn.Module):
    def __init__(self, dim: int, num_heads: int, hidden_dim: int, dropout_rate: float = 0.5, causality: bool = True):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.norm2 = nn.LayerNorm(dim)
        self.attn = StackedHeadAttention(dim, num_heads, dropout_rate)
        self.fc1 = nn.Linear(dim, hidden_dim)
        self.fc2 = nn.Linear(hidden_dim, dim)
        self.dropout = nn.Dropout(dropout_rate)
        self.causality = causality

    def forward(self, seq):
        q = self.norm1(seq)
        x, attn = self.attn(q, seq, self.causality)
        x = self.norm2(x + q)
        x = x + self.dropout(self.fc2(self.dropout(F.relu(self.fc1(x)))))
        return x, attn
