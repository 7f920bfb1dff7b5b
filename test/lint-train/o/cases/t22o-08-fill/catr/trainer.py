from torch.cuda import amp


class NativeScaler:
    def __init__(self):
        self._scaler = amp.GradScaler()

    def __call__(self, loss, optimizer):
        self._scaler.scale(loss).backward()

    def step(self, optimizer):
        self._scaler.step(optimizer)
        self._scaler.update()


class Trainer:
    def __init__(self, model, optimizer, trainloader, cfg):
        self.model = model
        self.optimizer = optimizer
        self.trainloader = trainloader
        self.scaler = NativeScaler()
        # mixed_precision: whether to train in float16 with autocast
        self.use_amp = bool(cfg.mixed_precision)

    def training_epoch(self):
        self.model.train()
        self.optimizer.zero_grad()
        for batch in self.trainloader:
            with amp.autocast(enabled=self.use_amp):
                loss = self.model.training_step(batch)
            self.scaler(loss, self.optimizer)
            self.scaler.step(self.optimizer)
            self.optimizer.zero_grad()
