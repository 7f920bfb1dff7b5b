import mxnet as mx
import numpy as np
from mxnet.gluon import nn
from mxnet.gluon.nn import HybridBlock

from bst.blocks import get_attention_cell

SEQ_LEN = 32
OTHER_LEN = 32
EMB_DIM = 32
NUM_HEADS = 8
DROP = 0.2
UNITS = 32


def position_encoding(max_length, dim):
    enc = np.arange(max_length).reshape((-1, 1)) / np.power(10000, (2.0 / dim) * np.arange(dim).reshape((1, -1)))
    enc[:, 0::2] = np.sin(enc[:, 0::2])
    enc[:, 1::2] = np.cos(enc[:, 1::2])
    return enc


class Rec(HybridBlock):
    """One self-attention block over the behaviour sequence, concatenated with other features."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.other_features = nn.Embedding(input_dim=OTHER_LEN, output_dim=EMB_DIM)
            self.features = nn.Embedding(input_dim=SEQ_LEN, output_dim=EMB_DIM)
            self.cell = get_attention_cell("multi_head", units=UNITS, scaled=True, dropout=DROP,
                                           num_heads=NUM_HEADS, use_bias=False)
            self.proj = nn.Dense(units=UNITS, use_bias=False, flatten=False)
            self.drop = nn.Dropout(DROP)
            self.norm = nn.LayerNorm(in_channels=UNITS)
            self.out = nn.Dense(units=1, flatten=True)

    def hybrid_forward(self, F, x, x_other, mask=None):
        other = self.other_features(x_other)
        steps = F.contrib.arange_like(x, axis=1)
        x = self.features(x)
        pos = mx.nd.array(position_encoding(SEQ_LEN, UNITS))
        x = F.broadcast_add(x, F.expand_dims(F.Embedding(steps, pos, SEQ_LEN, UNITS), axis=0))
        attended, _ = self.cell(x, x, x, mask)
        h = self.norm(x + self.drop(self.proj(attended)))
        return self.out(F.concat(h.reshape((0, -1)), other.reshape((0, -1)), dim=1))
