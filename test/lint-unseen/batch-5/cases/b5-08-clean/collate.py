from transformers import DataCollatorForWholeWordMask, default_data_collator


class PretrainCollator:
    """Masks whole words for MLM and passes the tokenizer's padding mask through."""

    def __init__(self, tokenizer, mlm_prob=0.15):
        self.keep_keys = ["token_type_ids", "attention_mask"]
        self.mlm = DataCollatorForWholeWordMask(tokenizer, mlm=True, mlm_probability=mlm_prob, return_tensors="pt")

    def __call__(self, examples):
        kept = [{key: ex[key] for key in self.keep_keys} for ex in examples]
        return {**default_data_collator(kept, return_tensors="pt"), **self.mlm(examples)}
