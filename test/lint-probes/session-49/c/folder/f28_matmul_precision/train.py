import torch
from attention import Attention

torch.set_float32_matmul_precision("medium")
torch.backends.cuda.matmul.allow_tf32 = True
model = torch.compile(Attention(768, 12).cuda())
