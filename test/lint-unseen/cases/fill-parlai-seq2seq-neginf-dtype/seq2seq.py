import torch

from modules import Seq2seq


class Seq2seqAgent(object):
    """Agent which takes an input sequence and produces an output sequence."""

    def __init__(self, opt):
        self.opt = opt
        self.use_cuda = not opt.get('no_cuda') and torch.cuda.is_available()
        self.fp16 = self.use_cuda and opt.get('fp16', False)
        self.model = self.build_model()
        if self.use_cuda:
            self.model.cuda()
        if self.fp16:
            self.model = self.model.half()

    def build_model(self):
        opt = self.opt
        return Seq2seq(
            len(opt['dict']), opt['embeddingsize'], opt['hiddensize'],
            numlayers=opt['numlayers'], attention=opt['attention'],
        )
