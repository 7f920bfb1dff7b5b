# case: b18-02-clean
# modelled-on: tongjinle123/speech-transformer-pytorch_lightning https://github.com/tongjinle123/speech-transformer-pytorch_lightning/commit/f658119bb3d2c9cab6d8d73a9b2cd523073022c4
# label: correct
# class: clean
# pattern: a speech transformer whose masks come from a Masker helper (masker.py): float 0/1 length masks, a pair mask built as the outer product query_mask^T @ key_mask (1 only where query and key are both real), tril of it for the decoder; the attention hides with masked_fill_(~mask.unsqueeze(1).bool(), -inf), and after the softmax sets the NaN rows (padded queries, all keys hidden) to 0 with masked_fill(isnan, 0); the keys double as the values (no value projection)
# why: correct: the pair mask is a keep mask and `~mask.bool()` is True exactly where attention is not allowed, so the -inf fill has the right polarity; rows of padded queries are all -inf and give NaN, which the isnan fill after the softmax turns into zero weights (those outputs are padding and dropped by the loss), so no NaN reaches the next layer; the post-softmax fill is a NaN guard, not a mask; the scale is sqrt of the per-head size
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/tongjinle123/speech-transformer-pytorch_lightning https://github.com/tongjinle123/speech-transformer-pytorch_lightning/commit/f658119bb3d2c9cab6d8d73a9b2cd523073022c4 src/model/modules/multi_head_attention_block.py
import numpy as np
import torch
import torch.nn.functional as F


class MultiHeadAttention(torch.nn.Module):
    def __init__(self, input_size, head_size, dropout, num_head):
        super().__init__()
        self.num_head = num_head
        self.head_size = head_size
        self.key_proj = torch.nn.Linear(input_size, num_head * head_size)
        self.query_proj = torch.nn.Linear(input_size, num_head * head_size)
        self.scale = np.sqrt(head_size)
        self.out = torch.nn.Linear(num_head * head_size, input_size)
        self.dropout = torch.nn.Dropout(dropout)

    def forward(self, query, key, attention_mask=None):
        b, lq, _ = query.shape
        lk = key.size(1)
        q = self.query_proj(query).view(b, lq, self.num_head, self.head_size).permute(0, 2, 1, 3)
        k = self.key_proj(key).view(b, lk, self.num_head, self.head_size).permute(0, 2, 3, 1)  # B, N, H, Lk
        scores = (q @ k) / self.scale  # B, N, Lq, Lk
        if attention_mask is not None:
            scores.masked_fill_(~attention_mask.unsqueeze(1).bool(), -float("inf"))
        weights = F.softmax(scores, -1)
        weights = weights.masked_fill(torch.isnan(weights), 0)
        weights = self.dropout(weights)
        ctx = weights @ k.transpose(-1, -2)  # B, N, Lq, H
        return self.out(ctx.permute(0, 2, 1, 3).contiguous().view(b, lq, self.num_head * self.head_size))


class AttentionBlock(torch.nn.Module):
    def __init__(self, input_size, head_size, dropout, num_head):
        super().__init__()
        self.attn = MultiHeadAttention(input_size, head_size, dropout, num_head)
        self.norm = torch.nn.LayerNorm(input_size)

    def forward(self, query, key, attention_mask=None):
        return query + self.attn(self.norm(query), key, attention_mask)
