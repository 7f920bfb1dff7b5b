import torch

from modules import BaseDecoder


@torch.no_grad()
def generate(decoder: BaseDecoder, embed, head, xenc, prompt_embs, n_steps, max_len=2250):
    decoder.eval()
    bs, t0, _ = prompt_embs.shape
    for layer in decoder.layers:
        layer.setup_kv_cache(bs, max_len)
    xenc_positions = torch.arange(xenc.shape[1], device=xenc.device)
    # prefill: the whole prompt at positions 0..t0-1
    positions = torch.arange(t0, device=xenc.device)
    h = decoder(prompt_embs, positions, xenc, xenc_positions)
    tok = head(h[:, -1:]).argmax(-1)
    out = [tok]
    for i in range(t0, t0 + n_steps - 1):
        positions = torch.tensor([i], device=xenc.device)
        h = decoder(embed(tok), positions, xenc, xenc_positions)
        tok = head(h[:, -1:]).argmax(-1)
        out.append(tok)
    return torch.cat(out, dim=1)
