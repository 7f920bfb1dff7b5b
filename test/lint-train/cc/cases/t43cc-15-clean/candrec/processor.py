import re

import torch
import transformers


class NewsProcessor:
    """Turns each news title into token ids and a token mask (and entity ids)."""

    def __init__(self, config):
        self.config = config
        self.word_dict = {"<pad>": 0, "<unk>": 1}
        self.news_features = {}
        if config.USE_LLM:
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(config.MODEL_NAME)

    def add(self, idx, title, entity_ids):
        ents = entity_ids[: self.config.MAX_ENTITY_LEN]
        ents = ents + [0] * (self.config.MAX_ENTITY_LEN - len(ents))
        if self.config.USE_LLM:
            t = self.tokenizer(
                str(title), max_length=self.config.MAX_TITLE_LEN, padding="max_length", truncation=True, return_tensors="pt"
            )
            text, mask = t["input_ids"].squeeze(0), t["attention_mask"].squeeze(0)
        else:
            words = re.sub(r"[^\w\s]", "", str(title).lower()).split()[: self.config.MAX_TITLE_LEN]
            for w in words:
                self.word_dict.setdefault(w, len(self.word_dict))
            ids = [self.word_dict.get(w, 1) for w in words]
            ids += [0] * (self.config.MAX_TITLE_LEN - len(ids))
            text = torch.tensor(ids)
            mask = (text > 0).long()
        self.news_features[idx] = {"text": text, "mask": mask, "ents": torch.tensor(ents, dtype=torch.long)}

    def history_tensors(self, history_idx):
        """Pads a user's history with all-zero news to MAX_HISTORY_LEN."""
        pad = {
            "text": torch.zeros(self.config.MAX_TITLE_LEN, dtype=torch.long),
            "mask": torch.zeros(self.config.MAX_TITLE_LEN, dtype=torch.long),
            "ents": torch.zeros(self.config.MAX_ENTITY_LEN, dtype=torch.long),
        }
        items = [self.news_features[i] for i in history_idx[-self.config.MAX_HISTORY_LEN :]]
        items = [pad] * (self.config.MAX_HISTORY_LEN - len(items)) + items
        return {k: torch.stack([it[k] for it in items]) for k in ("text", "mask", "ents")}
