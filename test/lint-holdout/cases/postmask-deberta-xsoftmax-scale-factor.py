# case: postmask-deberta-xsoftmax-scale-factor
# modelled-on: microsoft/DeBERTa https://github.com/microsoft/DeBERTa/blob/master/DeBERTa/deberta/ops.py
# label: correct
# pattern: disentangled attention: content-to-content scores plus c2p/p2c relative-position terms, all divided by sqrt(d * scale_factor) with scale_factor = 1 + number of position terms; a custom autograd XSoftmax fills masked positions with -inf, softmaxes, and then zeroes the masked positions again
# why: the scale follows the paper (1/sqrt(3d) when three score terms are summed); XSoftmax's second fill only turns the NaN of fully masked (padding) query rows into 0 and does not change any unmasked row, so no renormalisation is needed
# looks-like: ATT006, ATT007, ATT004, ATT002
import math

import torch
from torch import _softmax_backward_data


class XSoftmax(torch.autograd.Function):
  """ Masked Softmax which is optimized for saving memory

  Args:
    input (:obj:`torch.tensor`): The input tensor that will apply softmax.
    mask (:obj:`torch.IntTensor`): The mask matrix where 0 indicate that element will be ignored in the softmax caculation.
    dim (int): The dimenssion that will apply softmax.
  """

  @staticmethod
  def forward(self, input, mask, dim):
    self.dim = dim
    rmask = (1 - mask).bool()

    output = input.masked_fill(rmask, float('-inf'))
    output = torch.softmax(output, self.dim)
    output.masked_fill_(rmask, 0)
    self.save_for_backward(output)
    return output

  @staticmethod
  def backward(self, grad_output):
    output, = self.saved_tensors
    inputGrad = _softmax_backward_data(grad_output, output, self.dim, output)
    return inputGrad, None, None


class DisentangledSelfAttention(torch.nn.Module):
  def __init__(self, config):
    super().__init__()
    self.num_attention_heads = config.num_attention_heads
    self.attention_head_size = int(config.hidden_size / config.num_attention_heads)
    self.all_head_size = self.num_attention_heads * self.attention_head_size
    self.in_proj = torch.nn.Linear(config.hidden_size, self.all_head_size * 3, bias=False)
    self.q_bias = torch.nn.Parameter(torch.zeros((self.all_head_size), dtype=torch.float))
    self.v_bias = torch.nn.Parameter(torch.zeros((self.all_head_size), dtype=torch.float))
    self.pos_att_type = [x.strip() for x in getattr(config, 'pos_att_type', 'none').lower().split('|')]  # c2p|p2c

    self.relative_attention = getattr(config, 'relative_attention', False)
    if self.relative_attention:
      self.max_relative_positions = getattr(config, 'max_relative_positions', -1)
      if self.max_relative_positions < 1:
        self.max_relative_positions = config.max_position_embeddings
      if 'c2p' in self.pos_att_type or 'p2p' in self.pos_att_type:
        self.pos_proj = torch.nn.Linear(config.hidden_size, self.all_head_size, bias=False)
      if 'p2c' in self.pos_att_type or 'p2p' in self.pos_att_type:
        self.pos_q_proj = torch.nn.Linear(config.hidden_size, self.all_head_size)

    self.dropout = torch.nn.Dropout(config.attention_probs_dropout_prob)

  def transpose_for_scores(self, x):
    new_x_shape = x.size()[:-1] + (self.num_attention_heads, -1)
    x = x.view(*new_x_shape)
    return x.permute(0, 2, 1, 3)

  def forward(self, hidden_states, attention_mask, rel_embeddings=None, relative_pos=None):
    qp = self.in_proj(hidden_states)  # .split(self.all_head_size, dim=-1)
    query_layer, key_layer, value_layer = self.transpose_for_scores(qp).chunk(3, dim=-1)

    query_layer = query_layer + self.transpose_for_scores(self.q_bias[None, None, :])
    value_layer = value_layer + self.transpose_for_scores(self.v_bias[None, None, :])

    rel_att = None
    # Take the dot product between "query" and "key" to get the raw attention scores.
    scale_factor = 1 + len(self.pos_att_type)
    scale = math.sqrt(query_layer.size(-1) * scale_factor)
    query_layer = query_layer / scale
    attention_scores = torch.matmul(query_layer, key_layer.transpose(-1, -2))
    if self.relative_attention:
      rel_att = self.disentangled_att_bias(query_layer, key_layer, relative_pos, rel_embeddings, scale_factor)

    if rel_att is not None:
      attention_scores = (attention_scores + rel_att)

    # bxhxlxd
    attention_probs = XSoftmax.apply(attention_scores, attention_mask, -1)
    attention_probs = self.dropout(attention_probs)
    context_layer = torch.matmul(attention_probs, value_layer)
    context_layer = context_layer.permute(0, 2, 1, 3).contiguous()
    new_context_layer_shape = context_layer.size()[:-2] + (-1,)
    context_layer = context_layer.view(*new_context_layer_shape)
    return context_layer, attention_probs

  def disentangled_att_bias(self, query_layer, key_layer, relative_pos, rel_embeddings, scale_factor):
    att_span = self.max_relative_positions
    relative_pos = relative_pos.long().to(query_layer.device)
    rel_embeddings = rel_embeddings[self.max_relative_positions - att_span:self.max_relative_positions + att_span, :].unsqueeze(0)

    score = 0
    # content->position
    if 'c2p' in self.pos_att_type:
      pos_key_layer = self.transpose_for_scores(self.pos_proj(rel_embeddings))
      c2p_att = torch.matmul(query_layer, pos_key_layer.transpose(-1, -2))
      c2p_pos = torch.clamp(relative_pos + att_span, 0, att_span * 2 - 1)
      c2p_att = torch.gather(c2p_att, dim=-1, index=c2p_pos.expand([query_layer.size(0), query_layer.size(1), query_layer.size(2), relative_pos.size(-1)]))
      score += c2p_att

    # position->content
    if 'p2c' in self.pos_att_type:
      pos_query_layer = self.transpose_for_scores(self.pos_q_proj(rel_embeddings))
      pos_query_layer /= math.sqrt(pos_query_layer.size(-1) * scale_factor)
      p2c_att = torch.matmul(key_layer, pos_query_layer.transpose(-1, -2))
      p2c_pos = torch.clamp(-relative_pos + att_span, 0, att_span * 2 - 1)
      p2c_att = torch.gather(p2c_att, dim=-1, index=p2c_pos.expand([query_layer.size(0), query_layer.size(1), key_layer.size(-2), key_layer.size(-2)])).transpose(-1, -2)
      score += p2c_att

    return score
