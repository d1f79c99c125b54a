"""Builds an ONNX graph of all-MiniLM-L6-v2 (BERT + sentence-transformers' mean pooling + L2 norm) from the
same f32 safetensors weights our local embedder loads, with PyPI `onnx`'s helpers only (no torch, no
download). It mirrors tests/local-embedder/reference.py op for op, laid out like a PyTorch export of
BertModel (separate Q/K/V MatMul+Add, Reshape/Transpose per head, Erf GELU), plus an attention mask for
padded batches. onnxruntime's "all" optimisations fuse the GELU into BiasGelu and the 1/sqrt(d) into the
Q.K MatMul; its runtime Attention fusion matches only opset <= 12 graphs, so attention stays unfused.

  inputs:  input_ids [batch, seq] int64, attention_mask [batch, seq] int64 (1 = token, 0 = padding)
  output:  sentence_embedding [batch, 384] float32, unit length

usage: python build-model.py MODEL_DIR OUT_ONNX
"""
import json
import math
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from safetensors.numpy import load_file

OPSET = 17  # the first with LayerNormalization; onnxruntime-web runs opsets up to 21+


class Graph:
    """Collects nodes and initializers; every op returns its output's name."""

    def __init__(self):
        self.nodes, self.inits, self.count = [], [], 0

    def const(self, name, value):
        self.inits.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def op(self, kind, *inputs, **attrs):
        self.count += 1
        out = f"{kind.lower()}_{self.count}"
        self.nodes.append(helper.make_node(kind, list(inputs), [out], name=out, **attrs))
        return out


def build(model_dir):
    config = json.load(open(f"{model_dir}/config.json"))
    w = {k.removeprefix("bert."): v for k, v in load_file(f"{model_dir}/model.safetensors").items()}
    hidden, heads, eps = config["hidden_size"], config["num_attention_heads"], config["layer_norm_eps"]
    d = hidden // heads
    g = Graph()
    f32 = lambda a: np.asarray(a, dtype=np.float32)
    i64 = lambda a: np.asarray(a, dtype=np.int64)
    # Shared constants.
    head_shape = g.const("head_shape", i64([0, 0, heads, d]))  # Reshape: 0 keeps batch and seq
    merged_shape = g.const("merged_shape", i64([0, 0, hidden]))
    sqrt_d = g.const("sqrt_d", f32(math.sqrt(d)))
    sqrt_2 = g.const("sqrt_2", f32(math.sqrt(2.0)))
    one, half = g.const("one", f32(1.0)), g.const("half", f32(0.5))

    def linear(x, name):
        """x @ W.T + b, W stored pre-transposed as [in, out] like a PyTorch export's MatMul."""
        weight = g.const(name + ".weight", f32(w[name + ".weight"].T.copy()))
        return g.op("Add", g.op("MatMul", x, weight), g.const(name + ".bias", f32(w[name + ".bias"])))

    def layer_norm(x, name):
        return g.op("LayerNormalization", x, g.const(name + ".weight", f32(w[name + ".weight"])),
                    g.const(name + ".bias", f32(w[name + ".bias"])), axis=-1, epsilon=eps)

    # Embeddings: word[ids] + position[0..seq) + token_type[0], then LayerNorm.
    word = g.op("Gather", g.const("word_embeddings", f32(w["embeddings.word_embeddings.weight"])), "input_ids", axis=0)
    seq = g.op("Slice", g.op("Shape", "input_ids"), g.const("one_i", i64([1])), g.const("two_i", i64([2])))  # [seq]
    position = g.op("Slice", g.const("position_embeddings", f32(w["embeddings.position_embeddings.weight"])),
                    g.const("zero_i", i64([0])), seq, g.const("axis0", i64([0])))  # [seq, hidden]
    token_type = g.const("token_type_0", f32(w["embeddings.token_type_embeddings.weight"][0]))
    x = layer_norm(g.op("Add", g.op("Add", word, position), token_type), "embeddings.LayerNorm")

    # Additive attention bias [batch, 1, 1, seq]: 0 on real keys, float32 min on padded ones (as transformers).
    mask = g.op("Cast", "attention_mask", to=TensorProto.FLOAT)  # [batch, seq]
    padded = g.op("Sub", one, mask)
    bias = g.op("Mul", g.op("Unsqueeze", padded, g.const("axes12", i64([1, 2]))),
                g.const("mask_min", f32(np.finfo(np.float32).min)))

    for i in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        # [batch, seq, hidden] -> [batch, heads, seq, d] (keys -> [batch, heads, d, seq]).
        split = lambda h, perm: g.op("Transpose", g.op("Reshape", h, head_shape), perm=perm)
        q = split(linear(x, p + "attention.self.query"), [0, 2, 1, 3])
        k = split(linear(x, p + "attention.self.key"), [0, 2, 3, 1])
        v = split(linear(x, p + "attention.self.value"), [0, 2, 1, 3])
        scores = g.op("Add", g.op("Div", g.op("MatMul", q, k), sqrt_d), bias)
        ctx = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)  # [batch, heads, seq, d]
        ctx = g.op("Reshape", g.op("Transpose", ctx, perm=[0, 2, 1, 3]), merged_shape)
        a = layer_norm(g.op("Add", linear(ctx, p + "attention.output.dense"), x), p + "attention.output.LayerNorm")
        # Feed-forward with exact GELU: 0.5·h·(1 + erf(h/√2)).
        h = linear(a, p + "intermediate.dense")
        h = g.op("Mul", g.op("Mul", h, g.op("Add", g.op("Erf", g.op("Div", h, sqrt_2)), one)), half)
        x = layer_norm(g.op("Add", linear(h, p + "output.dense"), a), p + "output.LayerNorm")

    # Mean over the real tokens (sentence-transformers clamps the count at 1e-9), then L2 norm (>= 1e-12).
    # (In opset 17 ReduceSum takes its axes as an input, ReduceL2 still as an attribute.)
    axis1 = g.const("axis1", i64([1]))
    summed = g.op("ReduceSum", g.op("Mul", x, g.op("Unsqueeze", mask, g.const("axis2", i64([2])))), axis1, keepdims=0)
    count = g.op("Max", g.op("ReduceSum", mask, axis1, keepdims=1), g.const("min_count", f32(1e-9)))
    mean = g.op("Div", summed, count)  # [batch, hidden]
    norm = g.op("Max", g.op("ReduceL2", mean, axes=[1], keepdims=1), g.const("min_norm", f32(1e-12)))
    g.nodes.append(helper.make_node("Div", [mean, norm], ["sentence_embedding"], name="l2_normalize"))

    ids_type = lambda name: helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "seq"])
    graph = helper.make_graph(
        g.nodes, "all-MiniLM-L6-v2", [ids_type("input_ids"), ids_type("attention_mask")],
        [helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", hidden])], g.inits)
    # IR version 8 is what opset 17 shipped with; every onnxruntime since 1.13 reads it.
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=8,
                              producer_name="memwasm bench/onnx/build-model.py")
    onnx.checker.check_model(model, full_check=True)
    return model


def main():
    model_dir, out = sys.argv[1:3]
    model = build(model_dir)
    onnx.save(model, out)
    print(f"{out}: {len(model.graph.node)} nodes, {sum(t.ByteSize() for t in model.graph.initializer) / 1e6:.1f} MB of weights")


if __name__ == "__main__":
    main()
