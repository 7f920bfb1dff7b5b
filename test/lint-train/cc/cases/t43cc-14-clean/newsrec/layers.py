# case: t43cc-14-clean
# modelled-on: MrBigHead2004/mind-news-recommendation https://github.com/MrBigHead2004/mind-news-recommendation/commit/80b8cae975d51f8fb346e64e6dc7a1f6a2de5dc5
# label: correct
# class: clean
# pattern: NRMS news recommendation on a pretrained encoder: a self-attention layer wraps `nn.MultiheadAttention(batch_first=True)` and receives the tokenizer-style `mask` (1 = real token, or 1 = real history item), passing `key_padding_mask=~mask.bool()`; an additive attention pooling scores each position with `tanh(W x) @ q` into (B, L, 1), fills `mask.unsqueeze(-1) == 0` with -1e9 and softmaxes over dim=1 (the positions); the model module (another file) encodes titles with the pretrained model's `attention_mask` and builds the history mask as `(history_attn_mask.sum(dim=2) > 0).long()`
# why: correct: the masks are keep masks (1 at real tokens or items), PyTorch's key_padding_mask must be True at the positions to ignore, and `~mask.bool()` gives exactly that; in the pooling the scores are (B, L, 1), so dim=1 is the position axis the weights must sum over, and the -1e9 fill is on the padding (`mask == 0`); the pretrained encoder reads `attention_mask` as 1 = attend
# looks-like: ATT001, ATT002, ATT007
# source: https://github.com/MrBigHead2004/mind-news-recommendation https://github.com/MrBigHead2004/mind-news-recommendation/commit/80b8cae975d51f8fb346e64e6dc7a1f6a2de5dc5 src/models/attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttentionLayer(nn.Module):
    """Multi-head self-attention with a residual connection and layer norm."""

    def __init__(self, embed_dim, num_heads=16, dropout=0.2):
        super().__init__()
        self.mha = nn.MultiheadAttention(embed_dim, num_heads, dropout=dropout, batch_first=True)
        self.norm = nn.LayerNorm(embed_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, mask=None):
        key_padding_mask = ~mask.bool() if mask is not None else None
        out, _ = self.mha(x, x, x, key_padding_mask=key_padding_mask)
        return self.norm(x + self.dropout(out))


class AdditivePooling(nn.Module):
    """Additive attention that pools a sequence into one vector."""

    def __init__(self, input_dim, query_dim, dropout=0.2):
        super().__init__()
        self.proj = nn.Linear(input_dim, query_dim)
        self.query = nn.Parameter(torch.randn(query_dim, 1))
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, mask=None):
        h = self.dropout(torch.tanh(self.proj(x)))
        scores = torch.matmul(h, self.query)
        if mask is not None:
            scores = scores.masked_fill(mask.unsqueeze(-1) == 0, -1e9)
        weights = F.softmax(scores, dim=1)
        return torch.sum(x * weights, dim=1), weights
