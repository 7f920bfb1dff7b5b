# case: clean-transformertts-key-fill-query-mask-after
# modelled-on: soobinseo/Transformer-TTS https://github.com/soobinseo/Transformer-TTS/issues/20
# label: correct
# class: clean
# pattern: TTS transformer: heads folded into the batch (h * B, T, d) and bmm; the key padding mask (True = padding, from eq(0)) and a float query mask (1 = real frame, from ne(0)) are both built by the network in another module; the key mask is filled with -2**32 + 1 before the softmax and the query mask multiplies the weights after it
# why: the key mask is applied before the softmax in the right polarity (masked_fill on the padding positions); the query mask only zeroes whole rows of padded queries, which does not change how any real query distributes its weights, so multiplying after the softmax is correct (the author's answer in issue #20); -2**32 + 1 is representable in the float32 this model trains in
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/soobinseo/Transformer-TTS https://github.com/soobinseo/Transformer-TTS/issues/20 module.py
import math

import torch as t
import torch.nn as nn


class DotAttention(nn.Module):
    def __init__(self, num_hidden_k: int):
        super().__init__()
        self.num_hidden_k = num_hidden_k
        self.attn_dropout = nn.Dropout(p=0.1)

    def forward(self, key, value, query, mask=None, query_mask=None):
        # key, value: (h * B, seq_k, d); query: (h * B, seq_q, d)
        attn = t.bmm(query, key.transpose(1, 2))  # (h * B, seq_q, seq_k)
        attn = attn / math.sqrt(self.num_hidden_k)
        if mask is not None:
            attn = attn.masked_fill(mask, -2 ** 32 + 1)
        attn = t.softmax(attn, dim=-1)
        if query_mask is not None:
            attn = attn * query_mask  # zero the rows of padded queries
        return t.bmm(attn, value), attn


class MultiHeadBlock(nn.Module):
    def __init__(self, num_hidden: int, h: int = 4):
        super().__init__()
        self.num_hidden = num_hidden
        self.per_head = num_hidden // h
        self.h = h
        self.key = nn.Linear(num_hidden, num_hidden, bias=False)
        self.value = nn.Linear(num_hidden, num_hidden, bias=False)
        self.query = nn.Linear(num_hidden, num_hidden, bias=False)
        self.dot = DotAttention(self.per_head)
        self.final_linear = nn.Linear(num_hidden * 2, num_hidden)
        self.layer_norm = nn.LayerNorm(num_hidden)

    def forward(self, memory, decoder_input, mask=None, query_mask=None):
        batch_size, seq_k, seq_q = memory.size(0), memory.size(1), decoder_input.size(1)
        if query_mask is not None:
            query_mask = query_mask.unsqueeze(-1).repeat(1, 1, seq_k)  # (B, seq_q, seq_k)
            query_mask = query_mask.repeat(self.h, 1, 1)  # (h * B, seq_q, seq_k)
        if mask is not None:
            mask = mask.repeat(self.h, 1, 1)  # (h * B, seq_q, seq_k)

        def heads(x, n):
            x = x.view(batch_size, n, self.h, self.per_head)
            return x.permute(2, 0, 1, 3).contiguous().view(-1, n, self.per_head)

        key = heads(self.key(memory), seq_k)
        value = heads(self.value(memory), seq_k)
        query = heads(self.query(decoder_input), seq_q)
        result, attns = self.dot(key, value, query, mask=mask, query_mask=query_mask)
        result = result.view(self.h, batch_size, seq_q, self.per_head).permute(1, 2, 0, 3).contiguous()
        result = self.final_linear(t.cat([decoder_input, result.view(batch_size, seq_q, -1)], dim=-1))
        return self.layer_norm(result + decoder_input), attns
