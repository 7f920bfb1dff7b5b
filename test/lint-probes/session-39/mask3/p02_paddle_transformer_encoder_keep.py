import paddle
import paddle.nn as nn

layer = nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128)
encoder = nn.TransformerEncoder(layer, num_layers=2)


def encode(x, ids):
    # Paddle's src_mask: bool, True = attend (the opposite of PyTorch's)
    src_mask = paddle.unsqueeze(ids != 0, axis=[1, 2])
    return encoder(x, src_mask=src_mask)
