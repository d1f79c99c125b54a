"""Independent reference for the local embedder: PyPI `tokenizers` for the token ids and a float64 numpy
forward pass of BERT (all-MiniLM-L6-v2) over the same safetensors weights, then sentence-transformers'
pooling (mean over the tokens, L2 norm). One text at a time, so no padding is involved.

usage: python reference.py MODEL_DIR SENTENCES_JSON OUT_JSON [WEIGHTS_FILE]
"""
import hashlib
import json
import math
import sys

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

MAX_TOKENS = 256  # sentence_bert_config.json's max_seq_length


def erf(x):
    """erf to ~1e-15 through numpy's vectorised math.erf."""
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def layer_norm(x, w, b, eps=1e-12):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def encode(weights, config, ids, types=None):
    """BERT's last hidden states (tokens, hidden) for one row of token ids and types (default all 0)."""
    w = lambda name: weights[name]
    n = len(ids)
    types = [0] * n if types is None else types
    x = w("embeddings.word_embeddings.weight")[ids]
    x = x + w("embeddings.position_embeddings.weight")[:n] + w("embeddings.token_type_embeddings.weight")[types]
    x = layer_norm(x, w("embeddings.LayerNorm.weight"), w("embeddings.LayerNorm.bias"))
    heads = config["num_attention_heads"]
    d = config["hidden_size"] // heads
    for i in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        lin = lambda h, name: h @ w(p + name + ".weight").T + w(p + name + ".bias")
        split = lambda h: h.reshape(n, heads, d).transpose(1, 0, 2)
        q, k, v = (split(lin(x, f"attention.self.{m}")) for m in ("query", "key", "value"))
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(d)
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        ctx = (scores / scores.sum(-1, keepdims=True)) @ v
        ctx = ctx.transpose(1, 0, 2).reshape(n, heads * d)
        a = layer_norm(lin(ctx, "attention.output.dense") + x,
                       w(p + "attention.output.LayerNorm.weight"), w(p + "attention.output.LayerNorm.bias"))
        h = lin(a, "intermediate.dense")
        h = 0.5 * h * (1.0 + erf(h / math.sqrt(2.0)))
        x = layer_norm(lin(h, "output.dense") + a, w(p + "output.LayerNorm.weight"), w(p + "output.LayerNorm.bias"))
    return x


def forward(weights, config, ids):
    """sentence-transformers' embedding: the mean of the hidden states, L2-normalised."""
    mean = encode(weights, config, ids).mean(0)
    return mean / max(np.linalg.norm(mean), 1e-12)


def main():
    model_dir, sentences_path, out_path = sys.argv[1:4]
    weights_path = sys.argv[4] if len(sys.argv) > 4 else f"{model_dir}/model.safetensors"
    raw = open(sentences_path, "rb").read()
    sentences = json.loads(raw)
    config = json.load(open(f"{model_dir}/config.json"))
    weights = {k.removeprefix("bert."): v.astype(np.float64) for k, v in load_file(weights_path).items()}
    tokenizer = Tokenizer.from_file(f"{model_dir}/tokenizer.json")
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    rows = []
    for text in sentences:
        ids = tokenizer.encode(text).ids
        rows.append({"text": text, "ids": ids, "embedding": [round(float(v), 8) for v in forward(weights, config, ids)]})
    json.dump({"sentencesSha256": hashlib.sha256(raw).hexdigest(), "rows": rows}, open(out_path, "w"))
    print(f"reference: {len(rows)} sentences, longest {max(len(r['ids']) for r in rows)} tokens -> {out_path}")


if __name__ == "__main__":
    main()
