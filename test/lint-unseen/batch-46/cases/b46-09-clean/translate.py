# case: b46-09-clean
# modelled-on: DEVJHAWAR11/pytorch-transformer-from-scratch https://github.com/DEVJHAWAR11/pytorch-transformer-from-scratch/commit/4bce2fd10918e6851f63bbb305c8d770d0da577c
# label: correct
# class: clean
# pattern: encoder-decoder transformer for translation (a folder: the mask helpers, the attention layers, and the greedy decoding loop that builds the masks): the padding mask is (ids != pad) as a float (batch, 1, 1, src) tensor with 1 = attend, the look-ahead mask is tril(ones) with 1 = visible, and the decoder mask combines them with torch.minimum; the attention fills the scores with -1e9 where mask == 0 after dividing q @ k^T by sqrt of the per-head size, and takes softmax(dim=-1); decoding re-runs the decoder on the whole prefix with a fresh (1, 1, t, t) mask at every step
# why: correct: both masks are keep masks (1 = may attend), so masked_fill(mask == 0, -1e9) hides padding and future tokens, and the elementwise minimum of two 0/1 masks is their logical AND; the cross-attention gets the source padding mask, which broadcasts over the target positions; there is no key/value cache, so each step's square mask matches its queries and keys; the scale uses d_k = d_model / heads
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/DEVJHAWAR11/pytorch-transformer-from-scratch https://github.com/DEVJHAWAR11/pytorch-transformer-from-scratch/commit/4bce2fd10918e6851f63bbb305c8d770d0da577c src/masks.py
import torch

from masking import key_padding, target_mask

BOS, EOS = 1, 2


@torch.no_grad()
def greedy_translate(model, src_ids: torch.Tensor, max_new: int = 50) -> list:
    """src_ids: (1, S) token ids with BOS/EOS already added."""
    model.eval()
    src_mask = key_padding(src_ids)
    memory = model.encode(src_ids, src_mask)

    out = [BOS]
    for _ in range(max_new):
        prefix = torch.tensor([out], dtype=torch.long, device=src_ids.device)
        dec = model.decode(prefix, memory, src_mask, target_mask(prefix))
        nxt = model.generator(dec[:, -1]).argmax(dim=-1).item()
        out.append(nxt)
        if nxt == EOS:
            break
    return out[1:]


def training_step(model, loss_fn, src_ids, tgt_ids):
    tgt_in, tgt_out = tgt_ids[:, :-1], tgt_ids[:, 1:]
    logits = model(src_ids, tgt_in, key_padding(src_ids), target_mask(tgt_in))
    return loss_fn(logits.reshape(-1, logits.size(-1)), tgt_out.reshape(-1))
