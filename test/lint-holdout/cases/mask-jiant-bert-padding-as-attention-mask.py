# case: mask-jiant-bert-padding-as-attention-mask
# modelled-on: nyu-mll/jiant https://github.com/nyu-mll/jiant/pull/465
# label: buggy
# pattern: a wrapper pads variable-length wordpiece ids into a fixed block and builds the mask from the pad id itself, then hands it to the pretrained BERT's attention_mask (1 = attend, 0 = padding); the mask is computed several lines before the id shift that hides where padding was
# why: (ids == 0) is True at the padding, so BertModel attends only to the padding and masks every real token; PR #465 "Fix sign on BERT attention mask" changed it to (ids != 0) (the API here is BERT's attention_mask rather than SDPA/MHA, a stretch of ATT002's wording)
import logging as log

from typing import Dict

import torch
import torch.nn as nn

# huggingface implementation of BERT
import pytorch_pretrained_bert


class BertEmbedderModule(nn.Module):
    """ Wrapper for BERT module to fit into jiant APIs. """

    def __init__(self, args, cache_dir=None):
        super(BertEmbedderModule, self).__init__()

        self.model = pytorch_pretrained_bert.BertModel.from_pretrained(
            args.bert_model_name, cache_dir=cache_dir)
        self.embeddings_mode = args.bert_embeddings_mode
        # BERT supports up to 512 tokens; see section 3.2 of the paper
        assert args.max_seq_len <= 512
        self.seq_len = args.max_seq_len

        for param in self.model.parameters():
            param.requires_grad = bool(args.bert_fine_tune)

    def forward(self, sent: Dict[str, torch.LongTensor],
                unused_task_name: str = "") -> torch.FloatTensor:
        """ Run BERT to get hidden states.

        Args:
            sent: batch dictionary

        Returns:
            h: [batch_size, seq_len, d_emb]
        """
        assert "bert_wpm_pretokenized" in sent
        var_ids = sent["bert_wpm_pretokenized"]

        # Model has fixed, learned positional component, so we must pass a
        # block of exactly seq_len length.
        ids = torch.zeros(var_ids.size()[0], self.seq_len, dtype=var_ids.dtype,
                          device=var_ids.device)
        fill_len = min(var_ids.size()[1], self.seq_len)
        ids[:, :fill_len] = var_ids[:, :fill_len]

        mask = (ids == 0)
        # The AllenNLP indexer reserves 0 for padding and 1 for its own unknown
        # token, so shift everything down by two to get BERT vocabulary ids.
        FILL_ID = 0  # [PAD] for BERT models.
        ids[ids == 0] = FILL_ID + 2
        assert (ids > 1).all()
        ids -= 2

        if self.embeddings_mode != "none":
            h_lex = self.model.embeddings.word_embeddings(ids)
            h_lex = self.model.embeddings.LayerNorm(h_lex)

        if self.embeddings_mode != "only":
            encoded_layers, _ = self.model(ids, token_type_ids=torch.zeros_like(ids),
                                           attention_mask=mask,  # expect: ATT002
                                           output_all_encoded_layers=True)
            h_enc = encoded_layers[-1]

        if self.embeddings_mode == "none":
            h = h_enc
        elif self.embeddings_mode == "cat":
            h = torch.cat([h_enc, h_lex], dim=2)
        elif self.embeddings_mode == "only":
            h = h_lex
        else:
            raise NotImplementedError(f"embeddings_mode={self.embeddings_mode} not supported.")

        # Truncate back to the original ids length; this only drops padding.
        return h[:, :var_ids.size()[1], :]

    def get_output_dim(self):
        if self.embeddings_mode == "cat":
            return 2 * self.model.config.hidden_size
        return self.model.config.hidden_size
