"""Quantises the offline all-MiniLM-L6-v2 graph (build-model.py's model.onnx) to int8 the way transformers.js's
`model_quantized.onnx` is made: onnxruntime's dynamic quantisation (int8 weights per output channel,
activations quantised per call, MatMulInteger), on the MatMuls with constant weights only.

usage: python quantize-model.py MODEL_ONNX OUT_ONNX
"""
import sys

from onnxruntime.quantization import QuantType, quantize_dynamic

source, out = sys.argv[1:3]
quantize_dynamic(
    source,
    out,
    weight_type=QuantType.QInt8,
    per_channel=True,
    extra_options={"MatMulConstBOnly": True},
)
