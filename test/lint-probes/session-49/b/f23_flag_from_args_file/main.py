from model import Layer


def encode(x, keep):
    return Layer(64, 4)(x, pad_keep=keep, causal=False)


def decode(x):
    return Layer(64, 4)(x, causal=True)
