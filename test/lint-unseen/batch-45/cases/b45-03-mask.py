# case: b45-03-mask
# modelled-on: Zettelkasten/returnn-self-attention https://github.com/Zettelkasten/returnn-self-attention/commit/da6b08591f4f9dbe73863b1fbc845d2a9885c05a
# label: buggy
# class: real-bug
# pattern: vanilla multi-head self-attention written as a RETURNN (TensorFlow) network dict, layer by layer, so it can be extended: one linear projects to per-head q/k/v, keys and values are accumulated over decoder steps with cum_concat (a KV cache inside the recurrent layer), the energies are a dot over the feature axis, a past-only mask is a 'compare' of the query index with the accumulated key indices fed to a 'switch' that puts -inf where the condition is False, and softmax_over_spatial normalises over the key history
# why: buggy: the function's docstring says it is the layer-by-layer form of RETURNN's self_attention layer, which scales the energies by key_dim ** -0.5; no energy_factor is given to softmax_over_spatial, so the energies are unscaled; and the mask keeps a key where query index <= key index (kind 'less_equal'), i.e. the current and later positions, hiding the past the decoder should see. The author's fix commit 3e89622 ("Fix vanilla self attention; Set energy_factor") changes the comparison to 'greater_equal' and adds energy_factor=key_dim ** -0.5 (it also corrects the split indices and the value accumulation, which the case writes in their fixed form)
# source: https://github.com/Zettelkasten/returnn-self-attention https://github.com/Zettelkasten/returnn-self-attention/commit/3e89622c18c36ccd555a1b0df0f8a7c40232aa3b self_attention.py
import tensorflow as tf

FF_INIT = "variance_scaling_initializer(mode='fan_in', distribution='uniform', scale=1.0)"


def build_plain_self_attention(net, source, prefix, in_rec=True, causal=None, axis_tag=None,
                               heads=8, dk=64, dv=64, init=FF_INIT):
  """
  Layer-by-layer equivalent of
    net[prefix + '_att'] = {'class': 'self_attention', 'num_heads': heads, 'total_key_dim': heads * dk,
                            'n_out': heads * dv, 'attention_left_only': causal, 'from': [source]}
  kept as separate layers so that other code can hook into them.
  """
  if causal is None:
    causal = in_rec
  if axis_tag is None:
    axis_tag = 'stag:extern_data:classes' if in_rec else 'stag:extern_data:data'
  assert axis_tag.startswith('stag:')
  assert not in_rec or causal

  net[prefix + '_proj'] = {
    'class': 'linear', 'activation': None, 'with_bias': False, 'from': [source],
    'n_out': heads * (2 * dk + dv), 'forward_weights_init': init}  # [B,T?,n*(2dk+dv)]
  net[prefix + '_heads'] = {
    'class': 'split_dims', 'axis': 'F', 'dims': (heads, 2 * dk + dv), 'from': [prefix + '_proj']}
  net[prefix + '_parts'] = {
    'class': 'split', 'axis': 'F', 'size_splits': (dk, dk, dv), 'from': [prefix + '_heads']}
  for idx, part in enumerate(('_q', '_k', '_v')):
    net[prefix + part] = {'class': 'copy', 'from': [prefix + '_parts/%i' % idx]}  # [B,T?,n,d]

  # keys and values of every step so far
  net[prefix + '_k_hist'] = {'class': 'cum_concat', 'from': [prefix + '_k']}  # [B,T|rec-history,n,dk]
  net[prefix + '_v_hist'] = {'class': 'cum_concat', 'from': [prefix + '_v']}  # [B,T|rec-history,n,dv]

  net[prefix + '_logits'] = {
    'class': 'dot', 'from': [prefix + '_q', prefix + '_k_hist'],
    'red1': 'static:-1', 'red2': 'static:-1', 'var1': axis_tag + '?', 'var2': 'stag:rec-history'}
  if causal:
    net[prefix + '_logits_raw'] = net[prefix + '_logits']
    if in_rec:
      q_pos = ':i'
    else:
      net[prefix + '_q_pos'] = {'class': 'range_in_axis', 'from': [source], 'axis': axis_tag, 'keepdims': False}
      q_pos = prefix + '_q_pos'
    net[prefix + '_k_pos'] = {
      'class': 'range_in_axis', 'from': [prefix + '_k_hist'], 'axis': 'stag:rec-history', 'keepdims': False}
    net[prefix + '_visible'] = {'class': 'compare', 'kind': 'less_equal', 'from': [q_pos, prefix + '_k_pos']}
    net[prefix + '_logits'] = {
      'class': 'switch', 'true_from': prefix + '_logits_raw', 'false_from': float('-inf'),
      'condition': prefix + '_visible'}  # expect: ATT002
  net[prefix + '_probs'] = {
    'class': 'softmax_over_spatial', 'from': [prefix + '_logits'], 'axis': 'stag:rec-history'}  # expect: ATT003
  net[prefix + '_ctx'] = {
    'class': 'dot', 'from': [prefix + '_probs', prefix + '_v_hist'],
    'red1': 'stag:rec-history', 'red2': 'stag:rec-history', 'var1': axis_tag + '?', 'var2': 'static:-1'}
  net[prefix + '_att'] = {'class': 'merge_dims', 'axes': 'static', 'from': [prefix + '_ctx']}  # [B,T?,n*dv]
