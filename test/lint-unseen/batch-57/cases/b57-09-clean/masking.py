import torch


def masked_log_probs(logits: torch.Tensor, allowed: torch.Tensor):
    """Log-softmax over the allowed entries of the last axis.

    Rows with nothing allowed only exist as padding (or for value-only states): they get a
    dummy first entry so the log-softmax stays finite, and every disallowed entry ends
    with log-probability and probability 0.
    """
    any_allowed = allowed.any(-1, keepdim=True)
    first = torch.arange(allowed.shape[-1], device=allowed.device) == 0
    usable = allowed | (~any_allowed & first)
    logp = logits.masked_fill(~allowed, 0).masked_fill(~usable, -torch.inf).log_softmax(-1)
    logp = logp.masked_fill(~allowed, 0)
    return logp, logp.exp().masked_fill(~allowed, 0)


class TwoStepChoice:
    """Pick a source (card, potion, end turn) then one of its targets."""

    def __init__(self, src_logits, tgt_logits, src_ok, tgt_ok):
        if src_ok.dtype != torch.bool or tgt_ok.dtype != torch.bool:
            raise ValueError("masks must be boolean")
        if not torch.equal(src_ok, tgt_ok.any(-1)):
            raise ValueError("a legal source must have at least one legal target")
        self.src_ok, self.tgt_ok = src_ok, tgt_ok
        self.src_logp, self.src_p = masked_log_probs(src_logits, src_ok)
        self.tgt_logp, self.tgt_p = masked_log_probs(tgt_logits, tgt_ok)

    def sample(self, gen=None):
        u = torch.multinomial(self.src_p, 1, generator=gen).squeeze(-1)
        rows = torch.arange(len(u), device=u.device)
        j = torch.multinomial(self.tgt_p[rows, u], 1, generator=gen).squeeze(-1)
        return u, j

    def log_prob(self, u, j):
        rows = torch.arange(len(u), device=u.device)
        return self.src_logp[rows, u] + self.tgt_logp[rows, u, j]

    def entropy(self):
        per_source = -(self.tgt_p * self.tgt_logp).sum(-1)
        return -(self.src_p * self.src_logp).sum(-1) + (self.src_p * per_source).sum(-1)
