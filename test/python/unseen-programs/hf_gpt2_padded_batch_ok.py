# label: correct
# why: a tiny GPT-2 built from a config (SDPA attention) on a right-padded batch with the right attention_mask
# requires: torch2
import torch
from transformers import GPT2Config, GPT2LMHeadModel

PAD = 0


def main():
    torch.manual_seed(35)
    config = GPT2Config(vocab_size=120, n_positions=32, n_embd=64, n_layer=2, n_head=4, pad_token_id=PAD)
    model = GPT2LMHeadModel(config)
    model.eval()
    batch = [[15, 27, 99, 4, 61], [8, 19, 3], [42, 42, 7, 11, 5]]
    width = max(len(s) for s in batch)
    input_ids = torch.tensor([s + [PAD] * (width - len(s)) for s in batch])
    attention_mask = torch.tensor([[1] * len(s) + [0] * (width - len(s)) for s in batch])
    with torch.no_grad():
        out = model(input_ids=input_ids, attention_mask=attention_mask)
    last = attention_mask.sum(1) - 1
    next_token = out.logits[torch.arange(len(batch)), last].argmax(-1)
    print("next tokens", next_token.tolist())


if __name__ == "__main__":
    main()
