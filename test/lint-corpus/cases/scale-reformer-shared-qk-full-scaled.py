# case: scale-reformer-shared-qk-full-scaled
# modelled-on: lucidrains/reformer-pytorch https://github.com/lucidrains/reformer-pytorch/commit/3becb66fc141a7204f58981c41eeabcd0bd85fab
# label: correct
# pattern: shared-QK full attention (the fallback beside LSH attention): the keys are the L2-normalised shared projection, the queries its raw first query_len rows; einsum 'bie,bje->bij', self-attention masked by index assignment, optional causal triangle, softmax
# why: the fixed form: the einsum of the raw queries and the normalised shared keys is multiplied by dim ** -0.5, the width read off the input's shape
# looks-like: ATT003, ATT002, ATT007
import torch
import torch.nn.functional as F
from torch import nn

TOKEN_SELF_ATTN_VALUE = -5e4


def default(val, d):
    return d if val is None else val


class FullQKAttention(nn.Module):
    def __init__(self, causal=False):
        super().__init__()
        self.causal = causal

    def forward(self, qk, v, query_len=None):
        _, seq_len, dim = qk.shape
        query_len = default(query_len, seq_len)
        t = query_len

        q = qk[:, 0:query_len]
        qk = F.normalize(qk, 2, dim=-1).type(q.type())

        dot = torch.einsum('bie,bje->bij', q, qk) * (dim ** -0.5)

        # shared-QK attention must not let a token attend to itself
        i = torch.arange(t)
        dot[:, i, i] = TOKEN_SELF_ATTN_VALUE

        if self.causal:
            i, j = torch.triu_indices(t, t, 1)
            dot[:, i, j] = float('-inf')

        dot = dot.softmax(dim=-1)
        out = torch.einsum('bij,bje->bie', dot, v)
        return out, dot
