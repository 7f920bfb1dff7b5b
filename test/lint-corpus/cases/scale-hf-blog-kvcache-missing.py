# case: scale-hf-blog-kvcache-missing
# modelled-on: huggingface/blog https://github.com/huggingface/blog/pull/2893
# label: buggy
# pattern: a KV-cache walkthrough: keys and values are appended to a cache each step and the new query attends over the whole cache; the score line has no 1/sqrt(d_k) although the formula above it does
# why: without the scale the logits grow with d_k and the softmax saturates towards one-hot weights
import torch
import torch.nn.functional as F


class KVCache:
    def __init__(self):
        self.keys = None  # (B, S, d_k)
        self.values = None

    def update(self, k: torch.Tensor, v: torch.Tensor):
        if self.keys is None:
            self.keys, self.values = k, v
        else:
            self.keys = torch.cat([self.keys, k], dim=1)
            self.values = torch.cat([self.values, v], dim=1)
        return self.keys, self.values


def attention_step(x_t: torch.Tensor, W_q: torch.Tensor, W_k: torch.Tensor, W_v: torch.Tensor, cache: KVCache) -> torch.Tensor:
    """x_t: (B, 1, d_model), the newest token; returns (B, 1, d_k)."""
    Q = x_t @ W_q  # (B, 1, d_k)
    K_new = x_t @ W_k
    V_new = x_t @ W_v
    K, V = cache.update(K_new, V_new)  # (B, S, d_k)

    attention_scores = torch.matmul(Q, K.transpose(-2, -1))
    # attention_weights: (B, 1, S)
    attention_weights = F.softmax(attention_scores, dim=-1)  # expect: ATT003
    return torch.matmul(attention_weights, V)


def generate_states(tokens_embedded: torch.Tensor, d_k: int = 64) -> torch.Tensor:
    d_model = tokens_embedded.shape[-1]
    W_q, W_k, W_v = (torch.randn(d_model, d_k) / d_model ** 0.5 for _ in range(3))
    cache = KVCache()
    outputs = [attention_step(tokens_embedded[:, t : t + 1], W_q, W_k, W_v, cache) for t in range(tokens_embedded.shape[1])]
    return torch.cat(outputs, dim=1)
