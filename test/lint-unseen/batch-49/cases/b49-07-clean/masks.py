import numpy as np
import torch


def padding_mask(lengths: torch.Tensor) -> torch.Tensor:
    """(B, T_max) boolean mask, True on the padded positions past each length."""
    steps = torch.arange(int(lengths.max()), device=lengths.device).unsqueeze(0).expand(lengths.size(0), -1)
    return (steps + 1) > lengths.unsqueeze(1)


def pair_mask(text_lengths: torch.Tensor, frame_lengths: torch.Tensor, like: torch.Tensor) -> torch.Tensor:
    """(B, T_text, T_frames) float mask, 1 where both the token and the frame are real."""
    t = torch.arange(like.size(1), device=like.device)
    f = torch.arange(like.size(2), device=like.device)
    real_t = (t[None, :] < text_lengths[:, None]).float()
    real_f = (f[None, :] < frame_lengths[:, None]).float()
    return real_t.unsqueeze(2) * real_f.unsqueeze(1)


def monotonic_path(scores: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
    """Hard monotonic alignment (Viterbi over a token-by-frame grid), one path per item."""
    out = np.zeros(scores.shape, dtype=np.float32)
    s = scores.detach().cpu().numpy()
    for b in range(s.shape[0]):
        nt = int(valid[b, :, 0].sum().item())
        nf = int(valid[b, 0, :].sum().item())
        acc = np.full((nt, nf), -np.inf, dtype=np.float64)
        acc[0, 0] = s[b, 0, 0]
        for j in range(1, nf):
            for i in range(min(j + 1, nt)):
                stay = acc[i, j - 1]
                move = acc[i - 1, j - 1] if i > 0 else -np.inf
                acc[i, j] = max(stay, move) + s[b, i, j]
        i = nt - 1
        for j in range(nf - 1, -1, -1):
            out[b, i, j] = 1.0
            if i > 0 and (i == j or acc[i - 1, j - 1] >= acc[i, j - 1]):
                i -= 1
    return torch.from_numpy(out).to(scores.device)
