import argparse

import torch
import torch.nn.functional as F

from model.bert import BertModel


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, default=256)
    parser.add_argument("--max_len", type=int, default=512)
    parser.add_argument("--total_steps", type=int, default=1000000)
    parser.add_argument("--fp16", action="store_true")
    return parser.parse_args()


def main():
    args = parse_args()
    model = BertModel().cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    scaler = torch.amp.GradScaler("cuda") if args.fp16 else None
    for step in range(args.total_steps):
        input_ids = torch.randint(0, 30000, (args.batch_size, args.max_len), device="cuda")
        segment_ids = torch.zeros_like(input_ids)
        attention_mask = torch.ones(args.batch_size, args.max_len, device="cuda")
        labels = input_ids.clone()
        optimizer.zero_grad()
        if scaler is not None:
            with torch.amp.autocast("cuda"):
                logits = model(input_ids, segment_ids, attention_mask)
                loss = F.cross_entropy(logits.view(-1, logits.size(-1)), labels.view(-1), ignore_index=-100)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        else:
            logits = model(input_ids, segment_ids, attention_mask)
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), labels.view(-1), ignore_index=-100)
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
