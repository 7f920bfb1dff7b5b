# case: b11-09-clean
# modelled-on: MislavJuric/transformer-from-scratch https://github.com/MislavJuric/transformer-from-scratch/commit/2202ce25e4c57f5544d8b9bfeff5e8c6c50567eb
# label: correct
# class: clean
# pattern: a paper re-implementation that works on one unbatched (tokens, d_model) sequence at a time: each head is its own module with d_k = 64 projections, scores torch.div(matmul(Q, transpose(K, -2, -1)), sqrt(d_k)) through an nn.Softmax(dim=-1) built in __init__; the decoder's look-ahead mask is a zero matrix with -inf written above the diagonal in a double loop, added to the scores before the division; a one-token input takes a vector path (matmul of two vectors); the multi-head layer concatenates 8 heads along dim=1
# why: correct: the tensors are 2-D, so transpose(K, -2, -1) swaps tokens and features and dim=-1 of the (tokens, tokens) scores is the key axis; -inf divided by sqrt(d_k) stays -inf, so adding the mask before the scale hides the same positions; d_k is each head's own width; what a naive linter could misread: ATT001 (an nn.Softmax module applied to scores of changing rank), ATT002 (a hand-built additive mask), ATT006 (a mask added before the division by the scale), ATT007 (-inf written into a float matrix)
# looks-like: ATT001, ATT002, ATT006, ATT007
# source: https://github.com/MislavJuric/transformer-from-scratch https://github.com/MislavJuric/transformer-from-scratch/commit/2202ce25e4c57f5544d8b9bfeff5e8c6c50567eb layers/ScaledDotProductAttention.py
import torch

from layers.dot_attention import DotAttention


class MultiHead(torch.nn.Module):
    def __init__(self, d_model=512, h=8, d_k=64, d_v=64, masking=False):
        super().__init__()
        self.heads = torch.nn.ModuleList([DotAttention(d_model=d_model, d_k=d_k, d_v=d_v, masking=masking) for _ in range(h)])
        self.out = torch.nn.Linear(h * d_v, d_model)

    def forward(self, embeddings):
        results = [head(embeddings) for head in self.heads]
        return self.out(torch.cat(results, dim=1))


if __name__ == "__main__":
    layer = MultiHead(masking=True)
    print(layer(torch.randn(10, 512)).shape)
