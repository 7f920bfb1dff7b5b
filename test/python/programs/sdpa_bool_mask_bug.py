# requires: torch2
import torch
import torch.nn.functional as F
from attn_lib import Embed, batch_ids, padding_mask

torch.manual_seed(0)
ids = batch_ids([[5, 6, 7, 8, 9, 10], [11, 12, 13]])
x = Embed()(ids).view(2, 6, 4, 8).transpose(1, 2)
ignore = ~padding_mask(ids)  # True = padding, as nn.MultiheadAttention's key_padding_mask wants it
out = F.scaled_dot_product_attention(x, x, x, attn_mask=ignore[:, None, None, :])  # expect: ATT002
print(out.shape)
