import torch

from model.modules import VanillaTransformer


@torch.no_grad()
def greedy(model: VanillaTransformer, src, bos: int, eos: int, max_len: int):
    src_pad_mask = (src == model.src_pad_token_i).bool()  # (B, Ls), True at padding
    memory = model.encode_src(src, src_pad_mask)
    out = torch.full((src.size(0), 1), bos, dtype=torch.long, device=src.device)
    for _ in range(max_len):
        logits = model.decode_tgt(out, memory, memory_pad_mask=src_pad_mask)
        nxt = logits[:, -1].argmax(-1, keepdim=True)
        out = torch.cat([out, nxt], dim=1)
        if (nxt == eos).all():
            break
    return out
