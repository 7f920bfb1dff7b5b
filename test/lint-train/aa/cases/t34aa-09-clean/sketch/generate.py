"""Samples a sketch token by token from a trained SketchModel."""
import torch

from sketch.model import create_model


def nucleus_sampling(logit, mode, p=0.8):
    # restrict the vocabulary to the token kinds allowed after the previous one
    if mode == 0:
        logit[256:] = -float("inf")
    if mode == 1:
        logit[:256] = -float("inf")
        logit[512:] = -float("inf")
    if mode == 2:
        logit[256:512] = -float("inf")
        logit[513:] = -float("inf")
    if mode == 3:
        logit[256:513] = -float("inf")
    pr = torch.nn.functional.softmax(logit, -1)
    q = torch.sort(pr)[0]
    cum = torch.cumsum(q, -1)
    t = torch.max(torch.where(cum < (1.0 - p), q, torch.zeros_like(q)))
    pr = torch.where(pr < t.view(-1), torch.zeros_like(pr), pr)
    return torch.distributions.categorical.Categorical(probs=pr).sample()


@torch.no_grad()
def generate(model, device, category, nucleus_prob):
    tokens, pos, mode = [[514, 0]], 0, 0
    model.eval()
    c = model.class_embed(torch.tensor([[category]], dtype=torch.long, device=device))

    for _ in range(256):
        src = torch.tensor(tokens, dtype=torch.long)[:, None, :].to(device)
        v, p = src[1:, :, 0], src[1:, :, 1]
        s = torch.cat([c, model.value_embed(v) + model.pos_embed(p)], dim=0)
        mask = model._generate_square_subsequent_mask(len(src)).to(device)
        model.src_mask = mask
        o = model.transformer_encoder(s, mask)
        logits = model.decoder(o[-1])
        idx = nucleus_sampling(logits.view(-1), mode, nucleus_prob).view(-1).item()
        if idx == 513:
            break
        if idx < 256:
            mode = 1
            pos += 1
        elif idx < 512:
            mode = 2
        elif idx == 512:
            mode = 3
        tokens.append([idx, pos])
    model.train()
    return [t for t, _ in tokens]


def main(args):
    model, device, _ = create_model(args)
    model.load_state_dict(torch.load(args.checkpoint, map_location=device))
    return generate(model, device, args.category, args.nucleus_prob)
