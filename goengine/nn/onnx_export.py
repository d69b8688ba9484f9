"""A network as ONNX bytes: what ONNX Runtime and OpenVINO read, and what int8 files are
quantized from (goengine/nn/int8.py)."""

import io
import warnings

import torch


def export_onnx(model):
    """`model` (eval mode, batch norm folded) as ONNX bytes, fp32, with a free batch size:
    input 'planes', one output named after each head."""
    heads = tuple(getattr(model, 'heads', (model.kind,)))
    example = torch.zeros(1, model.planes, model.board_size, model.board_size)
    onnx_bytes = io.BytesIO()
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter('ignore')   # the exporter's notices about its successor
        torch.onnx.export(model.float(), (example,), onnx_bytes, dynamo=False,
                          input_names=['planes'], output_names=list(heads),
                          dynamic_axes={'planes': {0: 'batch'},
                                        **{head: {0: 'batch'} for head in heads}},
                          opset_version=17)
    return onnx_bytes.getvalue()
