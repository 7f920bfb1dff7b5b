import numpy as np

from npsoftmax import softmax


class Attention:
    def forward(self, query, key, value, mask=None):
        # query, key, value: (batch, h, seq_len, d_k); mask: 1 = keep, broadcastable to the scores
        scores = np.matmul(query, key.transpose(0, 1, 3, 2)) / np.sqrt(query.shape[-1])
        if mask is not None:
            scores = np.where(mask == 0, -1e9, scores)
        p_attn = softmax(scores, dim=-1)
        return np.matmul(p_attn, value), p_attn
