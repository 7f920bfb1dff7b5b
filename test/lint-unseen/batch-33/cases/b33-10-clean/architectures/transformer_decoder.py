import torch.nn as nn

from architectures.multi_head_attention import MultiHeadAttention


class TransformerDecoderBlock(nn.Module):
    def __init__(self, d_model, n_heads, d_ff, dropout_proba):
        super(TransformerDecoderBlock, self).__init__()
        # masked self-attention
        self.W_q_1 = nn.Linear(d_model, d_model)
        self.W_k_1 = nn.Linear(d_model, d_model)
        self.W_v_1 = nn.Linear(d_model, d_model)
        self.mha_layer_1 = MultiHeadAttention(d_model, n_heads)
        self.norm_1 = nn.LayerNorm(d_model)
        # encoder-decoder attention
        self.W_q_2 = nn.Linear(d_model, d_model)
        self.W_k_2 = nn.Linear(d_model, d_model)
        self.W_v_2 = nn.Linear(d_model, d_model)
        self.mha_layer_2 = MultiHeadAttention(d_model, n_heads)
        self.norm_2 = nn.LayerNorm(d_model)
        self.ffn_layer = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.norm_3 = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout_proba)

    def forward(self, x, encoder_output, src_mask, trg_mask):
        # x: (batch_size, trg_seq_len, d_model); encoder_output: (batch_size, src_seq_len, d_model)
        # src_mask: (batch_size, 1, 1, src_seq_len); trg_mask: (batch_size, 1, trg_seq_len, trg_seq_len)
        out_1 = self.mha_layer_1(self.W_q_1(x), self.W_k_1(x), self.W_v_1(x), trg_mask)
        out_1 = self.norm_1(x + self.dropout(out_1))

        out_2 = self.mha_layer_2(self.W_q_2(out_1), self.W_k_2(encoder_output), self.W_v_2(encoder_output), src_mask)
        out_2 = self.norm_2(out_1 + self.dropout(out_2))

        return self.norm_3(out_2 + self.dropout(self.ffn_layer(out_2)))


class TransformerDecoder(nn.Module):
    def __init__(self, n_blocks, n_heads, d_model, d_ff, dropout_proba):
        super(TransformerDecoder, self).__init__()
        self.decoder_blocks = nn.ModuleList(
            [TransformerDecoderBlock(d_model, n_heads, d_ff, dropout_proba) for _ in range(n_blocks)]
        )

    def forward(self, x, encoder_output, src_mask, trg_mask):
        for decoder_block in self.decoder_blocks:
            x = decoder_block(x, encoder_output, src_mask, trg_mask)
        return x
