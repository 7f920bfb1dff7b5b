"""Sample a story with the key/value store switched on."""
import argparse
from dataclasses import dataclass

import torch

from llama_lite import StoryLM


@dataclass
class Settings:
    n_layers: int = 8
    n_heads: int = 8
    dim: int = 768
    vocab_size: int = 4096
    seq_len: int = 1024
    enable_kv_cache: bool = True

    @property
    def head_size(self):
        return self.dim // self.n_heads


@torch.no_grad()
def sample(model, cfg, prompt_ids, max_new=300, temperature=0.8):
    model.clear_cache()
    ids = torch.tensor([prompt_ids], dtype=torch.long)
    for step in range(max_new):
        if cfg.enable_kv_cache and step > 0:
            chunk = ids[:, -1:]
        else:
            chunk = ids[:, -cfg.seq_len:]
        logits = model(chunk)[:, -1, :] / temperature
        nxt = torch.multinomial(torch.softmax(logits, dim=-1), num_samples=1)
        ids = torch.cat([ids, nxt], dim=1)
    return ids[0].tolist()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", default="checkpoints/story.pt")
    parser.add_argument("--max-new", type=int, default=300)
    args = parser.parse_args()

    cfg = Settings()
    model = StoryLM(cfg)
    model.load_state_dict(torch.load(args.ckpt)["model"])
    model.eval()
    print(sample(model, cfg, [1, 412, 87, 9], args.max_new))
