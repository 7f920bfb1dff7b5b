# case: b54-03-clean
# modelled-on: imranrimon/Word-Level-Bangla-Sign-Language-Recognition https://github.com/imranrimon/Word-Level-Bangla-Sign-Language-Recognition/commit/b8f9848c57dc77f31a6a2ec5f6c4c3946ab43016
# label: correct
# class: clean
# pattern: self-attention over the joints of a hand/body skeleton with a graph-distance positional term (a folder: the skeleton graph module that lists the bones of each layout and the attention module that turns the bones into all-pairs hop distances with scipy's shortest_path, keeps them as a learnable (V, V, 1) table, maps them through a small MLP to one score per head and softmaxes that positional map over the key joints; the content map softmaxed the same way is added to it before the values are weighted)
# why: correct: both maps are (B, heads, V, V) with the key joints last and each is normalised over dim=-1; content scores are multiplied by head_dim ** -0.5 (qk_scale overrides it only when given); summing two normalised maps is the method's design (content and hop-distance attention each sum to one, the sum to two, a fixed factor the projection absorbs), and no position is masked, so adding after the softmax removes nothing
# looks-like: ATT003, ATT006
# source: https://github.com/imranrimon/Word-Level-Bangla-Sign-Language-Recognition https://github.com/imranrimon/Word-Level-Bangla-Sign-Language-Recognition/commit/b8f9848c57dc77f31a6a2ec5f6c4c3946ab43016 model/attention.py
import numpy as np
import torch
import torch.nn as nn
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path

from skeleton import Skeleton


class HopBiasedJointAttention(nn.Module):
    def __init__(self, dim, out_dim, num_heads=8, qkv_bias=False, qk_scale=None,
                 attn_drop=0.0, proj_drop=0.0, num_joints=27):
        super().__init__()
        self.heads = num_heads
        head_dim = dim // num_heads
        self.scale = qk_scale or head_dim ** -0.5
        self.to_qk = nn.Linear(dim, 2 * dim, bias=qkv_bias)
        self.to_v = nn.Linear(dim, dim, bias=qkv_bias)
        self.hops = nn.Parameter(self._hop_table(num_joints), requires_grad=True)
        self.hop_mlp = nn.Sequential(nn.Linear(1, 64), nn.ReLU(inplace=True), nn.Linear(64, num_heads, bias=False))
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = nn.Linear(dim, out_dim)
        self.proj_drop = nn.Dropout(proj_drop)

    @staticmethod
    def _hop_table(num_joints):
        layout = {27: "hands27", 25: "ntu25", 18: "openpose18"}[num_joints]
        sk = Skeleton(layout)
        src, dst = np.array(sk.bones).T
        adj = csr_matrix((np.ones_like(src), (src, dst)), shape=(sk.num_joints, sk.num_joints))
        dist = shortest_path(csgraph=adj, directed=False)
        return torch.tensor(dist, dtype=torch.float32).unsqueeze(-1)  # (V, V, 1)

    def forward(self, x):
        b, v, c = x.shape
        qk = self.to_qk(x).reshape(b, v, 2, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        q, k = qk[0], qk[1]
        content = ((q @ k.transpose(-2, -1)) * self.scale).softmax(dim=-1)

        pos = self.hop_mlp(self.hops.expand(b, -1, -1, -1))  # (B, V, V, heads)
        pos = pos.permute(0, 3, 1, 2).softmax(dim=-1)

        attn = self.attn_drop(content + pos)
        vals = self.to_v(x).reshape(b, v, self.heads, c // self.heads).transpose(1, 2)
        out = (attn @ vals).transpose(1, 2).reshape(b, v, c)
        return self.proj_drop(self.proj(out))
