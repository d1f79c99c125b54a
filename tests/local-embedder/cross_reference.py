"""Independent reference for the cross-encoder reranker: PyPI `tokenizers` reads each (query, document)
pair as one row (`[CLS] query [SEP] document [SEP]`, the document's tokens of type 1, cut to 512 tokens
longest-first), and a float64 numpy BERT (reference.py's `encode`) over the same safetensors weights gives
the [CLS] state, then BERT's pooler (dense, tanh) and the classifier's one logit. One pair at a time, so no
padding is involved.

usage: python cross_reference.py MODEL_DIR PAIRS_JSON OUT_JSON
MODEL_DIR holds model.safetensors and tokenizer.json (config: ms-marco-MiniLM's, layers as in the weights).
"""
import hashlib
import json
import sys

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

from reference import encode

PAIR_TOKENS = 512


def main():
    model_dir, pairs_path, out_path = sys.argv[1:4]
    raw = open(pairs_path, "rb").read()
    pairs = json.loads(raw)
    weights = {k.removeprefix("bert."): v.astype(np.float64) for k, v in load_file(f"{model_dir}/model.safetensors").items()}
    layers = 1 + max(int(k.split(".")[2]) for k in weights if k.startswith("encoder.layer."))
    config = {"num_attention_heads": 12, "hidden_size": 384, "num_hidden_layers": layers}
    tokenizer = Tokenizer.from_file(f"{model_dir}/tokenizer.json")
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=PAIR_TOKENS)
    rows = []
    for pair in pairs:
        for document in pair["documents"]:
            encoding = tokenizer.encode(pair["query"], document)
            x = encode(weights, config, encoding.ids, encoding.type_ids)
            pooled = np.tanh(x[0] @ weights["pooler.dense.weight"].T + weights["pooler.dense.bias"])
            logit = pooled @ weights["classifier.weight"][0] + weights["classifier.bias"][0]
            rows.append({"query": pair["query"], "document": document, "ids": encoding.ids,
                         "types": encoding.type_ids, "logit": round(float(logit), 6)})
    json.dump({"pairsSha256": hashlib.sha256(raw).hexdigest(), "rows": rows}, open(out_path, "w"))
    print(f"cross reference: {len(rows)} pairs, longest {max(len(r['ids']) for r in rows)} tokens -> {out_path}")


if __name__ == "__main__":
    main()
