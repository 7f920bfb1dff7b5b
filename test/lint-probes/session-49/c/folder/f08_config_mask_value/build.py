import torch
from config import ModelConfig
from attention import SelfAttention

cfg = ModelConfig()
model = SelfAttention(cfg)
if cfg.half:
    model = model.half().cuda()
