# case: t43cc-15-clean
# modelled-on: LLLucyH/news-recommendation https://github.com/LLLucyH/news-recommendation/commit/bb8fbbbbf6dd7c678cf0b19f6d00e13b59901059
# label: correct
# class: clean
# pattern: candidate-aware news recommendation: the processor (another module) stores each title's token ids and mask (a tokenizer's `attention_mask`, or `(ids > 0).long()`) and pads a user's history with all-zero news items; the model encodes titles with a pretrained encoder given `attention_mask=mask` (or a CNN), and attends from the candidate to the history with `nn.MultiheadAttention(batch_first=True)` and `key_padding_mask = h_text.sum(dim=-1) == 0`; when a user has no history at all, the first slot of that row is unmasked (`key_padding_mask[all_masked, 0] = False`) before the call
# why: correct: a history slot whose token ids sum to 0 is a padding item (real titles have nonzero ids, the processor pads with zeros), so the mask is True exactly where PyTorch must ignore a key; the guard makes sure no row is fully masked, which would give NaN; the pretrained encoder reads the tokenizer's mask as 1 = attend
# looks-like: ATT002, ATT007
# source: https://github.com/LLLucyH/news-recommendation https://github.com/LLLucyH/news-recommendation/commit/bb8fbbbbf6dd7c678cf0b19f6d00e13b59901059 src/model.py
import torch
import transformers


class CandidateAwareRecommender(torch.nn.Module):
    def __init__(self, config, vocab_size, entity_vectors=None):
        super().__init__()
        self.config = config
        if config.USE_LLM:
            self.bert = transformers.AutoModel.from_pretrained(config.MODEL_NAME)
            for p in self.bert.parameters():
                p.requires_grad = False
            text_dim = config.LLM_OUTPUT_DIM
        else:
            self.emb = torch.nn.Embedding(vocab_size, config.WORD_EMB_DIM, padding_idx=0)
            self.cnn = torch.nn.Conv1d(config.WORD_EMB_DIM, config.HIDDEN_DIM, config.CNN_FILTER_SIZE, padding=1)
            text_dim = config.HIDDEN_DIM
        self.ent_dim = 0
        if config.USE_ENTITIES and entity_vectors is not None:
            self.ent_emb = torch.nn.Embedding.from_pretrained(entity_vectors, freeze=False, padding_idx=0)
            self.ent_dim = entity_vectors.shape[1]
        self.news_projector = torch.nn.Sequential(
            torch.nn.Linear(text_dim + self.ent_dim, config.HIDDEN_DIM), torch.nn.ReLU(), torch.nn.Dropout(config.DROPOUT)
        )
        self.cross_attention = torch.nn.MultiheadAttention(
            embed_dim=config.HIDDEN_DIM, num_heads=config.NUM_HEADS, batch_first=True, dropout=config.DROPOUT
        )

    def encode_news(self, x, mask, ents):
        if self.config.USE_LLM:
            t_vec = self.bert(input_ids=x, attention_mask=mask).last_hidden_state[:, 0, :]
        else:
            t_vec = torch.relu(self.cnn(self.emb(x).transpose(1, 2))).max(dim=-1)[0]
        if self.ent_dim > 0:
            t_vec = torch.cat([t_vec, self.ent_emb(ents).mean(dim=1)], dim=1)
        return self.news_projector(t_vec)

    def forward(self, h_text, h_mask, h_ents, c_text, c_mask, c_ents):
        c_vec = self.encode_news(c_text, c_mask, c_ents)

        b, h_len, s_len = h_text.shape
        h_vecs = self.encode_news(h_text.view(-1, s_len), h_mask.view(-1, s_len), h_ents.view(b * h_len, -1)).view(b, h_len, -1)

        # padding news: all token ids are zero
        key_padding_mask = h_text.sum(dim=-1) == 0  # [batch, hist_len]
        # a user without history: unmask the first slot so the row is not all -inf
        all_masked = key_padding_mask.all(dim=1)
        if all_masked.any():
            key_padding_mask[all_masked, 0] = False

        user_vec, _ = self.cross_attention(
            query=c_vec.unsqueeze(1),
            key=h_vecs,
            value=h_vecs,
            key_padding_mask=key_padding_mask,
        )
        return (user_vec.squeeze(1) * c_vec).sum(dim=1)
