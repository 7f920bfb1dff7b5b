import torch
import torch.nn as nn
import torch.nn.functional as F

from attention import GroupedQueryAttention


class TinyLM(nn.Module):
    def __init__(self, vocab: int, n_embd: int = 256, n_head: int = 8, n_kv_head: int = 2, n_layer: int = 4):
        super().__init__()
        self.emb = nn.Embedding(vocab, n_embd)
        self.layers = nn.ModuleList([GroupedQueryAttention(n_embd, n_head, n_kv_head) for _ in range(n_layer)])
        self.norm = nn.LayerNorm(n_embd)
        self.head = nn.Linear(n_embd, vocab, bias=False)

    def forward(self, idx, caches=None, use_cache=False):
        x = self.emb(idx)
        caches = caches if caches is not None else [None] * len(self.layers)
        new_caches = []
        for layer, cache in zip(self.layers, caches):
            h, c = layer(x, kv_cache=cache, use_cache=use_cache)
            x = x + h
            new_caches.append(c)
        return self.head(self.norm(x)), new_caches


@torch.no_grad()
def generate(model: TinyLM, prompt: torch.Tensor, max_new_tokens: int = 50, temperature: float = 1.0):
    """Prefill the prompt once, then decode one token per step against the cached keys and values."""
    model.eval()
    logits, caches = model(prompt, use_cache=True)
    out = prompt
    for _ in range(max_new_tokens):
        probs = F.softmax(logits[:, -1, :] / temperature, dim=-1)
        nxt = torch.multinomial(probs, num_samples=1)
        out = torch.cat([out, nxt], dim=1)
        logits, caches = model(nxt, caches=caches, use_cache=True)
    return out
