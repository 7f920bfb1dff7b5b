import torch

from model import TinyGPT


def load(path):
    ckpt = torch.load(path, map_location="cpu", weights_only=False)
    net = TinyGPT(ckpt["config"])
    net.load_state_dict(ckpt["model_state_dict"])
    return net.eval()


@torch.no_grad()
def to_sql(net, tokenizer, question, max_new_tokens=100):
    ids = torch.tensor([tokenizer.encode(question)], dtype=torch.long)
    for _ in range(max_new_tokens):
        window = ids[:, -net.cfg.block_size:]          # whole window, recomputed each step
        logits, _ = net(window)
        nxt = torch.argmax(torch.softmax(logits[:, -1, :], dim=-1), dim=-1, keepdim=True)
        ids = torch.cat([ids, nxt], dim=1)
        if ";" in tokenizer.decode(ids[0].tolist()):
            break
    return tokenizer.decode(ids[0].tolist())
