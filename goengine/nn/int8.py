"""The int8 form of a network: an ONNX file beside the fp32 one, and its check.

A shipped network `weights/NAME.pt` has its int8 form in `weights/NAME.int8.onnx`
(tools/make_int8.py makes it): ONNX Runtime's static quantization in QDQ form,
int8 weights per output channel and uint8 activations whose ranges were
calibrated on training positions. A CPU without VNNI or AMX sums pairs of uint8 x
int8 products into 16 bits, which 8-bit weights can saturate; where a network reads
better so, it ships `weights/NAME.int8-7bit.onnx` too, the same with weights in 7 bits,
which cannot, and such a CPU reads that one (docs/DECISIONS.md, 'int8 without VNNI').
The file records the SHA-256 of the fp32 file it was made from, so an int8 file
left behind by a changed fp32 one is refused (Int8Error) instead of played, and the
SHA-256 of its own content (the model less that one entry), so a damaged file is
refused too, not played with damaged weights.
Both CPU runtimes read the same file: ONNX Runtime (MLAS's VNNI and AMX kernels)
and OpenVINO.
"""

import hashlib
import os
import tempfile

import numpy as np

from goengine.nn import cpu

SUFFIX = '.int8.onnx'               # 8-bit weights, for the kinds in cpu.EXACT_INT8
SEVEN_BIT_SUFFIX = '.int8-7bit.onnx'  # 7-bit weights, for the others where it is there
SOURCE_KEY = 'goengine.fp32_sha256'      # the fp32 file this one was made from
CALIBRATION_KEY = 'goengine.calibration'  # what its activation ranges were set on
CONTENT_KEY = 'goengine.content_sha256'   # the file's own model, this entry left out


class Int8Error(ValueError):
    """An int8 file that is missing, unreadable, damaged or stale (one line saying which)."""


def int8_path(weights, seven_bit=None):
    """Where the int8 form of the network file `weights` lies: beside it; the 7-bit form
    where `seven_bit`, by default where this CPU's int8 sums are not exact and the
    network has one."""
    root, _ = os.path.splitext(weights)
    if seven_bit is None:
        seven_bit = (not cpu.int8_sums_are_exact()
                     and os.path.isfile(root + SEVEN_BIT_SUFFIX))
    return root + (SEVEN_BIT_SUFFIX if seven_bit else SUFFIX)


def make_command(weights, path):
    """The command that makes the int8 file `path` of `weights`."""
    seven_bit = ' --seven-bit' if path.endswith(SEVEN_BIT_SUFFIX) else ''
    return f'tools/make_int8.py --weights {weights}{seven_bit}'


def file_digest(path):
    """SHA-256 of a file's bytes, hex."""
    digest = hashlib.sha256()
    with open(path, 'rb') as f:
        for block in iter(lambda: f.read(1 << 20), b''):
            digest.update(block)
    return digest.hexdigest()


def quantize(model, calibration, source_digest, described='', keep_ends=False,
             method='MinMax', seven_bit=False):
    """The int8 ONNX bytes of `model` (batch norm folded), its activations' ranges set by
    ONNX Runtime's calibration `method` (q.CalibrationMethod's name; MinMax ships) on
    `calibration` (uint8 planes, N x C x s x s);
    keep_ends: the first convolution and the heads stay fp32; seven_bit: weights in
    [-64, 64], so that a CPU without VNNI, which sums pairs of uint8 x int8 products in
    16 bits, cannot saturate (ONNX Runtime's reduce_range). The source digest and
    `described` are written into the file's metadata."""
    import onnx
    from onnxruntime import quantization as q
    from goengine.nn.onnx_export import export_onnx
    from goengine.nn.surgery import fold_batch_norm

    class Planes(q.CalibrationDataReader):
        def __init__(self):
            self.batches = iter([{'planes': calibration[i:i + 32].astype(np.float32)}
                                 for i in range(0, len(calibration), 32)])

        def get_next(self):
            return next(self.batches, None)

    with tempfile.TemporaryDirectory() as folder:
        fp32_path, int8_file = f'{folder}/fp32.onnx', f'{folder}/int8.onnx'
        with open(fp32_path, 'wb') as f:
            f.write(export_onnx(fold_batch_norm(model)))
        excluded = layers_at_the_ends(onnx.load(fp32_path)) if keep_ends else []
        q.quantize_static(fp32_path, int8_file, Planes(), quant_format=q.QuantFormat.QDQ,
                          per_channel=True, weight_type=q.QuantType.QInt8,
                          activation_type=q.QuantType.QUInt8,
                          calibrate_method=getattr(q.CalibrationMethod, method),
                          nodes_to_exclude=excluded, reduce_range=seven_bit)
        quantized = onnx.load(int8_file)
    onnx.helper.set_model_props(quantized, {SOURCE_KEY: source_digest,
                                            CALIBRATION_KEY: described})
    return sealed(quantized)


def content_digest(graph_model):
    """SHA-256 of a model's serialized bytes with its CONTENT_KEY entry left out."""
    import onnx
    bare = onnx.ModelProto()
    bare.CopyFrom(graph_model)
    kept = [p for p in bare.metadata_props if p.key != CONTENT_KEY]
    del bare.metadata_props[:]
    bare.metadata_props.extend(kept)
    return hashlib.sha256(bare.SerializeToString()).hexdigest()


def sealed(graph_model):
    """The model's bytes with the digest of its own content recorded in it."""
    props = {p.key: p.value for p in graph_model.metadata_props if p.key != CONTENT_KEY}
    import onnx
    onnx.helper.set_model_props(graph_model, props)
    digest = content_digest(graph_model)
    onnx.helper.set_model_props(graph_model, dict(props, **{CONTENT_KEY: digest}))
    return graph_model.SerializeToString()


def layers_at_the_ends(graph_model):
    """The first trunk convolution and every layer of the heads, by node name: where int8
    rounding is thought to hurt most (binary input planes; the outputs themselves)."""
    layers = [node for node in graph_model.graph.node
              if node.op_type in ('Conv', 'Gemm', 'MatMul')]
    trunk = [node.name for node in layers if node.name.startswith('/trunk/')]
    return trunk[:1] + [node.name for node in layers if not node.name.startswith('/trunk/')]


def load(weights):
    """The int8 ONNX bytes made from the fp32 file `weights`. Raises Int8Error when the
    int8 file is missing, unreadable, damaged, or was made from other fp32 weights."""
    if weights is None:
        raise Int8Error('a network made in memory has no int8 file')
    path = int8_path(weights)
    if not os.path.isfile(path):
        raise Int8Error(f'{path}: no int8 form of {weights} '
                        f'({make_command(weights, path)} makes it)')
    try:
        import onnx
        graph_model = onnx.load(path)
    except Exception as exc:   # onnx raises its own DecodeError types
        raise Int8Error(f'{path}: not an ONNX file ({type(exc).__name__})') from None
    props = {p.key: p.value for p in graph_model.metadata_props}
    remake = f'{make_command(weights, path)} makes it again'
    if props.get(CONTENT_KEY) != content_digest(graph_model):
        why = 'damaged' if CONTENT_KEY in props else 'no digest of its own content'
        raise Int8Error(f'{path}: {why}, not played ({remake})')
    made_from = props.get(SOURCE_KEY)
    if made_from != file_digest(weights):
        raise Int8Error(f'{path}: stale, made from other weights than {weights} ({remake})')
    return graph_model.SerializeToString()
