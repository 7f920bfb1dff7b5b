import numpy as np

from attention.single import Attention


class MultiHeadedAttention:
    def __init__(self, h, d_model):
        assert d_model % h == 0
        self.d_k = d_model // h
        self.h = h
        self.linear_layers = [np.random.randn(d_model, d_model) * 0.02 for _ in range(3)]
        self.output_linear = np.random.randn(d_model, d_model) * 0.02
        self.attention = Attention()

    def forward(self, query, key, value, mask=None):
        batch = query.shape[0]
        query, key, value = [
            np.matmul(x, w).reshape(batch, -1, self.h, self.d_k).transpose(0, 2, 1, 3)
            for w, x in zip(self.linear_layers, (query, key, value))
        ]
        x, _ = self.attention.forward(query, key, value, mask=mask)
        x = x.transpose(0, 2, 1, 3).reshape(batch, -1, self.h * self.d_k)
        return np.matmul(x, self.output_linear)
