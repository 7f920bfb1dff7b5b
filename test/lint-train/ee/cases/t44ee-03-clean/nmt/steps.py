import torch
from torch import nn

from nmt.model import Translator


def train_step(model: Translator, src, tgt, optimizer, loss_fn, device):
    src, tgt = src.to(device), tgt.to(device)
    optimizer.zero_grad()
    dec_in = tgt[:, :-1]
    src_pad = src == model.src_emb.padding_idx
    tgt_pad = dec_in == model.tgt_emb.padding_idx
    causal = nn.Transformer.generate_square_subsequent_mask(dec_in.shape[1]).to(device)
    logits = model(src, dec_in, src_pad, tgt_pad, causal)
    loss = loss_fn(logits.reshape(-1, logits.shape[-1]), tgt[:, 1:].reshape(-1))
    loss.backward()
    optimizer.step()
    return loss.item()


@torch.no_grad()
def greedy(model: Translator, src, sos_id, eos_id, max_len, device):
    model.eval()
    src_pad = src == model.src_emb.padding_idx
    memory = model.encode(src, src_pad)
    out = torch.full((src.shape[0], 1), sos_id, device=device)
    done = torch.zeros(src.shape[0], dtype=torch.bool, device=device)
    for _ in range(max_len):
        causal = nn.Transformer.generate_square_subsequent_mask(out.shape[1]).to(device)
        tgt_pad = out == model.tgt_emb.padding_idx
        logits = model.decode(out, memory, causal, src_pad, tgt_pad)
        nxt = logits[:, -1, :].argmax(dim=-1)
        done |= nxt == eos_id
        out = torch.cat([out, nxt.unsqueeze(1)], dim=1)
        if done.all():
            break
    return out[:, 1:]
