import torch

from gpt import GPTModel


@torch.no_grad()
def generate(model: GPTModel, tokens, max_new_tokens=50, block_size=32, use_kv_cache=True):
    model.eval()
    x = torch.tensor(tokens, dtype=torch.long).unsqueeze(0)
    past = None
    for _ in range(max_new_tokens):
        if use_kv_cache and x.shape[1] <= block_size:
            if past is None:
                logits, past = model(x, past_kv_list=None, position_offset=0, use_cache=True)
            else:
                logits, past = model(x[:, -1:], past_kv_list=past, position_offset=x.shape[1] - 1, use_cache=True)
        else:
            logits = model(x[:, -block_size:])
            past = None
        probs = torch.softmax(logits[:, -1, :], dim=-1)
        x = torch.cat([x, torch.multinomial(probs, num_samples=1)], dim=1)
    return x[0].tolist()
