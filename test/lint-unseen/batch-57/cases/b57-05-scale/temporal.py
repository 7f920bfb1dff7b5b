# case: b57-05-scale
# modelled-on: brophya/SCAN-AAAI2021 https://github.com/brophya/SCAN-AAAI2021/commit/aee2056a87ece88cf47f4d90f5fb4205c304ddb2
# label: buggy
# class: real-bug
# pattern: the temporal attention of a pedestrian-trajectory decoder that, at each predicted step, attends from every pedestrian's decoder state to that pedestrian's encoder states over the observed steps (a folder: the attention module, whose scale attribute is attention_dim ** -0.5 and whose weights are multiplied by the observation mask after the softmax, and the decoder loop that stacks the encoder states and passes the (batch, pedestrians, obs_len) observation mask)
# why: buggy: `self.scale` is the usual multiplier attention_dim ** -0.5, but the scores are divided by it, i.e. multiplied by sqrt(attention_dim) (the same method divided by math.sqrt(self.attention_dim) in the repository's earlier version before the attribute was introduced); and the observation mask, which marks the steps at which a pedestrian was actually observed, is multiplied into the weights after the softmax, so unobserved steps still take part in the normalisation and the remaining weights no longer sum to one (the earlier version filled the unobserved scores before the softmax)
# source: https://github.com/brophya/SCAN-AAAI2021 https://github.com/brophya/SCAN-AAAI2021/commit/aee2056a87ece88cf47f4d90f5fb4205c304ddb2 attention.py
import torch
import torch.nn as nn


class TemporalAttention(nn.Module):
    """Dot-product attention of a decoder state over one pedestrian's observed encoder states."""

    def __init__(self, encoder_dim: int, decoder_dim: int, attention_dim: int, obs_len: int):
        super().__init__()
        self.obs_len = obs_len
        self.attention_dim = attention_dim
        self.key_proj = nn.Linear(encoder_dim, decoder_dim, bias=False)
        self.merge = nn.Sequential(nn.Linear(2 * attention_dim, attention_dim), nn.Tanh())
        self.softmax = nn.Softmax(dim=2)
        self.scale = float(attention_dim) ** -0.5

    def scores(self, keys: torch.Tensor, query: torch.Tensor, observed: torch.Tensor) -> torch.Tensor:
        # keys: (B, P, obs_len, D); query: (B, P, D); observed: (B, P, obs_len) in {0, 1}
        logits = (keys @ query.unsqueeze(-1)).squeeze(-1)
        logits = logits.div(self.scale)  # expect: ATT004
        weights = self.softmax(logits)
        weights = weights * observed  # expect: ATT006
        return weights

    def forward(self, decoder_state: torch.Tensor, encoder_states: torch.Tensor, observed: torch.Tensor):
        keys = self.key_proj(encoder_states.squeeze(2))
        weights = self.scores(keys, decoder_state, observed)
        context = (weights.unsqueeze(2) @ keys).squeeze(2)
        merged = self.merge(torch.cat((context, decoder_state), dim=2))
        return merged, weights
