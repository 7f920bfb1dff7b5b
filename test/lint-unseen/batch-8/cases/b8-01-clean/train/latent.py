import torch
import torch.nn.functional as F

from model.gpt import TinyGPT


def latent_step_loss(model: TinyGPT, prefix, pad_len, suffix_x, suffix_y, n_latent: int):
    """Prefix into the cache, n_latent silent steps, then the answer suffix in parallel.

    prefix is left-padded: row b has pad_len[b] padding columns first. Masks: True = may attend.
    """
    B, P = prefix.shape
    S = suffix_x.size(1)
    dev = prefix.device
    cols = torch.arange(P, device=dev)
    real = cols[None, :] >= pad_len[:, None]  # (B, P) non-padding columns

    # 1) prefix: causal and no padding keys; every row keeps its own diagonal so no row is empty
    pre_mask = (cols[None, None, None, :] <= cols[None, None, :, None]) & real[:, None, None, :]
    pre_mask = pre_mask | torch.eye(P, dtype=torch.bool, device=dev)[None, None]
    caches = model.new_caches()
    h = model.run_from(model.embed(prefix), 0, caches, attn_mask=pre_mask)
    last = h[:, -1:, :]

    # 2) latent steps: one query against everything cached so far
    for t in range(n_latent):
        step_mask = torch.ones(B, 1, 1, P + t + 1, dtype=torch.bool, device=dev)
        step_mask[:, 0, 0, :P] = real
        last = model.run_from(last, P + t, caches, attn_mask=step_mask)[:, -1:, :]

    # 3) suffix: global position P + n_latent + i sees keys j <= P + n_latent + i
    keys = torch.arange(P + n_latent + S, device=dev)
    rows = torch.arange(S, device=dev)
    suf_mask = (keys[None, None, None, :] <= (P + n_latent + rows)[None, None, :, None]).expand(B, 1, S, P + n_latent + S).clone()
    suf_mask[:, 0, :, :P] &= real[:, None, :]
    h = model.run_from(model.embed(suffix_x), P + n_latent, caches, attn_mask=suf_mask)
    logits = model.head(h)
    return F.cross_entropy(logits.reshape(-1, logits.size(-1)), suffix_y.reshape(-1), ignore_index=-1)


@torch.no_grad()
def generate(model: TinyGPT, prompt, steps: int = 32):
    caches = model.new_caches()
    h = model.run_from(model.embed(prompt), 0, caches)  # T_q == T_k: is_causal
    out = prompt
    for i in range(steps):
        nxt = model.head(h[:, -1]).argmax(-1, keepdim=True)
        out = torch.cat([out, nxt], dim=1)
        h = model.run_from(model.embed(nxt), out.size(1) - 1, caches)  # one query, no mask needed
    return out
