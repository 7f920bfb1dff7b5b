import torch
import torch.nn as nn


class LuongDot(nn.Module):
    def forward(self, query, keys, lengths):
        # query: (B, h); keys: (B, S, h); lengths: (B,)
        scores = torch.bmm(keys, query.unsqueeze(2)).squeeze(2)  # (B, S)
        pad = torch.arange(keys.size(1), device=keys.device)[None, :] >= lengths[:, None]
        scores = scores.masked_fill(pad, float("-inf"))
        w = torch.softmax(scores, dim=1)
        return torch.bmm(w.unsqueeze(1), keys).squeeze(1)
