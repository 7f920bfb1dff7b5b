import argparse

import numpy as np
import torch

from seqrec import SeqRec

parser = argparse.ArgumentParser()
parser.add_argument("--lr", default=0.001, type=float)
parser.add_argument("--epochs", default=200, type=int)
parser.add_argument("--use_amp", action="store_true", default=True, help="mixed precision training (saves memory)")


def train(args, sampler, n_items, n_batches):
    model = SeqRec(n_items).to("cuda")
    bce = torch.nn.BCEWithLogitsLoss()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, betas=(0.9, 0.98))
    scaler = torch.amp.GradScaler("cuda") if args.use_amp else None
    for epoch in range(args.epochs):
        for _ in range(n_batches):
            seq, pos, neg = (np.array(x) for x in sampler.next_batch())
            with torch.amp.autocast("cuda", enabled=args.use_amp):
                pos_logits, neg_logits = model(seq, pos, neg)
            where = torch.from_numpy(pos != 0).to("cuda")
            loss = bce(pos_logits[where], torch.ones_like(pos_logits[where]))
            loss = loss + bce(neg_logits[where], torch.zeros_like(neg_logits[where]))
            opt.zero_grad()
            if scaler is not None:
                scaler.scale(loss).backward()
                scaler.step(opt)
                scaler.update()
            else:
                loss.backward()
                opt.step()


if __name__ == "__main__":
    train(parser.parse_args(), sampler=None, n_items=3416, n_batches=100)
