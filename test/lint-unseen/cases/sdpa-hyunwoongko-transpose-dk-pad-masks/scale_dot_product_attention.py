# case: sdpa-hyunwoongko-transpose-dk-pad-masks
# modelled-on: hyunwoongko/transformer https://github.com/hyunwoongko/transformer/commit/391c9cd469cd17ce3af26cb10078978e6a44c142
# label: correct
# class: fixed
# pattern: a three-file workspace after the fixes: heads split in multi_head_attention.py, keep masks (1 = attend) built in transformer.py from != pad and a tril, used here with masked_fill(mask == 0, ...); the keys are transposed with transpose(2, 3) on the 4-D tensor
# why: transpose(2, 3) swaps length and d_tensor of [batch, head, length, d_tensor] keys (the last two axes), the scale is sqrt(d_tensor) = sqrt(d_k), the softmax is over the last (key) axis, the keep masks are inverted with == 0 before masked_fill, and -10000 is far below any float32 score
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/hyunwoongko/transformer https://github.com/hyunwoongko/transformer/commit/63286547b9cd174a6cfc204832271814d685181f models/layers/scale_dot_product_attention.py
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
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, q, k, v, mask=None, e=1e-12):
        # input is 4 dimension tensor
        # [batch_size, head, length, d_tensor]
        batch_size, head, length, d_tensor = k.size()

        # 1. dot product Query with Key^T to compute similarity
        k_t = k.transpose(2, 3)  # transpose
        score = (q @ k_t) / math.sqrt(d_tensor)  # scaled dot product

        # 2. apply masking (opt)
        if mask is not None:
            score = score.masked_fill(mask == 0, -10000)

        # 3. pass them softmax to make [0, 1] range
        score = self.softmax(score)

        # 4. multiply with Value
        v = score @ v

        return v, score
