import os
import pickle

import numpy as np
from torch.utils.data import Dataset


class QANetDataset(Dataset):
    def __init__(self, data_dir, data_type):
        def load(name):
            with open(os.path.join(data_dir, data_type + name), 'rb') as f:
                return np.array(pickle.load(f), dtype=np.int64)

        self.context_idxs = load('_context_idxs.pkl')
        self.context_char_idxs = load('_context_char_idxs.pkl')
        self.ques_idxs = load('_ques_idxs.pkl')
        self.ques_char_idxs = load('_ques_char_idxs.pkl')
        self.y = load('_y.pkl')

    def __getitem__(self, index):
        context_idxs = self.context_idxs[index]
        ques_idxs = self.ques_idxs[index]
        # 1.0 on real words, 0.0 on padding (word id 0)
        c_mask = np.array(context_idxs > 0, dtype=np.float32)
        q_mask = np.array(ques_idxs > 0, dtype=np.float32)
        return (context_idxs, self.context_char_idxs[index],
                ques_idxs, self.ques_char_idxs[index], c_mask, q_mask), self.y[index]

    def __len__(self):
        return len(self.context_idxs)
