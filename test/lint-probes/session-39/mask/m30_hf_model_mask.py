from transformers import AutoModel, AutoTokenizer

tok = AutoTokenizer.from_pretrained("bert-base-uncased")
model = AutoModel.from_pretrained("bert-base-uncased")


def embed(texts):
    enc = tok(texts, padding=True, truncation=True, return_tensors="pt")
    keep = enc["input_ids"] != tok.pad_token_id
    out = model(input_ids=enc["input_ids"], attention_mask=keep.long())
    return out.last_hidden_state
