"""Ball-by-ball samples: a window of recent deliveries (vectors) and the tokens of the next over."""
import torch
from torch.nn.utils.rnn import pad_sequence

PAD, START, END = 0, 1, 2


def collate(items):
    deliveries = [it["deliveries"] for it in items]
    overs = [torch.tensor([START] + it["over_tokens"], dtype=torch.long) for it in items]
    overs_out = [torch.tensor(it["over_tokens"] + [END], dtype=torch.long) for it in items]
    padded = pad_sequence(deliveries, batch_first=True, padding_value=0.0)
    over_in = pad_sequence(overs, batch_first=True, padding_value=PAD)
    over_out = pad_sequence(overs_out, batch_first=True, padding_value=PAD)
    # keep masks: 1.0 on real positions, 0.0 on padding
    delivery_keep = (padded.abs().sum(dim=-1) != 0).float()
    over_keep = (over_in != PAD).float()
    return {
        "deliveries": padded,
        "match_context": torch.stack([it["match_context"] for it in items]),
        "over_in": over_in,
        "over_out": over_out,
        "delivery_keep": delivery_keep,
        "over_keep": over_keep,
    }
