import torch
from batching import make_batch
from model import Model

model = Model(32000).half().cuda().eval()


@torch.no_grad()
def embed(seqs):
    ids, bias = make_batch(seqs)
    return model(ids.cuda(), bias.cuda())
