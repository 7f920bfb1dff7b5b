# case: b22-09-clean
# modelled-on: YichenZeng221/antibody-affinity-regression https://github.com/YichenZeng221/antibody-affinity-regression/commit/300c6c97890dbc70bd6d1e29a61bfe6c8fc80157
# label: correct
# class: clean
# pattern: an antibody-antigen affinity regressor on a protein language model: the CDR tokens attend to the antigen tokens through a batch-first nn.MultiheadAttention with key_padding_mask=~antigen_attention_mask.bool() (the tokenizer's 1 = real token mask), then a learned attention pooling scores each token with Linear(h, 1).squeeze(-1), fills the padding with finfo(dtype).min through ~attention_mask.bool() and softmaxes over dim=1; mean pooling weights by the keep mask
# why: correct: key_padding_mask hides the positions that are True, and the negated HF mask is True exactly at the padding; after squeeze(-1) the pooling scores are (batch, tokens), so dim=1 is the token axis, and finfo.min is the dtype's own lowest value, safe in half precision
# looks-like: ATT001, ATT002, ATT007
# source: https://github.com/YichenZeng221/antibody-affinity-regression https://github.com/YichenZeng221/antibody-affinity-regression/commit/300c6c97890dbc70bd6d1e29a61bfe6c8fc80157 src/affinity_cross_attention_model.py
import torch
from torch import nn


class MaskedAttentionPooling(nn.Module):
    """One learned scalar weight per real token."""

    def __init__(self, hidden_size: int):
        super().__init__()
        self.score = nn.Linear(hidden_size, 1)

    def forward(self, tokens: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        scores = self.score(tokens).squeeze(-1)
        scores = scores.masked_fill(~attention_mask.bool(), torch.finfo(scores.dtype).min)
        weights = torch.softmax(scores, dim=1)
        return torch.bmm(weights.unsqueeze(1), tokens).squeeze(1)


class CrossAttentionAffinity(nn.Module):
    def __init__(self, encoder: nn.Module, hidden_size: int, num_heads: int, dropout: float = 0.1):
        super().__init__()
        if hidden_size % num_heads != 0:
            raise ValueError(f"hidden_size={hidden_size} must be divisible by num_heads={num_heads}")
        self.encoder = encoder
        self.cross_attention = nn.MultiheadAttention(embed_dim=hidden_size, num_heads=num_heads, dropout=dropout, batch_first=True)
        self.pool = MaskedAttentionPooling(hidden_size)
        self.head = nn.Sequential(nn.Linear(3 * hidden_size, hidden_size), nn.GELU(), nn.Dropout(dropout), nn.Linear(hidden_size, 1))

    @staticmethod
    def mean_pool(tokens, attention_mask):
        mask = attention_mask.unsqueeze(-1).to(tokens.dtype)
        return (tokens * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)

    def forward(self, cdr_input_ids, cdr_attention_mask, antigen_input_ids, antigen_attention_mask):
        cdr = self.encoder(input_ids=cdr_input_ids, attention_mask=cdr_attention_mask).last_hidden_state
        antigen = self.encoder(input_ids=antigen_input_ids, attention_mask=antigen_attention_mask).last_hidden_state

        # key_padding_mask: True marks the antigen padding
        attended, _ = self.cross_attention(
            query=cdr,
            key=antigen,
            value=antigen,
            key_padding_mask=~antigen_attention_mask.bool(),
            need_weights=False,
        )
        features = torch.cat(
            [self.pool(attended, cdr_attention_mask), self.mean_pool(cdr, cdr_attention_mask), self.mean_pool(antigen, antigen_attention_mask)],
            dim=-1,
        )
        return self.head(features).squeeze(-1)
