import torch


def attention_rollout(attentions):
    # attentions: list of (B, H, N, N) softmax weights, one per layer
    result = None
    for a in attentions:
        a = a.mean(dim=1)
        N = a.shape[-1]
        a = a + torch.eye(N, device=a.device)
        a = a / a.sum(dim=-1, keepdim=True)
        result = a if result is None else a @ result
    return result
