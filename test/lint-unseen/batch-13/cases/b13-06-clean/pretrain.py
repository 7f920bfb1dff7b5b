import torch

from modules.bert import Bert


def train_step(model: Bert, head, batch, tokenizer, optimizer, device):
    input_ids = batch["input_ids"].to(device)
    token_type_ids = batch["token_type_ids"].to(device)
    attention_mask = (input_ids != tokenizer.pad_token_id).bool().to(device)
    hidden, pooled = model(input_ids, token_type_ids, attention_mask)
    loss = head(hidden, pooled, batch["mlm_labels"].to(device), batch["nsp_label"].to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
