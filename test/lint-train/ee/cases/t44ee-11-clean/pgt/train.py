import torch

from pgt.model import PointerTransformer


def run_batch(batch, model: PointerTransformer, loss_compute, pad, step):
    # torchtext batches are (length, batch)
    src_pad = (batch.src == pad).to(batch.src.device)
    tgt_in = batch.trg[:-1]
    tgt_pad = (tgt_in == pad).to(batch.src.device)
    n_tokens = (batch.trg[1:] != pad).sum().item()

    causal = model.generate_square_subsequent_mask(tgt_in.size(0))
    n = src_pad.size(1)
    out = model(
        batch.src,
        tgt_in,
        src_key_padding_mask=src_pad,
        tgt_key_padding_mask=tgt_pad,
        tgt_mask=causal.unsqueeze(1).repeat([1, n, 1]).to(batch.src.device),
    )
    loss, correct = loss_compute(out, batch.trg[1:], step, n_tokens)
    guesses = torch.argmax(out, dim=-1).transpose(0, 1)
    return loss, correct, n_tokens, guesses
