# Settings of the text classifier (the transformer reads its widths from here).
mode = 'train_classifier'

classifier_config = {
    # textcnn, textrnn, textrcnn or transformer
    'classifier': 'transformer',
    # '' trains the embedding from scratch (mask_zero on), 'word2vec' loads a frozen matrix
    'embedding_method': '',
    # 'word' or 'char' tokens
    'token_level': 'word',
    'embedding_dim': 300,
    'max_sequence_length': 300,
    'dropout_rate': 0.5,
    # width of the position-wise feed-forward layer
    'hidden_dim': 256,
    'encoder_num': 1,
    'head_num': 12,
    'learning_rate': 0.0005,
    'optimizer': 'Adam',
    'batch_size': 64,
    'epoch': 30,
    'checkpoints_dir': 'model/transformer',
    'max_to_keep': 1,
}
