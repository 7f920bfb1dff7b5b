import torch


def logits_to_log_probs(logits, mask, temperature=1.0, tanh_clipping=0.0, mask_logits=True):
    """Log-probabilities over the actions.

    logits: (batch, num_actions); mask: (batch, num_actions), True if the action is feasible.
    """
    if tanh_clipping > 0:
        logits = torch.tanh(logits) * tanh_clipping
    if mask_logits:
        assert mask is not None, "mask must be provided if mask_logits is True"
        logits = logits.clone()
        logits[~mask] = float("-inf")
    logits = logits / temperature
    return torch.log_softmax(logits, dim=-1)
