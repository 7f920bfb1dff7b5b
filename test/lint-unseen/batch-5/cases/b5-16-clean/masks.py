import torch


def padding_mask(seq, target_shape):
    """1.0 at padding keys (token 0), expanded to (batch, 1, q_len, k_len)."""
    mask = (seq == 0).unsqueeze(1).unsqueeze(2).float()
    return mask.expand(-1, -1, target_shape[2], -1)


def look_ahead_mask(size):
    """1.0 above the diagonal: the future positions."""
    return torch.triu(torch.ones(size, size), diagonal=1).float()


def decoder_self_mask(tar):
    ahead = look_ahead_mask(tar.size(1)).to(tar.device)  # (T, T)
    pad = (tar == 0).unsqueeze(1).unsqueeze(2).float()  # (B, 1, 1, T)
    return torch.max(pad.squeeze(1), ahead).unsqueeze(1)  # (B, 1, T, T)


def build_masks(frames, tar):
    n_frames = frames.size(1)
    b, n_text = tar.size()
    enc = padding_mask(frames[:, :, 0], (b, 1, n_frames, n_frames))
    dec_self = decoder_self_mask(tar)
    dec_cross = padding_mask(frames[:, :, 0], (b, 1, n_text, n_frames))
    return enc, dec_self, dec_cross
