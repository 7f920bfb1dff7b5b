# case: b28-04-clean
# modelled-on: CHANDRASHEKHAR234/NLP https://github.com/CHANDRASHEKHAR234/NLP/commit/5e02981d8fd4100f7054839703abc503acdc99cb
# label: correct
# class: clean
# pattern: a student's NLP notebook-script: a three-line scaled dot-product attention, d = q.size(-1), scores = q @ k.transpose(-2, -1) / d ** 0.5, softmax over dim=-1, returned with the weights; called as self-attention on a random (1, 4, 8) tensor
# why: correct: the keys are transposed on their last two axes, the scale is the square root of the feature width q.size(-1), and the softmax normalises over the key axis; there is no mask to apply
# looks-like: ATT001, ATT004
# source: https://github.com/CHANDRASHEKHAR234/NLP https://github.com/CHANDRASHEKHAR234/NLP/commit/5e02981d8fd4100f7054839703abc503acdc99cb NLP/tinaya.py
import torch
import torch.nn.functional as F


def sdpa(query, key, value):
    d = query.size(-1)
    scores = query @ key.transpose(-2, -1) / d**0.5
    probs = F.softmax(scores, dim=-1)
    return probs @ value, probs


q = torch.randn(1, 4, 8)
out, probs = sdpa(x, x, x)
print(out.shape, probs.shape)
