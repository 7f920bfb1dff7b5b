from transformers import PreTrainedTokenizerFast


class SummarizationFeatures:
    """Turns a batch of articles into encoder features; the padding mask is the tokenizer's attention_mask."""

    def __init__(self, tokenizer: PreTrainedTokenizerFast, max_encoder_steps: int = 400):
        self.tokenizer = tokenizer
        self.max_encoder_steps = max_encoder_steps

    def encoder_features(self, articles):
        enc = self.tokenizer(
            articles, truncation=True, max_length=self.max_encoder_steps, padding="longest", return_tensors="pt"
        )
        return {
            "encoder_input_ids": enc["input_ids"],
            # 1 on article tokens, 0 on padding (Hugging Face convention)
            "encoder_padding_mask": enc["attention_mask"],
        }
