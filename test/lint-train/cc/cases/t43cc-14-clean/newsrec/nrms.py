import torch
import torch.nn as nn
from transformers import AutoModel

from .layers import AdditivePooling, SelfAttentionLayer


class TitleEncoder(nn.Module):
    """Pretrained encoder -> word self-attention -> additive pooling."""

    def __init__(self, config):
        super().__init__()
        self.backbone = AutoModel.from_pretrained(config['MODEL_NAME'])
        self.words = SelfAttentionLayer(config['EMBEDDING_DIM'], config.get('NUM_ATTENTION_HEADS', 16), config.get('DROPOUT', 0.2))
        self.pool = AdditivePooling(config['EMBEDDING_DIM'], config['ATTENTION_QUERY_DIM'], config.get('DROPOUT', 0.2))
        self.dropout = nn.Dropout(config.get('DROPOUT', 0.2))

    def forward(self, input_ids, attention_mask):
        hidden = self.backbone(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        hidden = self.dropout(self.words(hidden, attention_mask))
        vec, _ = self.pool(hidden, attention_mask)
        return vec


class HistoryEncoder(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.items = SelfAttentionLayer(config['EMBEDDING_DIM'], config.get('NUM_ATTENTION_HEADS', 16), config.get('DROPOUT', 0.2))
        self.pool = AdditivePooling(config['EMBEDDING_DIM'], config['ATTENTION_QUERY_DIM'], config.get('DROPOUT', 0.2))
        self.dropout = nn.Dropout(config.get('DROPOUT', 0.2))

    def forward(self, history_vecs, history_mask):
        h = self.dropout(self.items(history_vecs, history_mask))
        vec, _ = self.pool(h, history_mask)
        return vec


class NRMS(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.title_encoder = TitleEncoder(config)
        self.history_encoder = HistoryEncoder(config)

    def forward(self, history_input_ids, history_attn_mask, candidate_input_ids, candidate_attn_mask):
        b = history_input_ids.size(0)
        L = self.config['MAX_TITLE_LEN']
        hist = self.title_encoder(history_input_ids.view(-1, L), history_attn_mask.view(-1, L))
        hist = hist.view(b, self.config['MAX_HISTORY_LEN'], -1)
        history_mask = (history_attn_mask.sum(dim=2) > 0).long()
        user = self.history_encoder(hist, history_mask)
        cands = self.title_encoder(candidate_input_ids.view(-1, L), candidate_attn_mask.view(-1, L))
        cands = cands.view(b, candidate_input_ids.size(1), -1)
        return torch.bmm(cands, user.unsqueeze(-1)).squeeze(-1)
