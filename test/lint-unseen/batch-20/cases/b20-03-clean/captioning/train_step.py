import torch.nn.functional as F


def train_step(encoder, decoder, batch, optimizer, pad_id):
    visual = encoder(batch["images"])
    ids = batch["caption_ids"]
    pad = batch["caption_padding_mask"]
    logits = decoder(ids[:, :-1], visual, padding_mask=pad[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), ids[:, 1:].reshape(-1), ignore_index=pad_id)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
