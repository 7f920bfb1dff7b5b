import torch

from main.model import Transformer


class CausalLMWrapper(torch.nn.Module):
    """HF-style entry point: generation utilities pass the cache back together with the new input ids."""

    def __init__(self, model: Transformer):
        super().__init__()
        self.model = model

    def forward(self, input_ids, past_key_values=None, use_cache=True, **kwargs):
        if past_key_values is not None and not isinstance(past_key_values, (list, tuple)):
            past_key_values = [list(layer) for layer in past_key_values]
        logits, cache = self.model(input_ids, past_key_values=past_key_values, use_cache=use_cache)
        return {"logits": logits, "past_key_values": cache}

    @torch.no_grad()
    def generate(self, idx, max_new_tokens: int = 64, temperature: float = 1.0):
        cache = None
        for _ in range(max_new_tokens):
            step = idx if cache is None else idx[:, -1:]
            out = self(step, past_key_values=cache)
            cache = out["past_key_values"]
            probs = torch.softmax(out["logits"][:, -1] / max(temperature, 1e-5), dim=-1)
            idx = torch.cat([idx, torch.multinomial(probs, 1)], dim=1)
        return idx
