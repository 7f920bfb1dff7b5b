"""Training helpers."""
import torch


def get_subsequent_mask(size: int, device) -> torch.Tensor:
    """Mask that keeps the decoder from attending to subsequent tokens: 1 on and below the diagonal (allowed), shape (size, size)."""
    return torch.tril(torch.ones(size, size, device=device), diagonal=0)


@torch.no_grad()
def greedy_decode(model, start_id: int, steps: int, device) -> torch.Tensor:
    tokens = torch.full((1, 1), start_id, dtype=torch.long, device=device)
    for _ in range(steps):
        look_ahead = get_subsequent_mask(tokens.shape[1], device)
        logits = model(tokens, attn_mask=look_ahead)  # (1, T, vocab)
        tokens = torch.cat([tokens, logits[:, -1].argmax(-1, keepdim=True)], dim=1)
    return tokens
