import torch

from melasr.data import causal_mask


@torch.no_grad()
def greedy_decode(model, frames, frame_mask, sos_id, eos_id, max_len, device):
    memory = model.encode(frames, frame_mask)
    ys = torch.empty(1, 1).fill_(sos_id).type(torch.long).to(device)
    while ys.size(1) < max_len:
        dec_mask = causal_mask(ys.size(1)).type_as(frame_mask).to(device)
        out = model.decode(memory, frame_mask, ys, dec_mask)
        next_id = model.project(out[:, -1]).argmax(dim=-1)
        ys = torch.cat([ys, next_id.view(1, 1).type_as(ys)], dim=1)
        if next_id.item() == eos_id:
            break
    return ys.squeeze(0)
