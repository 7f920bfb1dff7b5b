from typing import List

import numpy as np

from attention import LayerCache


class GreedyReplier:
    def __init__(self, model, tokenizer, max_new: int = 50, use_cache: bool = True):
        self.model = model
        self.tok = tokenizer
        self.max_new = max_new
        self.use_cache = use_cache
        cfg = model.config
        self.bos, self.eos, self.sep = cfg.bos_token_id, cfg.eos_token_id, cfg.sep_token_id

    def _last_logits(self, ids: np.ndarray, cache=None, offset: int = 0) -> np.ndarray:
        logits = self.model(ids, training=False, cache=cache, position_offset=offset)
        return logits[0, -1] if logits.ndim == 3 else logits[-1]

    def reply(self, prompt: str) -> str:
        ids: List[int] = [self.bos] + self.tok.encode(prompt, add_special_tokens=False) + [self.sep]
        cache = LayerCache(self.model.config.n_layers) if self.use_cache else None
        # the whole prompt first: no cache entries yet, so every layer uses the square mask
        logits = self._last_logits(np.array(ids), cache=cache)
        for _ in range(self.max_new):
            nxt = int(np.argmax(logits))
            if nxt == self.eos:
                break
            ids.append(nxt)
            if cache is not None:
                logits = self._last_logits(np.array([nxt]), cache=cache, offset=len(ids) - 1)
            else:
                logits = self._last_logits(np.array(ids))
        answer = ids[ids.index(self.sep) + 1:]
        return self.tok.decode([i for i in answer if i not in (self.bos, self.eos, self.sep)])
