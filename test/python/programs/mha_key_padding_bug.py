import torch
import torch.nn as nn
from attn_lib import Embed, batch_ids, padding_mask

torch.manual_seed(0)
ids = batch_ids([[5, 6, 7, 8, 9, 4], [10, 11, 12]])
x = Embed()(ids)
mha = nn.MultiheadAttention(32, 4, batch_first=True)
out, _ = mha(x, x, x, key_padding_mask=padding_mask(ids))  # expect: ATT002
print(out.shape)
