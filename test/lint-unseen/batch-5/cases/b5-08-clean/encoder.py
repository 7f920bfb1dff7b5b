# case: b5-08-clean
# modelled-on: anenbergb/BERT-from-scratch https://github.com/anenbergb/BERT-from-scratch/commit/b2aee058cb24c4d055bb0c7aa6a5a6474866715e
# label: correct
# class: clean
# pattern: a BERT-style encoder: the collator in another module passes the tokenizer's attention_mask (1 = real token, 0 = padding) through unchanged, the self-attention unsqueezes it to (B, 1, 1, T) and fills the scaled scores with torch.finfo(dtype).min where it is 0; the trainer in a third module runs the model under an accelerate Accelerator with bf16 mixed precision and autocast
# why: correct: `mask == 0` selects the padding keys of a 1-means-attend mask, the fill is the most negative value of the scores' own dtype (finite under bf16 or fp16 autocast), and the scores are divided by sqrt(head_size) before the softmax over the keys
# looks-like: ATT002, ATT007
# source: https://github.com/anenbergb/BERT-from-scratch https://github.com/anenbergb/BERT-from-scratch/commit/b2aee058cb24c4d055bb0c7aa6a5a6474866715e bert/model.py
import math

import torch
from torch import nn


class EncoderSelfAttention(nn.Module):
    def __init__(self, hidden: int = 768, heads: int = 12, p_attn: float = 0.1):
        super().__init__()
        self.hidden = hidden
        self.heads = heads
        self.head_size = hidden // heads
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.proj = nn.Linear(hidden, hidden)
        self.drop = nn.Dropout(p_attn)

    def forward(self, x: torch.Tensor, attention_mask: torch.LongTensor) -> torch.Tensor:
        B, T, C = x.size()
        q, k, v = self.qkv(x).split(self.hidden, dim=2)
        # (B, T, C) -> (B, nh, T, hs)
        q = q.view(B, T, self.heads, self.head_size).transpose(1, 2)
        k = k.view(B, T, self.heads, self.head_size).transpose(1, 2)
        v = v.view(B, T, self.heads, self.head_size).transpose(1, 2)
        # (B, nh, T, hs) x (B, nh, hs, T) -> (B, nh, T, T)
        att = q @ k.transpose(2, 3)
        att = att / math.sqrt(self.head_size)
        # attention_mask: (B, T), 1 at tokens to attend to -> (B, 1, 1, T)
        attention_mask = attention_mask.unsqueeze(1).unsqueeze(2)
        att = att.masked_fill(attention_mask == 0, torch.finfo(att.dtype).min)
        att = nn.functional.softmax(att, dim=-1)
        att = self.drop(att)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)


class EncoderLayer(nn.Module):
    def __init__(self, hidden: int = 768, heads: int = 12):
        super().__init__()
        self.attn = EncoderSelfAttention(hidden, heads)
        self.ln1 = nn.LayerNorm(hidden)
        self.ff = nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.GELU(), nn.Linear(4 * hidden, hidden))
        self.ln2 = nn.LayerNorm(hidden)

    def forward(self, x, attention_mask):
        x = self.ln1(x + self.attn(x, attention_mask))
        return self.ln2(x + self.ff(x))


class MaskedLM(nn.Module):
    def __init__(self, vocab: int, hidden: int = 768, heads: int = 12, depth: int = 12, max_len: int = 512):
        super().__init__()
        self.tok = nn.Embedding(vocab, hidden)
        self.pos = nn.Embedding(max_len, hidden)
        self.seg = nn.Embedding(2, hidden)
        self.layers = nn.ModuleList([EncoderLayer(hidden, heads) for _ in range(depth)])
        self.head = nn.Linear(hidden, vocab)

    def forward(self, input_ids, attention_mask, token_type_ids):
        pos = torch.arange(input_ids.size(1), device=input_ids.device)
        x = self.tok(input_ids) + self.pos(pos) + self.seg(token_type_ids)
        for layer in self.layers:
            x = layer(x, attention_mask)
        return self.head(x)
