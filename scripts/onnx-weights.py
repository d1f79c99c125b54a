"""A BERT model exported to ONNX with dynamic int8 quantisation (onnxruntime's `quantize_dynamic`:
`MatMulInteger` over int8 weights, `DequantizeLinear` over uint8 embedding tables) written back as an f32
`model.safetensors` under the Hugging Face names, which memwasm/local-embedder loads. Each quantised matrix
is dequantised exactly ((q - zero_point) * scale) and transposed to (out, in); it is named by the bias its
product is added to. Plain float initializers keep their names.

usage: python onnx-weights.py MODEL.onnx OUT.safetensors
"""
import sys

import numpy as np
import onnx
from onnx import numpy_helper
from safetensors.numpy import save_file


def main(source, out):
    graph = onnx.load(source).graph
    init = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    consumers = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)

    def dequantized(base):
        q, scale, zero = init[f"{base}_quantized"], init[f"{base}_scale"], init[f"{base}_zero_point"]
        return ((q.astype(np.float64) - np.float64(zero)) * np.float64(scale)).astype(np.float32)

    def bias_after(output):
        """The float bias added to a product: MatMulInteger -> Cast -> Mul -> Add(bias)."""
        for _ in range(4):
            nodes = consumers.get(output, [])
            if len(nodes) != 1:
                return None
            node = nodes[0]
            if node.op_type == "Add":
                return next((i for i in node.input if i in init and i.endswith(".bias")), None)
            output = node.output[0]
        return None

    tensors = {}
    for name, value in init.items():
        if value.dtype == np.float32 and value.ndim > 0 and not name.endswith("_scale"):
            tensors[name] = value
    for node in graph.node:
        if node.op_type == "MatMulInteger":
            base = node.input[1].removesuffix("_quantized")
            bias = bias_after(node.output[0])
            if bias is None:
                sys.exit(f"{source}: no bias follows the product with {base}")
            tensors[bias.removesuffix(".bias") + ".weight"] = np.ascontiguousarray(dequantized(base).T)
        elif node.op_type == "DequantizeLinear" and node.input[1].endswith(".weight_scale"):
            table = node.input[1].removesuffix("_scale")
            tensors[table] = dequantized(table)
    save_file(tensors, out)
    print(f"{out}: {len(tensors)} tensors")


if __name__ == "__main__":
    main(*sys.argv[1:3])
