# case: b39-02-clean
# modelled-on: jshe2304/molecular_attention_bias https://github.com/jshe2304/molecular_attention_bias/commit/cca393038397597512fea015a73bb6e40a8a27be
# label: correct
# class: clean
# pattern: a molecular transformer with distance-based attention biases (a folder: the attention module, the power-law bias, and the model that builds the mask); per-head logits q @ k^T * head_width ** -0.5 get an additive bias p * log||r_i - r_j|| from interatomic distances, then masked_fill(mask, finfo.min) and a softmax over the last axis; the model builds the mask as (pad_i | pad_j) | eye(L) with True = blocked, so padded atoms and each atom's own position (distance 0, where the log bias is singular) take no weight
# why: correct: masked_fill writes finfo.min where the mask is True, and the model's mask is True exactly on the pairs to exclude (padding on either side, and the diagonal), which is the documented convention of the whole project; the 1/sqrt(head width) scale is applied to the dot products before the bias; rows of padded atoms are entirely masked and become uniform rather than NaN because the fill is finite, and their outputs are zeroed after the MLP; the masked diagonal is intended (the bias is log-distance)
# looks-like: ATT002, ATT007
# source: https://github.com/jshe2304/molecular_attention_bias https://github.com/jshe2304/molecular_attention_bias/commit/cca393038397597512fea015a73bb6e40a8a27be src/models/modules/attention.py
import torch
import torch.nn as nn


class BiasedSelfAttention(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        assert width % heads == 0
        self.heads = heads
        self.head_width = width // heads
        self.scale = self.head_width ** -0.5
        self.to_qkv = nn.Linear(width, 3 * width, bias=False)
        self.normalise = nn.Softmax(dim=-1)
        self.proj = nn.Linear(width, width, bias=False)

    def forward(self, tokens, blocked=None, bias=None):
        n_mol, n_atoms, width = tokens.shape

        packed = self.to_qkv(tokens).reshape(n_mol, n_atoms, self.heads, 3 * self.head_width)
        q, k, v = packed.permute(0, 2, 1, 3).chunk(3, dim=-1)

        logits = (q @ k.transpose(-2, -1)) * self.scale
        if bias is not None:
            logits = logits + bias
        if blocked is not None:
            logits = logits.masked_fill(blocked, torch.finfo(logits.dtype).min)
        weights = self.normalise(logits)

        mixed = (weights @ v).permute(0, 2, 1, 3).reshape(n_mol, n_atoms, width)
        return self.proj(mixed)
