from torch import nn

from reduced_attention import PooledKeyAttention
from vit_attention import PatchAttention

BUILDERS = {"pooled": PooledKeyAttention}


def swap_attention(vit: nn.Module, kind: str, **options) -> nn.Module:
    """Replace every block's attention in place, reusing the trained projections."""
    if kind not in BUILDERS:
        raise ValueError(f"unknown attention {kind!r}; choose from {sorted(BUILDERS)}")
    for index, block in enumerate(vit.blocks):
        if not isinstance(block.attn, PatchAttention):
            raise TypeError(f"block {index} does not hold the backbone attention")
        block.attn = BUILDERS[kind](block.attn, **options)
    return vit
