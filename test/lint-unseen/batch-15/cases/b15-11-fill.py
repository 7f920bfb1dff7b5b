# case: b15-11-fill
# modelled-on: khusrav13/transformer-implementation https://github.com/khusrav13/transformer-implementation/commit/a162c1af0f9ed29c6d33f5c4dc93230ac89af393
# label: buggy
# class: real-bug
# pattern: an "optimised" encoder-decoder: the scaled dot-product module switches, for sequences longer than 256, to a chunked online-softmax attention (blocks of 64 queries by 64 keys, running max and sum) that fills masked scores with masked_fill(mask_chunk == 0, float('-inf')), takes each block's row max, exponentiates scores - block_max and rescales the running sums with exp(old_max - new_max); short sequences take the plain path that fills with -1e9; masks are keep masks (0 = hidden), causal for the decoder's self-attention
# why: buggy: with a causal (or padding) keep mask, whole 64 x 64 blocks are masked (every key block right of the diagonal, every all-padding key block), so their rows are all -inf, block_max is -inf and scores - block_max is -inf - (-inf) = NaN; the NaN enters chunk_output and chunk_sum and the whole query block's output is NaN once any sequence is longer than 256; the plain path's finite -1e9 fill (or skipping blocks whose max is -inf) is what the online softmax needs; the repository never fixed it
# source: https://github.com/khusrav13/transformer-implementation https://github.com/khusrav13/transformer-implementation/commit/a162c1af0f9ed29c6d33f5c4dc93230ac89af393 transformer_phase2/components/attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ChunkedAttention(nn.Module):
    """Online-softmax attention over blocks, never materialising the full score matrix."""

    def __init__(self, dropout=0.1, block_size=64):
        super().__init__()
        self.dropout = dropout
        self.block_size = block_size

    def forward(self, query, key, value, mask=None):
        b, h, lq, d_k = query.shape
        lk = key.shape[2]
        scale = 1.0 / math.sqrt(d_k)
        out = torch.zeros_like(query)

        for i in range(0, lq, self.block_size):
            i_end = min(i + self.block_size, lq)
            q_blk = query[:, :, i:i_end, :]
            acc = torch.zeros_like(q_blk)
            run_max = torch.full((b, h, i_end - i, 1), float("-inf"), device=query.device)
            run_sum = torch.zeros_like(run_max)

            for j in range(0, lk, self.block_size):
                j_end = min(j + self.block_size, lk)
                scores = torch.matmul(q_blk, key[:, :, j:j_end, :].transpose(-2, -1)) * scale
                if mask is not None:
                    scores = scores.masked_fill(mask[:, :, i:i_end, j:j_end] == 0, float("-inf"))  # expect: ATT007

                blk_max = scores.max(dim=-1, keepdim=True)[0]
                p = torch.exp(scores - blk_max)
                blk_sum = p.sum(dim=-1, keepdim=True)

                new_max = torch.maximum(run_max, blk_max)
                old_w = torch.exp(run_max - new_max)
                new_w = torch.exp(blk_max - new_max)
                acc = acc * old_w + torch.matmul(p * new_w, value[:, :, j:j_end, :])
                run_sum = run_sum * old_w + blk_sum * new_w
                run_max = new_max

            out[:, :, i:i_end, :] = acc / run_sum
        return out, None


class DotProductAttention(nn.Module):
    def __init__(self, dropout=0.1, chunk_long=True):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        self.chunk_long = chunk_long
        self.chunked = ChunkedAttention(dropout)
        self.long_threshold = 256

    def forward(self, query, key, value, mask=None):
        if self.chunk_long and query.shape[2] > self.long_threshold:
            if mask is None and hasattr(F, "scaled_dot_product_attention"):
                return F.scaled_dot_product_attention(query, key, value, is_causal=False), None
            return self.chunked(query, key, value, mask)

        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(query.shape[-1])
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e9)
        weights = self.dropout(F.softmax(scores, dim=-1))
        return torch.matmul(weights, value), weights
