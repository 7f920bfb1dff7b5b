# case: clean-allennlp-masked-softmax-renormalise
# modelled-on: allenai/allennlp https://github.com/allenai/allennlp/blob/main/allennlp/modules/attention/dot_product_attention.py
# label: correct
# class: clean
# pattern: a three-file workspace: a dot-product attention subclass computes (batch, num_rows) similarities with bmm + squeeze, its base class in attention.py normalises them with masked_softmax from util.py, which (by default) multiplies the scores by the keep mask, takes the softmax, multiplies the weights by the mask again and renormalises them by their sum; the memory-efficient branch fills ~mask with finfo(dtype).min instead
# why: the weights are renormalised after the mask is applied, so they sum to 1 over the rows that are kept and the masked rows get exactly 0: a mask after the softmax followed by renormalisation is a correct masked softmax; the squeeze(-1) leaves (batch, num_rows), so dim=-1 is the row axis; unscaled dot attention is the module's documented choice
# looks-like: ATT001, ATT003, ATT006
# source: https://github.com/allenai/allennlp https://github.com/allenai/allennlp/commit/13698361cf50fc031ba6c37140c374f98fc7f5de allennlp/modules/attention/dot_product_attention.py
import torch

from attention import Attention


class DotProductAttention(Attention):
    """
    Computes attention between a vector and a matrix using dot product.
    """

    def _forward_internal(self, vector: torch.Tensor, matrix: torch.Tensor) -> torch.Tensor:
        return matrix.bmm(vector.unsqueeze(-1)).squeeze(-1)
