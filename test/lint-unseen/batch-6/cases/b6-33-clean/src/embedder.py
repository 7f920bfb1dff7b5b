import numpy as np


class Embedder:
    def __init__(self, embed_dim, vocab_size):
        self.embed_dim = embed_dim
        self.weights = np.random.randn(embed_dim, vocab_size) * 0.02  # one column per vocabulary entry

    def get_pos_encoding(self, n):
        pos = np.arange(n)[None, :]
        i = np.arange(self.embed_dim)[:, None]
        angle = pos / np.power(10000, (2 * (i // 2)) / self.embed_dim)
        return np.where(i % 2 == 0, np.sin(angle), np.cos(angle))  # (embed_dim, n)

    def embedding(self, token_ids):
        token_embeddings = self.weights[:, token_ids]  # (embed_dim, n)
        return token_embeddings + self.get_pos_encoding(len(token_ids))
