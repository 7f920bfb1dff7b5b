import torch


def collate_fn(batch, pad_token_id: int = 0):
    """Pad a batch; masks are True for real tokens, False for padding."""
    src = torch.nn.utils.rnn.pad_sequence([b["src"] for b in batch], batch_first=True, padding_value=pad_token_id)
    trg_in = torch.nn.utils.rnn.pad_sequence([b["trg_input"] for b in batch], batch_first=True, padding_value=pad_token_id)
    trg_out = torch.nn.utils.rnn.pad_sequence([b["trg_output"] for b in batch], batch_first=True, padding_value=pad_token_id)
    return {
        "src": src,
        "trg_input": trg_in,
        "trg_output": trg_out,
        "src_mask": src != pad_token_id,
        "trg_input_mask": trg_in != pad_token_id,
    }
