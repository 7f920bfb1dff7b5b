import math
import torch
import torch.nn.functional as F
from attn_lib import Embed, batch_ids, padding_mask

torch.manual_seed(0)
ids = batch_ids([[5, 6, 7, 8], [9, 10]], pad_left=True)
x = Embed()(ids)
T = ids.shape[1]
causal = torch.ones(T, T, dtype=torch.bool).tril()
allowed = causal[None] & padding_mask(ids)[:, None, :]
scores = x @ x.transpose(-2, -1) / math.sqrt(x.shape[-1])
scores = scores.masked_fill(~allowed, float("-inf"))  # expect: ATT007
out = F.softmax(scores, dim=-1) @ x
print(out.isnan().any().item())
