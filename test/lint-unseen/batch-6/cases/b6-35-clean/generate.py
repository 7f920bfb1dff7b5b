import torch

from model import Transformer


def prefill(model: Transformer, x, input_pos):
    return model(x, input_pos)[:, -1].argmax(-1, keepdim=True)


def decode_one_token(model: Transformer, x, input_pos):
    assert input_pos.shape[-1] == 1
    return model(x, input_pos)[:, -1].argmax(-1, keepdim=True)


def speculative_verify(model: Transformer, cur_token, draft_tokens, input_pos: int, speculate_k: int):
    # k + 1 new tokens after the cached prefix, at their absolute positions
    tokens = torch.cat([cur_token.view(1), draft_tokens]).view(1, -1)
    positions = torch.arange(input_pos, input_pos + speculate_k + 1, device=cur_token.device)
    return model(tokens, positions).softmax(-1)


@torch.no_grad()
def generate(model: Transformer, prompt, max_new_tokens):
    T = prompt.size(-1)
    model.setup_caches(max_batch_size=1, max_seq_length=T + max_new_tokens)
    next_token = prefill(model, prompt.view(1, -1), torch.arange(0, T))
    out = [next_token]
    input_pos = torch.tensor([T])
    for _ in range(max_new_tokens - 1):
        next_token = decode_one_token(model, next_token.view(1, -1), input_pos)
        input_pos += 1
        out.append(next_token)
    return torch.cat(out, dim=-1)
