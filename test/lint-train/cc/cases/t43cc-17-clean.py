# case: t43cc-17-clean
# modelled-on: kelomina/OrthoAttn https://github.com/kelomina/OrthoAttn/commit/d0218c4d23ca4a7cd72e66ed9b81d4c456eaac5f
# label: correct
# class: clean
# pattern: the slot-memory read of a recurrent attention layer: queries (B, H, T, d) and slot keys (B, H, S, d) are L2-normalised, logits are `einsum("bhtd,bhkd->bhtk", qn, sk) * tau` with `tau = log_tau.exp()` a learned temperature, plus a confidence bonus and minus an age penalty per slot; the top r slots per query are kept with `torch.topk` and `F.softmax(top_logits, dim=-1)` weights the gathered slot values; the read mass per slot is scattered back for the write step
# why: correct: with both sides normalised the logits are cosines in [-1, 1] scaled by a learned temperature, so a 1/sqrt(d) factor would only be absorbed by tau; the einsum contracts d with slots and queries kept apart, which is q @ k^T without a transpose; the softmax runs over the r selected slots (the last axis of the top-k logits), which are the values being mixed
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/kelomina/OrthoAttn https://github.com/kelomina/OrthoAttn/commit/d0218c4d23ca4a7cd72e66ed9b81d4c456eaac5f src/dsra/mhdsra2/improved_dsra_mha.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class SlotReader(nn.Module):
    def __init__(self, slots: int, read_topk: int = 8, conf_read_bias: float = 0.1, age_read_penalty: float = 0.05):
        super().__init__()
        self.slots = slots
        self.read_topk = read_topk
        self.conf_read_bias = conf_read_bias
        self.age_read_penalty = age_read_penalty
        self.log_tau_read = nn.Parameter(torch.tensor(2.0))

    @staticmethod
    def gather_slots(slots: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
        # slots [B, H, S, d], idx [B, H, T, r] -> [B, H, T, r, d]
        b, h, t, r = idx.shape
        flat = idx.reshape(b, h, t * r, 1).expand(-1, -1, -1, slots.shape[-1])
        return torch.gather(slots, 2, flat).view(b, h, t, r, slots.shape[-1])

    def scatter_mass(self, idx: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
        b, h, t, r = idx.shape
        mass = torch.zeros(b * h, self.slots, device=weights.device, dtype=torch.float32)
        mass.scatter_add_(1, idx.reshape(b * h, t * r), weights.reshape(b * h, t * r).float())
        return mass.view(b, h, self.slots)

    def forward(self, q, slot_k, slot_v, confidence, age):
        qn = F.normalize(q, dim=-1)
        sk = F.normalize(slot_k.to(dtype=q.dtype), dim=-1)
        tau = self.log_tau_read.exp().to(dtype=q.dtype)
        logits = torch.einsum("bhtd,bhkd->bhtk", qn, sk) * tau
        logits = logits + self.conf_read_bias * confidence.to(dtype=q.dtype).unsqueeze(2)
        logits = logits - self.age_read_penalty * torch.log1p(age).to(dtype=q.dtype).unsqueeze(2)

        r = min(self.read_topk, self.slots)
        top_logits, top_idx = torch.topk(logits, r, dim=-1)
        probs = F.softmax(top_logits, dim=-1)
        values = self.gather_slots(slot_v.to(dtype=q.dtype), top_idx)
        out = (probs.unsqueeze(-1) * values).sum(dim=3)
        return out, self.scatter_mass(top_idx, probs)
