# case: b25-04-clean
# modelled-on: MarvelMathesh/sincformer-metacog-speech-enhancement https://github.com/MarvelMathesh/sincformer-metacog-speech-enhancement/commit/2727b4a3fbae7ddba28eeeb978d4c959328c46c7
# label: correct
# class: clean
# pattern: a speech-enhancement agent's episodic memory: a pooled noise-environment embedding is projected to a query, query and the learnable 2-D key bank (slots, key_dim) are L2-normalised with F.normalize, the similarity is torch.matmul(q_norm, keys_norm.t()) / temperature with the temperature and the key/value widths read from a config module, softmax(dim=-1) over the slots, and the weights read a value bank of mask biases, gated by a sigmoid confidence
# why: correct: this is cosine attention: the dot product of unit vectors is bounded in [-1, 1], so the 1/sqrt(d) scale of dot-product attention does not apply and a temperature is the intended sharpness control (1.0 by default); .t() on the 2-D key bank gives (key_dim, slots), exactly the transpose q @ K^T needs; the softmax runs over the slot axis of the (batch, slots) scores; there is no mask
# looks-like: ATT003, ATT004, ATT005
# source: https://github.com/MarvelMathesh/sincformer-metacog-speech-enhancement https://github.com/MarvelMathesh/sincformer-metacog-speech-enhancement/commit/2727b4a3fbae7ddba28eeeb978d4c959328c46c7 agents/memory.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from senh import config


class EpisodicMemory(nn.Module):
    """Keys: noise-environment embeddings; values: biases for the enhancement mask."""

    def __init__(self, key_dim=None, value_dim=None, num_slots=None, temperature=None):
        super().__init__()
        self.key_dim = key_dim or config.ENCODER_CHANNELS
        self.value_dim = value_dim or (config.FFT_SIZE // 2 + 1)
        self.num_slots = num_slots or config.MEMORY_SLOTS
        self.temperature = temperature if temperature is not None else config.MEMORY_TEMPERATURE

        self.keys = nn.Parameter(torch.randn(self.num_slots, self.key_dim) * 0.01)
        self.values = nn.Parameter(torch.randn(self.num_slots, self.value_dim) * 0.01)
        self.query_proj = nn.Sequential(
            nn.Linear(self.key_dim, self.key_dim),
            nn.LayerNorm(self.key_dim),
            nn.GELU(),
            nn.Linear(self.key_dim, self.key_dim),
        )
        self.value_proj = nn.Sequential(nn.Linear(self.value_dim, self.value_dim), nn.Tanh())
        nn.init.xavier_uniform_(self.value_proj[0].weight, gain=0.01)
        nn.init.zeros_(self.value_proj[0].bias)
        self.gate = nn.Sequential(nn.Linear(self.key_dim + self.value_dim, 1), nn.Sigmoid())
        self.register_buffer("usage", torch.zeros(self.num_slots))

    def forward(self, env: torch.Tensor):
        query = self.query_proj(env)  # (batch, key_dim)
        q_unit = F.normalize(query, dim=-1)
        k_unit = F.normalize(self.keys, dim=-1)
        similarity = torch.matmul(q_unit, k_unit.t()) / self.temperature  # (batch, slots)
        weights = F.softmax(similarity, dim=-1)
        retrieved = torch.matmul(weights, self.values)  # (batch, value_dim)
        bias = self.value_proj(retrieved)
        gate = self.gate(torch.cat([query, retrieved], dim=-1))
        if self.training:
            with torch.no_grad():
                for idx in similarity.argmax(dim=-1):
                    self.usage[idx] += 1
        best = similarity.max(dim=-1)
        return {
            "bias": bias,
            "gate": gate,
            "top_indices": best.indices,
            "similarity": best.values * self.temperature,
        }
