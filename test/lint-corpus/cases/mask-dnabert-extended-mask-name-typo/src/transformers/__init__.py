from .modeling_bert import BertModel
