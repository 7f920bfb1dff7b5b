# label: correct
# why: a tiny BERT built from a config (SDPA attention) on a padded batch with the attention_mask a tokenizer would give
# requires: torch2
import torch
from transformers import BertConfig, BertForSequenceClassification

CLS, SEP, PAD = 101, 102, 0


def encode(batch):
    rows = [[CLS] + toks + [SEP] for toks in batch]
    width = max(map(len, rows))
    input_ids = torch.tensor([r + [PAD] * (width - len(r)) for r in rows])
    return input_ids, (input_ids != PAD).long()


def main():
    torch.manual_seed(53)
    config = BertConfig(vocab_size=150, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=32, num_labels=3, pad_token_id=PAD)
    model = BertForSequenceClassification(config).eval()
    input_ids, attention_mask = encode([[7, 8, 9, 10], [21], [33, 34, 35, 36, 37, 38]])
    with torch.no_grad():
        logits = model(input_ids=input_ids, attention_mask=attention_mask).logits
    print(logits.argmax(-1).tolist())


if __name__ == "__main__":
    main()
