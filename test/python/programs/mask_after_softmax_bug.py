import math
import torch
import torch.nn.functional as F
from attn_lib import Embed, batch_ids, padding_mask

torch.manual_seed(0)
ids = batch_ids([[5, 6, 7, 8, 9], [10, 11]])
x = Embed()(ids)
keep = padding_mask(ids)[:, None, :]
scores = torch.bmm(x, x.transpose(1, 2)) / math.sqrt(x.shape[-1])
weights = F.softmax(scores, dim=-1)
weights = weights * keep  # expect: ATT006
print(torch.bmm(weights, x).shape)
