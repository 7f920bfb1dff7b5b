import dataclasses
import time

import torch

from config import ModelConfig
from model import GPT


def tokens_per_second(cfg_path: str, n_tokens: int = 60) -> float:
    cfg = dataclasses.replace(ModelConfig.load(cfg_path), use_kvcache=True)
    model = GPT(cfg).eval()
    prompt = torch.randint(0, cfg.vocab_size, (1, 16))
    start = time.time()
    model.generate(prompt, n_tokens)
    return n_tokens / (time.time() - start)
