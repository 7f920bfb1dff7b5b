import torch


# builds the decoder's look-ahead mask
def subsequent_mask(size):
    subsequent = torch.triu(torch.ones((1, size, size))) == 0
    return subsequent
