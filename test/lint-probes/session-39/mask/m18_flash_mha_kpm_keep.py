import torch
import torch.nn as nn
from flash_attn.modules.mha import MHA


class Layer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.mixer = MHA(d, h, use_flash_attn=True)

    def forward(self, x, ids, pad_id):
        # flash-attn's key_padding_mask: (B, S) bool, True means KEEP
        key_padding_mask = ids != pad_id
        return self.mixer(x, key_padding_mask=key_padding_mask)
