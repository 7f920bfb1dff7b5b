import torch
import torch.nn as nn


class ModuleUtilsMixin:
    """A few utilities for torch.nn.Modules, to be used as a mixin."""

    @property
    def dtype(self):
        return next(self.parameters()).dtype

    def get_extended_attention_mask(self, attention_mask, input_shape):
        """Makes broadcastable attention masks so that masked tokens are ignored.

        attention_mask: 1 for tokens to attend to, 0 for tokens to ignore (the tokenizer's mask).
        """
        if attention_mask.dim() == 3:
            extended_attention_mask = attention_mask[:, None, :, :]
        elif attention_mask.dim() == 2:
            extended_attention_mask = attention_mask[:, None, None, :]
        else:
            raise ValueError(
                "Wrong shape for input_ids (shape {}) or attention_mask (shape {})".format(input_shape, attention_mask.shape)
            )

        # Since attention_mask is 1.0 for positions we want to attend and 0.0 for
        # masked positions, this operation will create a tensor which is 0.0 for
        # positions we want to attend and -10000.0 for masked positions.
        # Since we are adding it to the raw scores before the softmax, this is
        # effectively the same as removing these entirely.
        exteneded_attention_mask = extended_attention_mask.to(dtype=self.dtype)  # fp16 compatibility
        exteneded_attention_mask = (1.0 - extended_attention_mask) * -10000.0
        return extended_attention_mask


class PreTrainedModel(nn.Module, ModuleUtilsMixin):
    base_model_prefix = ""

    def __init__(self, config):
        super().__init__()
        self.config = config
