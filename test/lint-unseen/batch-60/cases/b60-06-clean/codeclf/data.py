import os

from torch.utils.data import Dataset


class LanguageFolders(Dataset):
    """Source files under one folder per language; the tokenizer pads every file to max_length."""

    def __init__(self, root, tokenizer, max_length=512):
        self.tokenizer = tokenizer
        self.max_length = max_length
        self.items = []
        self.names = {}
        for label, lang in enumerate(sorted(os.listdir(root))):
            self.names[label] = lang
            lang_dir = os.path.join(root, lang)
            for fname in os.listdir(lang_dir):
                with open(os.path.join(lang_dir, fname), encoding="utf-8", errors="ignore") as fh:
                    self.items.append((fh.read(), label))

    @property
    def num_classes(self):
        return len(self.names)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        text, label = self.items[i]
        enc = self.tokenizer(
            text,
            padding="max_length",
            truncation=True,
            max_length=self.max_length,
            return_tensors="pt",
        )
        # Hugging Face convention: attention_mask is 1 on real tokens, 0 on padding
        return {
            "input_ids": enc["input_ids"][0],
            "attention_mask": enc["attention_mask"][0],
            "label": label,
        }
