# case: b11-16-clean
# modelled-on: sebastianvlad1/Transformer https://github.com/sebastianvlad1/Transformer/commit/68545d2a9fbf62294a83902065cb76ebbdf79751
# label: correct
# class: clean
# pattern: the "mathematical trick" step of a from-scratch GPT walk-through: a (B, T, C) batch is averaged over each token's past three ways and the results compared: an explicit loop over x[b, :t + 1], a (T, T) lower-triangular matrix normalised by its row sums and applied with wei @ x, and a (T, T) zero matrix filled with -inf above the diagonal and softmaxed with dim=1
# why: correct: the weight matrices are 2-D (T, T), so dim=1 (and the row sums over dim=1) is the key axis of each row; filling zeros with -inf where tril == 0 and softmaxing gives each row uniform weights over the past, the same averages as the loop; there are no queries or keys yet, so there is nothing to scale; what a naive linter could misread: ATT001 (softmax with dim=1), ATT002 (masked_fill where tril == 0), ATT003 (weights from a softmax with no scale), ATT007 (-inf fill)
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/sebastianvlad1/Transformer https://github.com/sebastianvlad1/Transformer/commit/68545d2a9fbf62294a83902065cb76ebbdf79751 main.py
import torch
from torch.nn import functional as F


def running_means(x):
    B, T, C = x.shape
    # v1: an explicit loop over each token's past
    xbow = torch.zeros(B, T, C)
    for b in range(B):
        for t in range(T):
            xbow[b, t] = torch.mean(x[b, : t + 1], 0)
    # v2: a row-normalised lower triangle
    wei = torch.tril(torch.ones(T, T))
    wei = wei / wei.sum(dim=1, keepdim=True)
    xbow2 = wei @ x
    # v3: the same weights from a masked softmax
    tril = torch.tril(torch.ones(T, T))
    wei = torch.zeros(T, T)
    wei = wei.masked_fill(tril == 0, float("-inf"))
    wei = F.softmax(wei, dim=1)
    xbow3 = wei @ x
    return xbow, xbow2, xbow3


if __name__ == "__main__":
    torch.manual_seed(1337)
    a, b, c = running_means(torch.randn(4, 8, 2))
    print(torch.allclose(a, b), torch.allclose(b, c))
