# case: b7-04-scale
# modelled-on: atikul-islam-sajib/TransformerScratch https://github.com/atikul-islam-sajib/TransformerScratch/commit/bc84b97969739f5866268fabe4cc995db734df03
# label: buggy
# class: real-bug
# pattern: a from-scratch encoder-decoder transformer split into one module per piece: the multi-head layer views a fused QKV projection as (B, T, heads, d_k), permutes to (B, heads, T, d_k) and calls scaled_dot_product from its own module, which divides the scores by sqrt(query.size(1) * query.size(3)) and adds an additive padding mask built by a helper in mask.py from the tokenizer's keep mask
# why: buggy: query.size(1) is the number of heads and query.size(3) the head width, so the scores are divided by sqrt(heads * d_k) = sqrt(d_model) instead of the paper's sqrt(d_k) (the module's own __main__ runs it on (40, 8, 200, 64): a factor sqrt(8) too small); no fix was found, the label rests on the paper's 1/sqrt(d_k) that the repository implements
# source: https://github.com/atikul-islam-sajib/TransformerScratch https://github.com/atikul-islam-sajib/TransformerScratch/commit/bc84b97969739f5866268fabe4cc995db734df03 src/scaled_dot_product.py
import math

import torch

from mask import padding_mask


def scaled_dot_product(query: torch.Tensor, key: torch.Tensor, values: torch.Tensor, mask=None):
    # query, key, values: (B, heads, T, d_k)
    result = torch.matmul(query, key.transpose(-1, -2)) / math.sqrt(query.size(1) * query.size(3))  # expect: ATT004
    if mask is not None:
        result += padding_mask(mask=mask)
    result = torch.softmax(input=result, dim=-1)
    return torch.matmul(result, values)


if __name__ == "__main__":
    out = scaled_dot_product(torch.randn(40, 8, 200, 64), torch.randn(40, 8, 200, 64), torch.randn(40, 8, 200, 64))
    print(out.size())
