# label: correct
# why: masked attention with the right polarity and scale; the tests assert that padded keys get no weight
import math

import torch
import torch.nn.functional as F


def masked_attention(q, k, v, key_is_pad):
    """q: [B, T, D], k, v: [B, S, D], key_is_pad: [B, S] bool."""
    scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(q.size(-1))
    scores = scores.masked_fill(key_is_pad.unsqueeze(1), float("-inf"))
    weights = F.softmax(scores, dim=-1)
    return torch.bmm(weights, v), weights


def make_inputs(seed=44):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(3, 4, 8, generator=g)
    k = torch.randn(3, 6, 8, generator=g)
    v = torch.randn(3, 6, 8, generator=g)
    lengths = torch.tensor([6, 2, 4])
    key_is_pad = torch.arange(6)[None, :] >= lengths[:, None]
    return q, k, v, key_is_pad


def test_padding_gets_no_weight():
    q, k, v, key_is_pad = make_inputs()
    _, w = masked_attention(q, k, v, key_is_pad)
    assert torch.all(w.masked_select(key_is_pad.unsqueeze(1).expand_as(w)) == 0)


def test_rows_sum_to_one():
    q, k, v, key_is_pad = make_inputs(45)
    _, w = masked_attention(q, k, v, key_is_pad)
    assert torch.allclose(w.sum(-1), torch.ones(3, 4))
