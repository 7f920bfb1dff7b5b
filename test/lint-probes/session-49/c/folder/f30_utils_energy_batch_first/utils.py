import torch


def additive_energy(W_enc, W_dec, v, enc, dec):
    """enc: (B, T, H) batch-first; dec: (B, H). Returns energies (B, T)."""
    return v(torch.tanh(W_enc(enc) + W_dec(dec).unsqueeze(1))).squeeze(-1)
