import torch

from config import ModelConfig
from model import Attention


def step(x, pad_keep):
    attn = Attention(ModelConfig())
    return attn(x, mask=pad_keep)
