import torch
import torch.nn as nn
import torch.nn.functional as F

from models.mla import MultiHeadLatentAttention, create_causal_mask


class CharLM(nn.Module):
    def __init__(self, vocab_size: int, d_model: int = 128, num_heads: int = 4, d_latent: int = 16, num_layers: int = 4, block_size: int = 256):
        super().__init__()
        self.block_size = block_size
        self.num_layers = num_layers
        self.tok = nn.Embedding(vocab_size, d_model)
        self.pos = nn.Embedding(block_size, d_model)
        self.blocks = nn.ModuleList([MultiHeadLatentAttention(d_model, num_heads, d_latent) for _ in range(num_layers)])
        self.ln = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size)

    def forward(self, idx, use_cache=False, cache=None):
        _, seq_len = idx.shape
        past = cache["past_length"] if cache is not None else 0
        x = self.tok(idx) + self.pos(torch.arange(past, past + seq_len, device=idx.device))
        if use_cache and cache is not None:
            # the new token may attend every cached token and itself
            mask = torch.ones(1, 1, seq_len, past + seq_len, device=x.device)
        else:
            mask = create_causal_mask(seq_len, device=x.device)
        if use_cache:
            layer_caches = cache["layer_caches"] if cache is not None else [None] * self.num_layers
            new_cache = {"layer_caches": [], "past_length": past + seq_len}
        for i, block in enumerate(self.blocks):
            out, layer_cache = block(x, mask=mask, use_cache=use_cache, cache=layer_caches[i] if use_cache else None)
            x = x + out
            if use_cache:
                new_cache["layer_caches"].append(layer_cache)
        return self.head(self.ln(x)), (new_cache if use_cache else None)

    @torch.no_grad()
    def generate(self, idx, max_new_tokens: int, temperature: float = 1.0):
        cache = None
        for _ in range(max_new_tokens):
            if cache is not None:
                logits, cache = self(idx[:, -1:], use_cache=True, cache=cache)
            else:
                logits, cache = self(idx[:, -self.block_size :], use_cache=True, cache=None)
            probs = F.softmax(logits[:, -1, :] / temperature, dim=-1)
            idx = torch.cat([idx, torch.multinomial(probs, num_samples=1)], dim=1)
        return idx
