import torch

torch.manual_seed(0)
q, k, v = torch.randn(3, 2, 4, 8).unbind(0)
mask = torch.tensor([[True, True, False, False], [True, True, True, False]])
scores = ((q @ k.transpose(-2, -1)) * 8 ** -0.5).half()  # half precision scores, as under autocast
scores = scores.masked_fill(~mask[:, None, :], torch.finfo(scores.dtype).min)
print((scores.float().softmax(-1) @ v).shape)
