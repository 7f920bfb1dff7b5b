# case: b11-12-mask
# modelled-on: iZcy/transformer-numpy https://github.com/iZcy/transformer-numpy/commit/1912a716aeb030399d2c71d698743996bd9f2064
# label: buggy
# class: real-bug
# pattern: a course assignment GPT in plain NumPy: a causal-mask helper returns np.triu(np.ones((T, T)), k=1) (1 on the future), the scaled dot-product class fills the scores with -1e9 where mask == 0 via np.where and softmaxes over the last axis; the multi-head class splits heads with reshape + transpose(0, 2, 1, 3) and the keys are transposed with transpose(0, 1, 3, 2); the model builds the mask once per forward and passes it to every block
# why: buggy: the helper marks the future with 1 and the past and diagonal with 0, and the attention fills where mask == 0, so every token is blocked from itself and its past and may attend only to later tokens (the last token has nothing left and gets uniform weights); the README and the helper's name say the mask prevents attending to future tokens; an earlier commit added the same 0/1 mask to the scores instead; no fix followed
# source: https://github.com/iZcy/transformer-numpy https://github.com/iZcy/transformer-numpy/commit/1912a716aeb030399d2c71d698743996bd9f2064 transformer.py
import numpy as np


def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


class ScaledDotProductAttention:
    def forward(self, Q, K, V, mask=None):
        # Q, K, V: (batch, seq_len, d_k) or (batch, heads, seq_len, d_k)
        d_k = Q.shape[-1]
        if Q.ndim == 4:
            scores = np.matmul(Q, K.transpose(0, 1, 3, 2)) / np.sqrt(d_k)
        else:
            scores = np.matmul(Q, K.transpose(0, 2, 1)) / np.sqrt(d_k)
        if mask is not None:
            scores = np.where(mask == 0, -1e9, scores)  # expect: ATT002
        weights = softmax(scores, axis=-1)
        return np.matmul(weights, V), weights


class MultiHeadAttention:
    def __init__(self, d_model, num_heads):
        self.d_model, self.num_heads = d_model, num_heads
        self.d_k = d_model // num_heads
        self.W_q, self.W_k, self.W_v, self.W_o = (np.random.randn(d_model, d_model) * 0.01 for _ in range(4))
        self.attention = ScaledDotProductAttention()

    def split_heads(self, x, batch, seq_len):
        return x.reshape(batch, seq_len, self.num_heads, self.d_k).transpose(0, 2, 1, 3)

    def forward(self, x, mask=None):
        batch, seq_len, _ = x.shape
        Q = self.split_heads(x @ self.W_q, batch, seq_len)
        K = self.split_heads(x @ self.W_k, batch, seq_len)
        V = self.split_heads(x @ self.W_v, batch, seq_len)
        out, _ = self.attention.forward(Q, K, V, mask)
        out = out.transpose(0, 2, 1, 3).reshape(batch, seq_len, self.d_model)
        return out @ self.W_o


def create_causal_mask(seq_len):
    mask = np.triu(np.ones((seq_len, seq_len)), k=1)
    return mask


class TinyGPT:
    def __init__(self, vocab_size, d_model, num_heads, num_layers):
        self.embed = np.random.randn(vocab_size, d_model) * 0.01
        self.blocks = [MultiHeadAttention(d_model, num_heads) for _ in range(num_layers)]
        self.out = np.random.randn(d_model, vocab_size) * 0.01

    def forward(self, tokens):
        _, seq_len = tokens.shape
        mask = create_causal_mask(seq_len)
        x = self.embed[tokens]
        for block in self.blocks:
            x = x + block.forward(x, mask)
        logits = x @ self.out
        return logits, softmax(logits[:, -1, :], axis=-1)


if __name__ == "__main__":
    model = TinyGPT(50, 16, 4, 2)
    print(model.forward(np.random.randint(0, 50, (2, 6)))[0].shape)
