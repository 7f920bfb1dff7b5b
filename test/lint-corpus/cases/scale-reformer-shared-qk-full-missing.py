# case: scale-reformer-shared-qk-full-missing
# modelled-on: lucidrains/reformer-pytorch https://github.com/lucidrains/reformer-pytorch/commit/3becb66fc141a7204f58981c41eeabcd0bd85fab
# label: buggy
# pattern: shared-QK full attention (the fallback beside LSH attention): the keys are the L2-normalised shared projection, the queries its raw first query_len rows; einsum 'bie,bje->bij', self-attention masked by index assignment, optional causal triangle, softmax
# why: nothing scales the logits by 1/sqrt(dim): the queries are not normalised, so the logits grow with the width and the softmax saturates. Fixed in "fix scaling missing for full qk attention" (`* (dim ** -0.5)` on the einsum)
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
        query_len = default(query_len, qk.shape[1])
        t = query_len

        q = qk[:, 0:query_len]
        qk = F.normalize(qk, 2, dim=-1).type(q.type())

        dot = torch.einsum('bie,bje->bij', q, qk)

        # shared-QK attention must not let a token attend to itself
        i = torch.arange(t)
        dot[:, i, i] = TOKEN_SELF_ATTN_VALUE

        if self.causal:
            i, j = torch.triu_indices(t, t, 1)
            dot[:, i, j] = float('-inf')

        dot = dot.softmax(dim=-1)  # expect: ATT003
        out = torch.einsum('bij,bje->bie', dot, v)
        return out, dot
