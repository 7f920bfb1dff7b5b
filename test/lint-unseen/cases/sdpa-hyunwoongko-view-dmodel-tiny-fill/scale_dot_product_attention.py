# case: sdpa-hyunwoongko-view-dmodel-tiny-fill
# modelled-on: hyunwoongko/transformer https://github.com/hyunwoongko/transformer/commit/ee92100e496e53ee58190b4a746661a2fb59d246
# label: buggy
# class: real-bug
# pattern: a two-file workspace: the heads are split in multi_head_attention.py and the 4-D [batch, head, length, d_tensor] tensors reach this module; keys "transposed" with view, nn.Softmax() without dim built in __init__, scale from head * d_tensor, fill taken from a keyword default
# why: four bugs, each fixed later in the repository (ee92100, 391c9cd, 9c5515d): nn.Softmax() on 4-D scores uses the legacy dim=1 (the heads); k.view(..., d_tensor, length) reshuffles memory instead of transposing the keys; sqrt(head * d_tensor) is the model width, not d_k; masked_fill(mask == 0, -e) with e=1e-12 leaves the masked scores at ~0, so nothing is masked
# source: https://github.com/hyunwoongko/transformer https://github.com/hyunwoongko/transformer/commit/9b5cf03982c2b77c73c2e3201613053a492b7c23 models/layers/scale_dot_product_attention.py
import math

from torch import nn


class ScaleDotProductAttention(nn.Module):
    """
    compute scale dot product attention

    Query : given sentence that we focused on (decoder)
    Key : every sentence to check relationship with Query (encoder)
    Value : every sentence same with Key (encoder)
    """

    def __init__(self):
        super(ScaleDotProductAttention, self).__init__()
        self.softmax = nn.Softmax()  # expect: ATT001

    def forward(self, q, k, v, mask=None, e=1e-12):
        # input is 4 dimension tensor
        # [batch_size, head, length, d_tensor]
        batch_size, head, length, d_tensor = k.size()
        d_model = head * d_tensor

        # 1. dot product Query with Key^T to compute similarity
        k_t = k.view(batch_size, head, d_tensor, length)  # expect: ATT005
        score = (q @ k_t) / math.sqrt(d_model)  # expect: ATT004

        # 2. apply masking (opt)
        if mask is not None:
            score = score.masked_fill(mask == 0, -e)  # expect: ATT007

        # 3. pass them softmax to make [0, 1] range
        score = self.softmax(score)

        # 4. multiply with Value
        v = score @ v

        return v, score
