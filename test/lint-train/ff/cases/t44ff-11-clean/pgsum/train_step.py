import torch

from .nets import CoverageAttention, SourceEncoder


def one_batch(encoder: SourceEncoder, attend: CoverageAttention, step_fn, batch, hid, device="cpu"):
    source, target, source_ext, target_ext, n_oov, src_len, tgt_len = batch
    source, source_ext = source.to(device), source_ext.to(device)
    longest = int(torch.max(src_len).item())
    pad_mask = (source_ext != 0).float().to(device)[:, :longest]     # 1 = real token, 0 = pad
    source_ext = source_ext[:, :longest]
    bsz = source.size(0)
    coverage = torch.zeros((bsz, longest), device=device)
    enc_out, enc_feats, state = encoder(source, src_len)
    losses = []
    for t in range(int(torch.max(tgt_len).item())):
        s_hat = step_fn(target[:, t], state)
        ctx, weights, next_cov = attend(s_hat, enc_out, enc_feats, pad_mask, coverage)
        losses.append(torch.sum(torch.min(weights, coverage), 1))
        coverage = next_cov
    return torch.stack(losses, 1).sum(1).mean()
