import torch
from decoder import Decoder

model = Decoder(256).cuda().half()
y = model(torch.randn(2, 16, 256, device="cuda", dtype=torch.float16))
