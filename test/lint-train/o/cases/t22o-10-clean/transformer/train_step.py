import torch.nn.functional as F

from .utils import create_masks


def train_step(model, optimizer, inp, tar, device):
    tar_inp = tar[:, :-1]
    tar_real = tar[:, 1:]
    enc_padding_mask, combined_mask, dec_padding_mask = create_masks(inp, tar_inp)
    predictions = model(
        inp.to(device),
        tar_inp.to(device),
        enc_padding_mask=enc_padding_mask.to(device),
        look_ahead_mask=combined_mask.to(device),
        dec_padding_mask=dec_padding_mask.to(device),
    )
    loss = F.cross_entropy(predictions.reshape(-1, predictions.size(-1)), tar_real.reshape(-1).to(device), ignore_index=0)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
