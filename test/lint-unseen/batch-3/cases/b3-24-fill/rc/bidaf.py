# case: b3-24-fill
# modelled-on: allenai/allennlp-models https://github.com/allenai/allennlp-models/commit/d20cc8fa8d98f3c05e13542eb7fc90864ec630fd
# label: buggy
# class: real-bug
# pattern: BiDAF attention flow: context-to-query attention with a masked softmax helper, and query-to-context attention that first replaces the masked question columns of the similarity matrix with a very negative constant (so they lose the max over the question), then a masked softmax over the passage; the model is trained with automatic mixed precision by the training script beside it
# why: the constant -1e7 is below float16's range, so under autocast the similarity is half and masked_fill raises "value cannot be converted to type at::Half without overflow"; PR #68 ("Fixes for mixed precision training") replaces it with the dtype's lowest value
# source: https://github.com/allenai/allennlp-models https://github.com/allenai/allennlp-models/commit/d20cc8fa8d98f3c05e13542eb7fc90864ec630fd allennlp_models/rc/models/bidaf.py
import torch
from torch import nn

from . import util


class AttentionFlow(nn.Module):
    def __init__(self, encoding_dim):
        super().__init__()
        self.similarity = nn.Linear(3 * encoding_dim, 1)

    def matrix_attention(self, passage, question):
        p_len, q_len = passage.size(1), question.size(1)
        p = passage.unsqueeze(2).expand(-1, -1, q_len, -1)
        q = question.unsqueeze(1).expand(-1, p_len, -1, -1)
        return self.similarity(torch.cat([p, q, p * q], dim=-1)).squeeze(-1)

    def forward(self, encoded_passage, encoded_question, passage_mask, question_mask):
        batch_size, passage_length, encoding_dim = encoded_passage.size()

        # Shape: (batch_size, passage_length, question_length)
        passage_question_similarity = self.matrix_attention(encoded_passage, encoded_question)
        passage_question_attention = util.masked_softmax(passage_question_similarity, question_mask)
        passage_question_vectors = util.weighted_sum(encoded_question, passage_question_attention)

        # We replace masked values with something really negative here, so they don't affect the
        # max below.
        masked_similarity = util.replace_masked_values(
            passage_question_similarity, question_mask.unsqueeze(1), -1e7  # expect: ATT007
        )
        # Shape: (batch_size, passage_length)
        question_passage_similarity = masked_similarity.max(dim=-1)[0]
        question_passage_attention = util.masked_softmax(question_passage_similarity, passage_mask)
        question_passage_vector = util.weighted_sum(encoded_passage, question_passage_attention)
        tiled = question_passage_vector.unsqueeze(1).expand(batch_size, passage_length, encoding_dim)

        return torch.cat(
            [
                encoded_passage,
                passage_question_vectors,
                encoded_passage * passage_question_vectors,
                encoded_passage * tiled,
            ],
            dim=-1,
        )
