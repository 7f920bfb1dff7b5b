# case: b3-34-clean
# modelled-on: LinWeizheDragon/Knowledge-Aware-Graph-Enhanced-GPT-2-for-Dialogue-State-Tracking https://github.com/LinWeizheDragon/Knowledge-Aware-Graph-Enhanced-GPT-2-for-Dialogue-State-Tracking/issues/1
# label: correct
# class: clean
# pattern: graph attention (GAT) over a batch of graph shift operators with several heads and edge features: a_1^T Wx + (a_2^T Wx)^T builds (B, P, E, N, N) logits, a 0/1 edge mask (B, 1, 1, N, N) is multiplied into the logits and (1 - mask) * 1e12 subtracted, the softmax runs over dim=4, and the weights are multiplied by the edge mask again after the softmax
# why: dim=4 of the 5-D logits is j, the neighbour axis, as the maintainer explained in the issue (each row i sums to 1 over its neighbours); the multiplication zeroes the non-edges before the -1e12 offset, and the post-softmax multiplication only re-zeroes weights that are already ~0, so no renormalisation is lost; GAT attention is additive (LeakyReLU of a mixing vector), so there is no 1/sqrt(d); the model runs in float32
# looks-like: ATT001, ATT003, ATT005, ATT006, ATT007
# source: https://github.com/LinWeizheDragon/Knowledge-Aware-Graph-Enhanced-GPT-2-for-Dialogue-State-Tracking https://github.com/LinWeizheDragon/Knowledge-Aware-Graph-Enhanced-GPT-2-for-Dialogue-State-Tracking/issues/1 Src/models/KAGE_GPT2/graph_modules.py
import torch
import torch.nn as nn

zeroTolerance = 1e-9  # values below this number are considered zero
infiniteNumber = 1e12  # infinity equals this number


def learn_attention_gso_batch(x, a, W, W_b, S, negative_slope=0.2):
    """
    x: (B, G, N) node features; a: (P, E, 2F) mixing vectors; W: (P, E, F, G); W_b: (P, E, F);
    S: (B, E, N, N) graph shift operators. Returns the attention GSO (B, P, E, N, N).
    """
    B, G, N = x.shape
    P, E = a.shape[0], a.shape[1]
    F = W.shape[2]

    x = x.reshape([B, 1, 1, G, N])
    Wx = torch.matmul(W.reshape([1, P, E, F, G]), x)  # B x P x E x F x N
    Wx = Wx + W_b.reshape([1, P, E, F, 1])

    a1 = a[:, :, :F]
    a2 = a[:, :, F:]
    a1Wx = torch.matmul(a1.reshape([1, P, E, 1, F]), Wx)  # B x P x E x 1 x N
    a2Wx = torch.matmul(a2.reshape([1, P, E, 1, F]), Wx)  # B x P x E x 1 x N
    # a column vector plus a row vector: e_ij for every pair
    aWx = a1Wx + a2Wx.permute(0, 1, 2, 4, 3)  # B x P x E x N x N
    eij = nn.functional.leaky_relu(aWx, negative_slope=negative_slope)

    # places where there are edges, as a 0/1 matrix
    maskEdges = torch.sum(torch.abs(S.data), dim=1).reshape([B, 1, 1, N, N])
    maskEdges = (maskEdges > zeroTolerance).type(x.dtype)
    # -infinity where there is no edge
    infinityMask = (1 - maskEdges) * infiniteNumber
    aij = nn.functional.softmax(eij * maskEdges - infinityMask, dim=4)
    # re-inforce the zeros
    return aij * maskEdges


class GraphAttentionLayer(nn.Module):
    def __init__(self, G, F, P, E):
        super().__init__()
        self.mixer = nn.Parameter(torch.randn(P, E, 2 * F))
        self.weight = nn.Parameter(torch.randn(P, E, F, G))
        self.weight_bias = nn.Parameter(torch.zeros(P, E, F))

    def forward(self, x, S):
        aij = learn_attention_gso_batch(x, self.mixer, self.weight, self.weight_bias, S)
        B, G, N = x.shape
        P, E, F, _ = self.weight.shape
        Wx = torch.matmul(self.weight.reshape([1, P, E, F, G]), x.reshape([B, 1, 1, G, N]))  # B x P x E x F x N
        # aggregate: y_i = sum_j a_ij W x_j
        y = torch.matmul(Wx, aij.transpose(-1, -2))  # B x P x E x F x N
        return y.sum(dim=2)  # B x P x F x N
