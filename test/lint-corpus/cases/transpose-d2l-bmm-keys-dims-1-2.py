# case: transpose-d2l-bmm-keys-dims-1-2
# modelled-on: d2l-ai/d2l-en https://github.com/d2l-ai/d2l-en/pull/1886
# label: correct
# pattern: 3-D keys of unknown rank in the source (function parameters) transposed with transpose(1, 2) inside torch.bmm; masking through a lengths mask (positions < valid length) whose complement is overwritten by index assignment before the softmax
# why: bmm takes (batch, n, d) operands, so transpose(1, 2) is the last two axes; the comment fixed in the PR only reworded how the keys are transposed. The lengths mask keeps positions before each valid length and the assignment writes -1e6 into the rest, a float32-safe fill in code that never runs in half precision
# looks-like: ATT005, ATT002, ATT007
import math

import torch
from torch import nn


def sequence_mask(X, valid_len, value=0.0):
    """Overwrite the entries past each row's valid length with value. X: (n, maxlen); valid_len: (n,)."""
    maxlen = X.size(1)
    mask = torch.arange(maxlen, dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
    X[~mask] = value
    return X


def masked_softmax(X, valid_lens):
    # X: (batch, queries, keys); valid_lens: (batch,) or (batch, queries)
    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    shape = X.shape
    if valid_lens.dim() == 1:
        valid_lens = torch.repeat_interleave(valid_lens, shape[1])
    else:
        valid_lens = valid_lens.reshape(-1)
    X = sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
    return nn.functional.softmax(X.reshape(shape), dim=-1)


class DotProductAttention(nn.Module):
    def __init__(self, dropout):
        super().__init__()
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens=None):
        # queries: (batch, n_q, d); keys: (batch, n_k, d); values: (batch, n_k, d_v)
        d = queries.shape[-1]
        scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)
