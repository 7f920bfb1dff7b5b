# label: buggy
# why: the attention_mask given to BERT is 1 on the padding (ids == pad) instead of on the real tokens
# requires: torch2
import torch
from transformers import BertConfig, BertModel

PAD_TOKEN_ID = 0


def make_batch(token_lists):
    width = max(map(len, token_lists))
    ids = torch.full((len(token_lists), width), PAD_TOKEN_ID)
    for row, toks in enumerate(token_lists):
        ids[row, : len(toks)] = torch.tensor(toks)
    return ids


if __name__ == "__main__":
    torch.manual_seed(36)
    config = BertConfig(
        vocab_size=200, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=128, max_position_embeddings=64, pad_token_id=PAD_TOKEN_ID,
    )
    model = BertModel(config).eval()
    input_ids = make_batch([[101, 17, 52, 9, 102], [101, 88, 102], [101, 5, 6, 7, 140, 33, 102]])
    input_ids = torch.cat([input_ids, torch.zeros(3, 1, dtype=torch.long)], dim=1)
    attention_mask = (input_ids == PAD_TOKEN_ID).long()
    with torch.no_grad():
        outputs = model(input_ids=input_ids, attention_mask=attention_mask)  # expect: ATT002
    print(outputs.last_hidden_state[:, 0].shape)
