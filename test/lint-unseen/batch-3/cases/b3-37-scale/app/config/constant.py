import torch

# model size
EMBED_DIM = 256  # size of the vector that represents each token
MAX_SEQ_LEN = 64  # inputs are cut or padded to this many tokens
NUM_HEAD = 4  # number of attention heads
HEAD_SIZE = EMBED_DIM // NUM_HEAD  # size of one attention head
DROP_OUT = 0.1
NUM_LAYER = 4
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
PAD_ID = 0
