import torch


def num_patches(seq_len: int, patch_len: int, stride: int) -> int:
    return (seq_len - patch_len) // stride + 1


def make_patches(x: torch.Tensor, patch_len: int, stride: int) -> torch.Tensor:
    """[batch, seq_len, n_vars] -> [batch * n_vars, n_patches, patch_len]: every channel is its own sequence."""
    b, _, c = x.shape
    x = x.permute(0, 2, 1)  # [b, c, seq_len]
    patches = x.unfold(dimension=-1, size=patch_len, step=stride)  # [b, c, n_patches, patch_len]
    return patches.reshape(b * c, patches.size(2), patch_len)
