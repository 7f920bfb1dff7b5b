import torch

from .model import AccompanimentTransformer


def pad_melody(token_ids, max_len):
    """Right-pads the melody; the mask is True for melody tokens, False for padding."""
    ids = torch.tensor(token_ids[:max_len], dtype=torch.long)
    mask = torch.ones(len(ids), dtype=torch.bool)
    pad = max_len - len(ids)
    ids = torch.cat([ids, torch.zeros(pad, dtype=torch.long)])
    mask = torch.cat([mask, torch.zeros(pad, dtype=torch.bool)])
    return ids, mask


@torch.no_grad()
def sample(model: AccompanimentTransformer, melody, prompt, cfg, device, max_new_tokens=512, temperature=0.9):
    model.eval()
    enc_ids, enc_mask = pad_melody(melody, cfg.max_seq_len)
    enc_ids = enc_ids.unsqueeze(0).to(device)
    enc_mask = enc_mask.unsqueeze(0).to(device)
    memory = model.encode(enc_ids, enc_mask)

    gen = list(prompt)
    for _ in range(max_new_tokens):
        tgt = torch.tensor([gen[-cfg.max_seq_len:]], dtype=torch.long, device=device)
        tgt_mask = torch.ones(1, tgt.size(1), dtype=torch.bool, device=device)
        logits = model.decode(tgt, memory, tgt_mask, enc_mask)
        next_logits = logits[0, -1, :].clone()
        next_logits[cfg.pad_id] = -float("inf")
        next_logits[cfg.unk_id] = -float("inf")
        probs = torch.softmax(next_logits / temperature, dim=-1)
        nxt = int(torch.multinomial(probs, 1))
        gen.append(nxt)
        if nxt == cfg.eos_id:
            break
    return gen
