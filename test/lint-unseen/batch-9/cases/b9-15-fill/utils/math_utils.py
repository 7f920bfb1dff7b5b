# case: b9-15-fill
# modelled-on: PSRahul/Transformer_Learner https://github.com/PSRahul/Transformer_Learner/commit/638040bbb4e85de4fb694e9052b07c3b64c65695
# label: buggy
# class: real-bug
# pattern: a learner's vision transformer following a well-known course notebook: a scaled_dot_product helper in a utils module (matmul with the keys' last two axes swapped, divided by sqrt(d_k), masked in place with masked_fill_(mask == 0, <fill>), softmax over the last axis) star-imported by a multi-head module that splits a fused QKV projection per head with reshape + permute
# why: buggy: the masked positions are filled with 1e-15 (a tiny positive number, the course's -9e15 with the sign and exponent lost), which leaves them at roughly the logit of a neutral key instead of removing them, so the 0 entries of the mask still receive weight; the helper's own mask argument (mask == 0 -> hidden) documents the intent; no fix was found (the real multi-head module also projects the permuted heads without merging them back, written here with the reshape)
# source: https://github.com/PSRahul/Transformer_Learner https://github.com/PSRahul/Transformer_Learner/commit/638040bbb4e85de4fb694e9052b07c3b64c65695 utils/math_utils.py
import math

import torch
import torch.nn.functional as F


def scaled_dot_product(query, key, value, mask=None):
    d_k = query.size()[-1]
    attention_logits = torch.matmul(query, key.transpose(-2, -1))
    attention_logits = attention_logits / math.sqrt(d_k)
    if mask is not None:
        attention_logits.masked_fill_(mask == 0, 1e-15)  # expect: ATT007

    attention = F.softmax(attention_logits, dim=-1)
    value = torch.matmul(attention, value)
    return value, attention
