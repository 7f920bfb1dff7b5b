# case: fill-torchbench-bert-dtype-aware
# modelled-on: pytorch/benchmark https://github.com/pytorch/benchmark/pull/794
# label: correct
# pattern: the fix: the masked fill value is chosen from the scores' dtype (torch.finfo(scores.dtype).min), so the same module works in fp32 and in the fp16 harness
# why: finfo(dtype).min is representable in every float dtype; mask == 0 selects the padding of the keep mask
# looks-like: ATT007, ATT002
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def forward(self, query, key, value, mask=None, dropout=None):
        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(query.size(-1))
        if mask is not None:
            min_mask = torch.finfo(scores.dtype).min
            scores = scores.masked_fill(mask == 0, min_mask)
        p_attn = F.softmax(scores, dim=-1)
        if dropout is not None:
            p_attn = dropout(p_attn)
        return torch.matmul(p_attn, value), p_attn


def run_fp16(model: nn.Module, tokens: torch.Tensor, segment: torch.Tensor) -> torch.Tensor:
    model = model.cuda().half().eval()
    mask = (tokens > 0).unsqueeze(1).repeat(1, tokens.size(1), 1).unsqueeze(1)
    with torch.no_grad():
        return model(tokens.cuda(), segment.cuda(), mask.cuda())
