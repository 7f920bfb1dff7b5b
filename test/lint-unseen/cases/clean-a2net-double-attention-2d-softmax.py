# case: clean-a2net-double-attention-2d-softmax
# modelled-on: gjylt/DoubleAttentionNet https://github.com/gjylt/DoubleAttentionNet/issues/3
# label: correct
# class: clean
# pattern: A^2-Net double attention: feature maps are viewed/permuted into 2-D matrices (batch*c_n, K*h*w) and (b*h*w, c_n) before an nn.Softmax() built without dim in __init__, then viewed back to 3-D and permuted before the two matmuls (gather, then distribute)
# why: both softmax inputs are 2-D, where PyTorch's implicit dim is 1, the last axis: the gathering weights are normalised over the K*h*w positions and the distributing weights over the c_n descriptors, as the paper defines; the reporter proposed dim=-1 and then closed it as solved, the two being the same on 2-D inputs
# looks-like: ATT001, ATT003
# source: https://github.com/gjylt/DoubleAttentionNet https://github.com/gjylt/DoubleAttentionNet/commit/0408c3dcad518d8af50d905b429ab22489a3e803 DoubleAttentionLayer.py
from torch import nn


class DoubleAttentionLayer(nn.Module):
    def __init__(self, in_channels, c_m, c_n, k=1):
        super(DoubleAttentionLayer, self).__init__()
        self.K = k
        self.c_m = c_m
        self.c_n = c_n
        self.softmax = nn.Softmax()
        self.in_channels = in_channels

        self.convA = nn.Conv2d(in_channels, c_m, 1)
        self.convB = nn.Conv2d(in_channels, c_n, 1)
        self.convV = nn.Conv2d(in_channels, c_n, 1)

    def forward(self, x):
        b, c, h, w = x.size()
        assert c == self.in_channels, 'input channel not equal!'

        A = self.convA(x)
        B = self.convB(x)
        V = self.convV(x)

        batch = int(b / self.K)

        tmpA = A.view(batch, self.K, self.c_m, h * w).permute(0, 2, 1, 3).view(batch, self.c_m, self.K * h * w)
        tmpB = B.view(batch, self.K, self.c_n, h * w).permute(0, 2, 1, 3).view(batch * self.c_n, self.K * h * w)
        tmpV = V.view(batch, self.K, self.c_n, h * w).permute(0, 1, 3, 2).contiguous().view(int(b * h * w), self.c_n)

        softmaxB = self.softmax(tmpB).view(batch, self.c_n, self.K * h * w).permute(0, 2, 1)  # batch, K*h*w, c_n
        softmaxV = self.softmax(tmpV).view(batch, self.K * h * w, self.c_n).permute(0, 2, 1)  # batch, c_n, K*h*w

        tmpG = tmpA.matmul(softmaxB)  # batch, c_m, c_n
        tmpZ = tmpG.matmul(softmaxV)  # batch, c_m, K*h*w
        return tmpZ.view(batch, self.c_m, self.K, h * w).permute(0, 2, 1, 3).view(int(b), self.c_m, h, w)
