import torch

from model_base import EagerAttention


@torch.no_grad()
def stream_reply(model, tokenizer, prompts, max_new_tokens: int = 128):
    """Batched chat completion with left padding; the keep mask grows by one column per step."""
    enc = tokenizer(prompts, return_tensors="pt", padding=True, padding_side="left")
    ids, keep = enc.input_ids, enc.attention_mask  # keep: 1 = token, 0 = padding
    past = None
    step_ids = ids
    for _ in range(max_new_tokens):
        logits, past = model(step_ids, attention_mask=keep, past_key_values=past, use_cache=True)
        nxt = logits[:, -1].argmax(-1, keepdim=True)
        ids = torch.cat([ids, nxt], dim=1)
        keep = torch.cat([keep, torch.ones_like(nxt)], dim=1)
        step_ids = nxt
    return tokenizer.batch_decode(ids, skip_special_tokens=True)
