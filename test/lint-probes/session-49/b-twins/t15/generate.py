from cache import KVCache
from model import Attention


def setup(model: Attention, B, max_len):
    model.cache = KVCache(B, model.h, max_len, 16)
    return model
