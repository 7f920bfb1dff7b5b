import nltk
import numpy as np

STOP = {".", "?", ",", ""}


def encode_sample(frame_feats, sentence, word_vectors, max_frames=200, max_words=20, dim=300):
    """Returns frame features, frame mask, question vectors and question mask (1 = a real frame / word)."""
    frames = np.zeros([max_frames, frame_feats.shape[1]], np.float32)
    n_frames = min(len(frame_feats), max_frames)
    frames[:n_frames] = frame_feats[:n_frames]
    frame_mask = np.ones([max_frames], np.int32)

    words = [w.lower() for w in nltk.word_tokenize(sentence) if w not in STOP]
    vecs = [word_vectors[w] for w in words if w in word_vectors]
    question = np.zeros([max_words, dim], np.float32)
    n_words = min(len(vecs), max_words)
    question[:n_words] = np.stack(vecs, axis=0)[:n_words]
    question_mask = np.zeros([max_words], np.int32)
    question_mask[:n_words] = 1
    return frames, frame_mask, question, question_mask
