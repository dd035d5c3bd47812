#!/usr/bin/env python3
"""Prints what PyTorch 2.x's own Python post-processing prints for a saved Kineto JSON trace.

  scripts/pytorch_oracle.py TRACE.json[.gz] --vendor DIR --out OUTDIR

PyTorch turns its C++ KinetoEvents into FunctionEvents in Python (profile._parse_kineto_results),
builds the op tree (EventList._build_tree) and prints key_averages().table(), export_stacks() and
BasicEvaluation's optimizable events. This tool rebuilds, from the JSON file, the KinetoEvents
that PyTorch 2.x's C++ side would have handed to that Python code, and then runs PyTorch's own
Python code on them, unchanged. The PyTorch code is not part of this repository: DIR must hold
the three files named in testdata/pytorch2/README.md (pt2_profiler_util.py, pt2_parse.py,
pt2_utils.py: torch/autograd/profiler_util.py, profile._parse_kineto_results and
torch/profiler/_utils.py of PyTorch 2.x, verbatim). The tool needs no PyTorch installation: the
few torch symbols that code touches (DeviceType, torch._C._demangle, and float32 tensors with
mean/std for BasicEvaluation) are provided by a small stand-in below, or taken from an installed
torch where there is one (the tensor maths).

Every rule used to rebuild a KinetoEvent from the file, and every guess where the file does not
record what the live profiler knew, is listed in testdata/pytorch2/README.md and marked ASSUMPTION
in the code below.
"""
import argparse
import ctypes
import ctypes.util
import decimal
import enum
import fractions
import gzip
import heapq
import io
import json
import math
import os
import re
import sys
import types
from contextlib import redirect_stdout

# ---------------------------------------------------------------------------------------------
# The torch stand-in. c10::DeviceType numbering (c10/core/DeviceType.h).


class DeviceType(enum.IntEnum):
    CPU = 0
    CUDA = 1
    MKLDNN = 2
    OPENGL = 3
    OPENCL = 4
    IDEEP = 5
    HIP = 6
    FPGA = 7
    MAIA = 8
    XLA = 9
    Vulkan = 10
    Metal = 11
    XPU = 12
    MPS = 13
    Meta = 14
    HPU = 15
    VE = 16
    Lazy = 17
    IPU = 18
    MTIA = 19
    PrivateUse1 = 20


_libstdcxx = None


def _demangle(name):
    """c10::demangle: abi::__cxa_demangle, or the name itself when that fails."""
    global _libstdcxx
    if _libstdcxx is None:
        _libstdcxx = ctypes.CDLL(ctypes.util.find_library("stdc++") or "libstdc++.so.6")
        _libstdcxx.__cxa_demangle.restype = ctypes.c_void_p
        _libstdcxx.__cxa_demangle.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p,
                                              ctypes.POINTER(ctypes.c_int)]
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        libc.free.argtypes = [ctypes.c_void_p]
        _libstdcxx.free_ = libc.free
    status = ctypes.c_int(0)
    ptr = _libstdcxx.__cxa_demangle(name.encode(), None, None, ctypes.byref(status))
    if status.value != 0 or not ptr:
        return name
    out = ctypes.string_at(ptr).decode()
    _libstdcxx.free_(ptr)
    return out


class _Float32Tensor:
    """torch.tensor(list, dtype=float32) with what rank_events uses: -, +, *, /, mean, std."""

    def __init__(self, values):
        self.v = [_f32(x) for x in values]

    def _bin(self, other, op):
        o = other.v if isinstance(other, _Float32Tensor) else [other] * len(self.v)
        return _Float32Tensor([op(a, b) for a, b in zip(self.v, o)])

    __sub__ = lambda s, o: s._bin(o, lambda a, b: a - b)
    __add__ = lambda s, o: s._bin(o, lambda a, b: a + b)
    __truediv__ = lambda s, o: s._bin(o, lambda a, b: a / b if b != 0 else (math.nan if a == 0 else math.copysign(math.inf, a) * math.copysign(1, b)))
    __rmul__ = lambda s, o: s._bin(o, lambda a, b: b * a)

    def __iter__(self):
        return iter(self.v)


def _f32(x):
    import struct
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def _install_torch_stand_in():
    real = None
    try:  # an installed torch (Debian's 1.13 here) only for float32 tensor maths
        import torch as real  # noqa: F401
    except Exception:
        real = None
    torch = types.ModuleType("torch")
    torch.__path__ = []
    torch._C = types.SimpleNamespace(_demangle=_demangle)
    if real is not None:
        torch.tensor, torch.mean, torch.std, torch.float32 = real.tensor, real.mean, real.std, real.float32
        torch.using_real_tensor_maths = True
    else:
        # ASSUMPTION (no torch installed): float32 mean/std done in float64 then rounded to float32
        # per operation; torch's own reductions may differ in the last float32 bit.
        torch.float32 = "float32"
        torch.tensor = lambda values, dtype=None: _Float32Tensor(values)
        torch.mean = lambda t: _f32(sum(t.v) / len(t.v)) if t.v else math.nan
        torch.std = lambda t: (_f32(math.sqrt(sum((x - sum(t.v) / len(t.v)) ** 2 for x in t.v) / (len(t.v) - 1)))
                               if len(t.v) > 1 else math.nan)
        torch.using_real_tensor_maths = False
    autograd = types.ModuleType("torch.autograd")
    autograd.__path__ = []
    autograd.DeviceType = DeviceType
    profiler = types.ModuleType("torch.profiler")
    profiler.DeviceType = DeviceType
    torch.autograd, torch.profiler = autograd, profiler
    for name, mod in (("torch", torch), ("torch.autograd", autograd), ("torch.profiler", profiler)):
        sys.modules[name] = mod
    return torch


# ---------------------------------------------------------------------------------------------
# Reading the file.

# Kineto's category strings (libkineto ActivityType toString), and the 2020-2021 spellings.
CPU_OP_CATS = {"cpu_op", "Operator", "operator"}
USER_ANNOTATION_CATS = {"user_annotation"}
PYTHON_CATS = {"python_function"}
# deviceTypeFromActivity (torch/csrc/profiler/kineto_shim.cpp): these activity types are CUDA.
DEVICE_CATS = {"kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset", "cuda_sync",
               "gpu_user_annotation", "cuda_profiler_range", "mtia_ccp_events"}
# ... and these are CPU (cuda_runtime, cuda_driver, mtia_runtime, glow_runtime, external
# correlation; "overhead" is an unknown type there: "assuming CPU device").
KINETO_CPU_CATS = {"cuda_runtime", "Runtime", "cuda_driver", "mtia_runtime", "glow_runtime",
                   "overhead", "external_correlation"}
# Never KinetoEvents: the profiler's own span, Python frames (removed from kinetoEvents by
# finalizeTrace, kept in the event tree), flows, metadata, markers.
SKIP_CATS = {"Trace", "ac2g", "fwdbwd", "async", "forward_backward", "async_cpu_to_gpu"}


def _num(text):
    return decimal.Decimal(text)


def load_trace(path):
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    # Exact decimals: an epoch microsecond with three decimals has more digits than a double.
    doc = json.loads(raw, parse_float=_num, parse_int=_num)
    if isinstance(doc, list):
        return {}, doc
    return {k: v for k, v in doc.items() if k != "traceEvents"}, doc.get("traceEvents", [])


def to_ns(us, base_ns):
    return base_ns + int((us * 1000).to_integral_value(rounding=decimal.ROUND_HALF_EVEN))


def as_int(v, default=0):
    if v is None:
        return default
    if isinstance(v, decimal.Decimal):
        return int(v)
    if isinstance(v, str):
        try:
            return int(v)
        except ValueError:
            return default
    return int(v)


def looks_like_backward_name(name):
    if name.startswith("aten::") or name.startswith("autograd::"):
        return False
    if name.startswith("torch::autograd::"):
        return True
    return re.search(r"Backward\d*$", name) is not None


def kineto_shapes(input_dims):
    """KinetoEvent::shapes(): one entry per argument; a tensor's sizes, [] for everything else.

    parseArgData (profiler_kineto.cpp) fills shapesForKinetoEvent only for a single tensor; a
    TensorList, a scalar or anything else keeps an empty entry. The file's "Input Dims" is written
    from the richer `shapes` (nested lists for TensorLists) when concrete inputs are recorded.
    """
    if not isinstance(input_dims, list):
        return []
    out = []
    for entry in input_dims:
        if isinstance(entry, list) and all(isinstance(x, decimal.Decimal) for x in entry):
            out.append([int(x) for x in entry])
        else:
            out.append([])
    return out


class _ExactNs(int):
    """Nanoseconds whose division by 1000 stays exact (a Fraction).

    The vendored _parse_kineto_results passes `start_ns() / 1000` to MemRecordsAcc.in_interval,
    which multiplies by 1000 again: with epoch-scale nanoseconds that float round trip moves the
    interval's ends by up to a few hundred ns. Current PyTorch passes the nanoseconds themselves
    (exact, closed interval); --memory-interval exact (the default) reproduces that.
    """

    def __truediv__(self, other):
        return fractions.Fraction(int(self), other)


class _Name(str):
    """A name that is both a string and callable (see --basic-evaluation)."""

    def __call__(self):
        return str(self)


class KinetoEvent:
    """The accessors of torch._C._autograd._KinetoEvent that the 2.x Python code calls."""

    def __init__(self, **kw):
        self.__dict__.update(kw)
        if _NAME_AS_STRING:
            self.name = _Name(kw["name_"])

    # A method, as pybind's _KinetoEvent.name is; in intended mode an instance attribute that is
    # a callable string shadows it (see the BasicEvaluation note in testdata/pytorch2/README.md).
    def name(self):
        return self.name_

    def start_ns(self):
        return _ExactNs(self.start_ns_) if _EXACT_MEMORY else self.start_ns_

    def end_ns(self):
        return _ExactNs(self.end_ns_) if _EXACT_MEMORY else self.end_ns_

    def duration_ns(self):
        return self.end_ns_ - self.start_ns_

    def correlation_id(self):
        return self.correlation_id_

    def linked_correlation_id(self):
        return self.linked_correlation_id_

    def start_thread_id(self):
        return self.thread_

    def end_thread_id(self):
        return self.thread_  # ASSUMPTION: the file does not record the end thread.

    def fwd_thread_id(self):
        return self.fwd_thread_

    def sequence_nr(self):
        return self.sequence_nr_

    def scope(self):
        return self.scope_

    def shapes(self):
        return self.shapes_

    def concrete_inputs(self):
        return []

    def kwinputs(self):
        return {}

    def stack(self):
        return self.stack_

    def device_type(self):
        return self.device_type_

    def device_index(self):
        return self.device_index_

    def device_resource_id(self):
        return self.device_resource_id_

    def flops(self):
        return 0

    def is_async(self):
        return False  # ASSUMPTION: RecordFunction's async flag is not in the file.

    def is_user_annotation(self):
        return self.is_user_annotation_

    def nbytes(self):
        return self.nbytes_

    def cuda_elapsed_us(self):
        return -1  # no KINETO_GPU_FALLBACK events in a Kineto trace

    def privateuse1_elapsed_us(self):
        return -1


_NAME_AS_STRING = False
_EXACT_MEMORY = True


class Node:
    """A torch::profiler::impl::Result in the event tree (what experimental_event_tree() shows)."""

    __slots__ = ("name", "kind", "start_time_ns", "end_time_ns", "tid", "fwd_tid", "parent",
                 "children", "finished", "id", "kineto", "order")

    def __init__(self, name, kind, start, end, tid, fwd_tid, order):
        self.name, self.kind, self.start_time_ns, self.end_time_ns = name, kind, start, end
        self.tid, self.fwd_tid, self.order = tid, fwd_tid, order
        self.parent, self.children, self.finished, self.kineto = None, [], False, None
        self.id = order + 1

    @property
    def duration_time_ns(self):
        return self.end_time_ns - self.start_time_ns


class Rebuilt:
    """What disableProfiler() returns: events(), trace_start_ns(), experimental_event_tree()."""

    def __init__(self, events, trace_start, tree):
        self._events, self._trace_start, self._tree = events, trace_start, tree

    def events(self):
        return self._events

    def trace_start_ns(self):
        return self._trace_start

    def experimental_event_tree(self):
        return self._tree


def rebuild(header, trace_events, notes):
    base_ns = as_int(header.get("baseTimeNanoseconds"), 0)
    x_events = [e for e in trace_events if isinstance(e, dict) and e.get("ph") in ("X", "i")
                and e.get("ts") is not None]
    fractional = any(isinstance(e["ts"], decimal.Decimal) and e["ts"] != e["ts"].to_integral_value()
                     for e in x_events)
    # libkineto's JSON writer moves a GPU user annotation: `ts--; duration++` while it wrote
    # integer microseconds, `ts -= 1; duration += 2` (nanoseconds) since it writes fractions.
    ua_start_shift, ua_end_shift = (1, 1) if fractional else (1000, 0)

    def tid_of(e):
        return as_int(e.get("tid"), 0)

    def pid_of(e):
        return as_int(e.get("pid"), -1)

    # The profiler's own span (cat "Trace") starts at the trace start (passEventsToKineto's
    # TraceWrapper(start_time)). ASSUMPTION where a file has none (post-processed): the earliest
    # timestamp of any event.
    span = [e for e in x_events if e.get("cat") == "Trace"]
    if span:
        trace_start = to_ns(span[0]["ts"], base_ns)
    else:
        trace_start = min(to_ns(e["ts"], base_ns) for e in x_events if e.get("cat") not in SKIP_CATS)
        notes.append("no Trace span: trace start = earliest event timestamp")

    ops, allocs, pys, kin = [], [], [], []
    for idx, e in enumerate(x_events):
        cat = e.get("cat")
        name = e.get("name", "")
        args = e.get("args") or {}
        start = to_ns(e["ts"], base_ns)
        dur = to_ns(e.get("dur", decimal.Decimal(0)), 0)
        if cat is None and e.get("ph") == "X":
            cat = "cpu_op"  # the bare-array export (EventList.export_chrome_trace): all ops
        if cat in CPU_OP_CATS or cat in USER_ANNOTATION_CATS:
            ops.append((idx, e, start, start + max(dur, 0)))
        elif cat in ("cpu_instant_event", None) and e.get("ph") == "i" and \
                name in ("[memory]", "[OutOfMemory]"):  # 2021 Kineto wrote them without "cat"
            allocs.append((idx, e, start))
        elif cat in PYTHON_CATS:
            pys.append((idx, e, start, start + max(dur, 0)))
        elif cat in DEVICE_CATS or cat in KINETO_CPU_CATS:
            if cat == "gpu_user_annotation":
                start += ua_start_shift
                dur -= ua_start_shift + ua_end_shift
            kin.append((idx, e, start, start + max(dur, 0)))
        elif cat not in SKIP_CATS and e.get("ph") == "X":
            notes.append(f"ignored category {cat!r}")

    # ---- threads. FunctionEvent.thread is RecordFunction's small thread id; the file has OS
    # thread ids, plus the small ids in "Fwd thread id". The tree only needs a one-to-one map, so
    # OS ids serve as threads; the small forward-thread ids are mapped to OS ids by which thread
    # ran the forward ops with the backward ops' sequence numbers (majority vote).
    # ASSUMPTION: that vote; and the thread that called disableProfiler (which unlinked Kineto
    # events take) is the process's main thread (tid == pid), else the first op's thread.
    seq_threads = {}
    for _, e, _, _ in ops:
        a = e.get("args") or {}
        if "Sequence number" in a and not looks_like_backward_name(e.get("name", "")) and \
                not e.get("name", "").startswith("autograd::engine::evaluate_function: "):
            seq_threads.setdefault(as_int(a["Sequence number"]), set()).add(tid_of(e))
    votes = {}
    for _, e, _, _ in ops:
        a = e.get("args") or {}
        if "Fwd thread id" in a and looks_like_backward_name(e.get("name", "")):
            f = as_int(a["Fwd thread id"])
            for t in seq_threads.get(as_int(a.get("Sequence number", -1)), ()):
                votes.setdefault(f, {}).setdefault(t, 0)
                votes[f][t] += 1
    fwd_map = {f: max(c.items(), key=lambda kv: (kv[1], -kv[0]))[0] for f, c in votes.items()}
    if fwd_map:
        notes.append("forward thread ids -> trace tids: " +
                     ", ".join(f"{f}->{t}" for f, t in sorted(fwd_map.items())))
    cpu_pids = {pid_of(e) for _, e, _, _ in ops}
    main_tid = None
    op_tids = {tid_of(e) for _, e, _, _ in ops}
    for p in sorted(cpu_pids):
        if p in op_tids:
            main_tid = p
            break
    if main_tid is None:
        main_tid = tid_of(min(ops, key=lambda o: o[2])[1]) if ops else 0

    # ---- scope: BACKWARD_FUNCTION (1) is not in the file. ASSUMPTION: recognised by name, or by
    # an enclosing "autograd::engine::evaluate_function: <name>" on the same thread.
    wrapped = set()
    by_thread = {}
    for o in ops:
        by_thread.setdefault(tid_of(o[1]), []).append(o)
    for tid, lst in by_thread.items():
        stack = []
        for idx, e, s, en in sorted(lst, key=lambda o: (o[2], -o[3])):
            while stack and not (s >= stack[-1][1] and en <= stack[-1][2] and s < stack[-1][2]):
                stack.pop()
            if stack and stack[-1][0] == "autograd::engine::evaluate_function: " + e.get("name", ""):
                wrapped.add(idx)
            stack.append((e.get("name", ""), s, en))

    # ---- PyTorch-side results, in `out` order. "Ev Idx" is each result's index in `out` when
    # passEventsToKineto ran (collection.cpp); without it, file order.
    def ev_idx(item):
        a = item[1].get("args") or {}
        return (0, as_int(a["Ev Idx"]), item[0]) if "Ev Idx" in a else (1, 0, item[0])

    out_items = sorted([("op",) + o for o in ops] + [("alloc", i, e, s, s) for i, e, s in allocs] +
                       [("py",) + p for p in pys], key=lambda it: ev_idx(it[1:]))

    nodes = []
    op_node_by_ext = {}
    kineto_events_pt = []  # (node, KinetoEvent) for ops and allocations
    for kind, idx, e, s, en in out_items:
        a = e.get("args") or {}
        name = e.get("name", "")
        tid = tid_of(e)
        if kind == "op":
            seq = as_int(a.get("Sequence number"), -1)
            fwd_raw = as_int(a.get("Fwd thread id"), 0)
            fwd = fwd_map.get(fwd_raw, fwd_raw) if seq >= 0 else 0
            node = Node(name, "op", s, en, tid, fwd_map.get(fwd_raw, 0) if fwd_raw else 0, len(nodes))
            stack = a.get("Call stack")
            ke = KinetoEvent(
                name_=name, start_ns_=s, end_ns_=en, correlation_id_=as_int(a.get("External id")),
                linked_correlation_id_=0, thread_=tid, fwd_thread_=fwd, sequence_nr_=seq,
                scope_=1 if (looks_like_backward_name(name) or idx in wrapped) else
                (7 if e.get("cat") in USER_ANNOTATION_CATS else 0),
                shapes_=kineto_shapes(a.get("Input Dims")),
                stack_=stack.split(";") if isinstance(stack, str) and stack else [],
                device_type_=DeviceType.CPU, device_index_=pid_of(e), device_resource_id_=tid,
                is_user_annotation_=e.get("cat") in USER_ANNOTATION_CATS, nbytes_=0, node_=node)
            node.kineto = ke
            kineto_events_pt.append(ke)
            ext = as_int(a.get("External id"), 0)
            if ext:
                op_node_by_ext.setdefault(ext, node)
        elif kind == "alloc":
            node = Node(name, "alloc", s, s, tid, 0, len(nodes))
            ke = KinetoEvent(
                name_=name, start_ns_=s, end_ns_=s, correlation_id_=0, linked_correlation_id_=0,
                thread_=tid, fwd_thread_=0, sequence_nr_=-1, scope_=0, shapes_=[], stack_=[],
                device_type_=DeviceType(as_int(a.get("Device Type"), 0)),
                device_index_=as_int(a.get("Device Id"), -1), device_resource_id_=tid,
                is_user_annotation_=False, nbytes_=as_int(a.get("Bytes"), 0), node_=node)
            node.kineto = ke
            kineto_events_pt.append(ke)
        else:
            node = Node(name, "py", s, en, tid, 0, len(nodes))
        nodes.append(node)

    # ---- Kineto's own activities (TransferEvents, collection.cpp): linked to the op Kineto
    # found on top of its correlation stack. The file writes that op's id as "External id", or
    # the activity's own correlation id when there is no linked op. ASSUMPTION where both are
    # equal: linked when an op with that id encloses the launch (the activity itself for host
    # calls) on the same thread, else unlinked.
    #
    # Kineto versions of about 2022-2023 wrote every activity's own correlation id as its
    # "External id", linked or not: such a file (no activity with an External id different from
    # its correlation id) does not record the links at all. ASSUMPTION for those files: the link
    # is what Kineto computed at capture time, the op on top of the launching thread's
    # correlation stack, i.e. the innermost cpu_op (user annotations push onto a separate stack)
    # enclosing the launch on its thread.
    launch_by_corr = {}
    for idx, e, s, en in kin:
        a = e.get("args") or {}
        if e.get("cat") in KINETO_CPU_CATS and "correlation" in a:
            launch_by_corr.setdefault(as_int(a["correlation"]), (e, s, en))

    def ext_of(a):
        return as_int(a.get("External id", a.get("external id")), 0)

    links_recorded = any(
        ext_of(e.get("args") or {}) not in (0, as_int((e.get("args") or {}).get("correlation"), 0))
        for _, e, _, _ in kin if e.get("cat") != "gpu_user_annotation")
    # Since 2025 the writer leaves "External id" out when there is no linked op; in such a file
    # an External id equal to the correlation id is a real link.
    omits_unlinked = any("correlation" in (e.get("args") or {}) and ext_of(e.get("args") or {}) == 0
                         for _, e, _, _ in kin)
    if not links_recorded and kin:
        notes.append("links not recorded (External id == correlation everywhere): "
                     "launches linked to the innermost enclosing cpu_op")
    cpu_ops_by_tid = {}
    for _, e, s, en in ops:
        if e.get("cat") in CPU_OP_CATS:
            cpu_ops_by_tid.setdefault(tid_of(e), []).append((s, -en, en, as_int((e.get("args") or {}).get("External id"), 0)))
    for lst in cpu_ops_by_tid.values():
        lst.sort()

    def enclosing_cpu_op(host):
        """The innermost cpu_op holding [start, end] of a host call on its thread."""
        e, s, en = host
        best = 0
        for os_, _, oe, ext in cpu_ops_by_tid.get(tid_of(e), ()):
            if os_ > s:
                break
            if oe >= en and ext:
                best = ext  # later-starting (or equal start, shorter) holders are inner
        return best
    kin_events = []
    for idx, e, s, en in kin:
        a = e.get("args") or {}
        cat = e.get("cat")
        corr = as_int(a.get("correlation"), 0)
        ext = ext_of(a)
        linked = 0
        if not links_recorded and cat != "gpu_user_annotation":
            host = (e, s, en) if cat in KINETO_CPU_CATS else launch_by_corr.get(corr)
            linked = enclosing_cpu_op(host) if host is not None else 0
        elif cat == "gpu_user_annotation":
            # createUserGpuSpan (libkineto): id = the CPU annotation's correlation id, no linked
            # activity. So "External id" is its own id and it links to nothing.
            corr = ext
        elif ext and ext != corr:
            linked = ext
        elif ext and ext == corr and omits_unlinked:
            linked = ext
        elif ext and ext == corr and ext in op_node_by_ext:
            host = (e, s, en) if cat in KINETO_CPU_CATS else launch_by_corr.get(corr)
            op = op_node_by_ext[ext]
            if host is not None and tid_of(host[0]) == op.tid and op.start_time_ns <= host[1] and \
                    host[2] <= op.end_time_ns:
                linked = ext
        parent_op = op_node_by_ext.get(linked) if linked else None
        if linked and parent_op is None:
            linked = 0  # toResult() finds no Result for an op outside the file
        is_device = cat in DEVICE_CATS
        node = Node(e.get("name", ""), "kineto", s, en, None, 0, len(nodes))
        ke = KinetoEvent(
            name_=e.get("name", ""), start_ns_=s, end_ns_=en, correlation_id_=corr,
            linked_correlation_id_=linked, thread_=None, fwd_thread_=0, sequence_nr_=-1, scope_=0,
            shapes_=[], stack_=[], device_type_=DeviceType.CUDA if is_device else DeviceType.CPU,
            device_index_=as_int(a.get("device"), 0), device_resource_id_=tid_of(e),
            is_user_annotation_=cat == "gpu_user_annotation", nbytes_=0, node_=node)
        node.kineto = ke
        node.parent = parent_op  # setParents, first pass: the linked activity
        kin_events.append((node, ke, cat, corr))
        nodes.append(node)
    # Second pass: the flow (launch -> device activity, same correlation id) wins over the link.
    host_node_by_corr = {}
    for node, ke, cat, corr in kin_events:
        if cat in KINETO_CPU_CATS and corr:
            host_node_by_corr.setdefault(corr, node)
    for node, ke, cat, corr in kin_events:
        if cat in DEVICE_CATS and cat != "gpu_user_annotation" and corr in host_node_by_corr:
            node.parent = host_node_by_corr[corr]
    for node, ke, cat, corr in kin_events:
        if node.parent is not None:
            node.parent.children.append(node)
            node.finished = True

    # setKinetoTID: a Kineto event takes its parent's thread, or the finalizing thread.
    def kineto_tid(n):
        if n.tid is not None:
            return n.tid
        n.tid = kineto_tid(n.parent) if n.parent is not None else main_tid
        return n.tid

    for node, ke, cat, corr in kin_events:
        ke.thread_ = kineto_tid(node)

    # ---- KinetoEvents in result.events() order: `out` (PyTorch results, then Kineto's) stably
    # sorted by start time; Python frames removed.
    kinetos = kineto_events_pt + [ke for _, ke, _, _ in kin_events]
    kinetos.sort(key=lambda k: k.start_ns_)  # stable
    # The event tree: build_tree over `out` sorted the same way.
    order = sorted(nodes, key=lambda n: n.start_time_ns)  # stable over `out` order
    build_tree(order)
    tree = [n for n in order if n.parent is None and not (n.kind == "kineto" and
                                                            n.kineto.device_type_ != DeviceType.CPU)]
    return Rebuilt(kinetos, trace_start, tree), nodes, fwd_map


def build_tree(sorted_events):
    """torch/csrc/profiler/collection.cpp build_tree, step for step."""
    stacks = {}
    end_events = []  # heap of (end, seq, node)
    seq = [0]

    def mark_finished(n):
        n.finished = True

    def push_event(event):
        if event.kind == "kineto" and event.finished:
            return
        parent = stacks.get(event.tid)
        if parent is None and event.kind == "op" and event.fwd_tid:
            parent = stacks.get(event.fwd_tid)
        if parent is not None:
            event.parent = parent
            parent.children.append(event)
        if event.end_time_ns > event.start_time_ns:
            stacks[event.tid] = event
            seq[0] += 1
            heapq.heappush(end_events, (event.end_time_ns, seq[0], event))
        else:
            mark_finished(event)

    def pop_event(event):
        if event.finished:
            return
        frame = stacks[event.tid]
        while frame is not event:
            mark_finished(frame)
            frame = frame.parent
        mark_finished(event)
        del stacks[event.tid]
        if event.parent is not None:
            stacks[event.tid] = event.parent

    for event in sorted_events:
        while end_events and end_events[0][0] < event.start_time_ns:
            pop_event(heapq.heappop(end_events)[2])
        push_event(event)
    while end_events:
        pop_event(heapq.heappop(end_events)[2])


def python_stack(node):
    """KinetoEvent's python_stack_ with experimental_config verbose=True: the names of the
    Python-call ancestors in the event tree, innermost first (profiler_kineto.cpp)."""
    out = []
    p = node.parent
    while p is not None:
        if p.kind == "py":
            out.append(p.name)
        p = p.parent
    return out


# ---------------------------------------------------------------------------------------------

TABLES = [
    # file, key_averages kwargs, table kwargs
    ("table_default.txt", {}, {}),
    ("table_self_cpu.txt", {}, {"sort_by": "self_cpu_time_total", "row_limit": -1}),
    ("table_cpu_total_top10.txt", {}, {"sort_by": "cpu_time_total", "row_limit": 10}),
    ("table_count_top15.txt", {}, {"sort_by": "count", "row_limit": 15}),
    ("table_self_cuda.txt", {}, {"sort_by": "self_cuda_time_total", "row_limit": -1}),
    ("table_cuda_total_top20.txt", {}, {"sort_by": "cuda_time_total", "row_limit": 20}),
    ("table_by_input_shape.txt", {"group_by_input_shapes": True},
     {"sort_by": "cpu_time_total", "row_limit": -1}),
    ("table_top_level.txt", {}, {"sort_by": "cpu_time_total", "row_limit": -1,
                                 "top_level_events_only": True}),
]
MEMORY_TABLES = [
    ("table_self_cpu_mem.txt", {}, {"sort_by": "self_cpu_memory_usage", "row_limit": -1}),
    ("table_self_cuda_mem.txt", {}, {"sort_by": "self_cuda_memory_usage", "row_limit": -1}),
]
STACK_TABLES = [
    ("table_by_stack_n5.txt", {"group_by_stack_n": 5}, {"sort_by": "self_cpu_time_total",
                                                         "row_limit": -1}),
]


def avg_rows(avg):
    rows = []
    for i, e in enumerate(avg):
        rows.append([i, e.key, e.count, repr(e.cpu_time_total), repr(e.self_cpu_time_total),
                     repr(e.device_time_total), repr(e.self_device_time_total),
                     e.cpu_memory_usage, e.self_cpu_memory_usage, e.device_memory_usage,
                     e.self_device_memory_usage, str(e.input_shapes), list(e.stack or []),
                     int(e.device_type), bool(e.is_user_annotation), e.cpu_parent is None])
    return {"fields": ["order", "key", "count", "cpu_time_total", "self_cpu_time_total",
                       "device_time_total", "self_device_time_total", "cpu_memory_usage",
                       "self_cpu_memory_usage", "device_memory_usage", "self_device_memory_usage",
                       "input_shapes", "stack", "device_type", "is_user_annotation",
                       "top_level"], "rows": rows}


def run(args):
    global _NAME_AS_STRING, _EXACT_MEMORY
    _EXACT_MEMORY = args.memory_interval == "exact"
    torch = _install_torch_stand_in()
    sys.path.insert(0, args.vendor)
    import pt2_parse  # noqa: E402
    import pt2_profiler_util  # noqa: E402
    import pt2_utils  # noqa: E402

    header, trace_events = load_trace(args.trace)
    os.makedirs(args.out, exist_ok=True)
    written = []

    def write(name, text):
        with open(os.path.join(args.out, name), "w") as f:
            f.write(text)
        written.append(name)

    def function_events(use_device, verbose_stacks, name_as_string):
        global _NAME_AS_STRING
        _NAME_AS_STRING = name_as_string
        notes = []
        result, nodes, fwd_map = rebuild(header, trace_events, notes)
        if verbose_stacks:
            for k in result.events():
                if not k.stack_:
                    k.stack_ = python_stack(k.node_)
        evs = pt2_parse.profile(use_device)._parse_kineto_results(result)
        el = pt2_profiler_util.EventList(evs, use_device=use_device, profile_memory=profile_memory,
                                         with_flops=False)
        el._build_tree()
        return el, result, notes

    has_device = any(isinstance(e, dict) and e.get("cat") in DEVICE_CATS for e in trace_events)
    has_memory = any(isinstance(e, dict) and e.get("name") == "[memory]" for e in trace_events)
    # ASSUMPTION: profile_memory as the header says, else whether the file has [memory] records;
    # use_device "cuda" (also on ROCm) when the file has device activity.
    profile_memory = bool(as_int(header.get("profile_memory"), 1 if has_memory else 0))
    use_device = "cuda" if has_device else None
    has_call_stack = any(isinstance(e, dict) and isinstance((e.get("args") or {}).get("Call stack"), str)
                         for e in trace_events)
    has_python = any(isinstance(e, dict) and e.get("cat") == "python_function" for e in trace_events)

    el, result, notes = function_events(use_device, False, False)
    summary = {"trace": args.trace, "use_device": use_device, "profile_memory": profile_memory,
               "memory_interval": args.memory_interval,
               "function_events": len(el), "kineto_events": len(result.events()),
               "trace_start_ns": result.trace_start_ns(), "notes": notes}

    tables = list(TABLES) + (MEMORY_TABLES if profile_memory else []) + \
        (STACK_TABLES if has_call_stack else [])
    for fname, ka, tk in tables:
        if "cuda" in fname and not has_device:
            continue
        write(fname, el.key_averages(**ka).table(**tk))
    write("table_raw_events_top25.txt", el.table(sort_by="self_cpu_time_total", row_limit=25))
    index = {id(e): i for i, e in enumerate(el)}
    events_doc = {
        "fields": ["idx", "name", "trace_name", "thread", "start_us", "end_us", "device_type",
                   "cpu_parent", "is_user_annotation", "self_cpu_time_total",
                   "device_time_total", "kernels", "input_shapes", "stack"],
        "rows": [[i, e.name, e.trace_name, e.thread, repr(e.time_range.start), repr(e.time_range.end),
                  int(e.device_type), index.get(id(e.cpu_parent)) if e.cpu_parent is not None else None,
                  bool(e.is_user_annotation), repr(e.self_cpu_time_total), repr(e.device_time_total),
                  [[k.name, repr(k.duration)] for k in e.kernels], str(e.input_shapes), list(e.stack or [])]
                 for i, e in enumerate(el)]}
    write("events.json", json.dumps(events_doc) + "\n")
    kj = {"default": avg_rows(el.key_averages()),
          "by_input_shape": avg_rows(el.key_averages(group_by_input_shapes=True))}
    write("key_averages.json", json.dumps(kj, indent=1) + "\n")
    if has_call_stack:
        for metric in ("self_cpu_time_total", "self_cuda_time_total"):
            p = os.path.join(args.out, f"stacks_{metric}.txt")
            el.export_stacks(p, metric)
            written.append(os.path.basename(p))

    if has_python and not has_call_stack:
        # The same run with experimental_config=_ExperimentalConfig(verbose=True): stacks are the
        # Python ancestors in the event tree. Without verbose (the file's case: no "Call stack"),
        # PyTorch 2.x gives every op an empty stack and export_stacks writes empty files.
        elv, _, _ = function_events(use_device, True, False)
        for metric in ("self_cpu_time_total", "self_cuda_time_total"):
            p = os.path.join(args.out, f"stacks_verbose_{metric}.txt")
            elv.export_stacks(p, metric)
            written.append(os.path.basename(p))
        write("table_verbose_by_stack_n5.txt",
              elv.key_averages(group_by_stack_n=5).table(sort_by="self_cpu_time_total", row_limit=-1))

    if has_device and not args.skip_basic_evaluation:
        # BasicEvaluation reads the profile's kineto_results only.
        for mode, as_string in (("literal", False), ("intended", True)):
            _, res, _ = function_events(use_device, False, as_string)
            prof = types.SimpleNamespace(kineto_results=res)
            buf = io.StringIO()
            try:
                with redirect_stdout(buf):
                    ev = pt2_utils.BasicEvaluation(prof)
                    ev.get_optimizable_events(length=args.optimizable_length)
                text = buf.getvalue()
            except AttributeError as exc:  # what PyTorch itself raises on this input
                text = ("raised AttributeError: _KinetoEvent.name is a method, so "
                        f"`e.name.lower()` fails ({exc})\n")
            write(f"optimizable_{mode}.txt", text)
        summary["tensor_maths"] = "installed torch" if torch.using_real_tensor_maths else "float32 stand-in"

    if args.gzip_over:
        for name in list(written):
            path = os.path.join(args.out, name)
            if os.path.getsize(path) > args.gzip_over:
                data = open(path, "rb").read()
                with open(path + ".gz", "wb") as f:
                    f.write(gzip.compress(data, compresslevel=9, mtime=0))
                os.remove(path)
                written[written.index(name)] = name + ".gz"
    summary["files"] = sorted(written)
    write("summary.json", json.dumps(summary, indent=1, default=str) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace")
    ap.add_argument("--vendor", default=os.environ.get("PROFANA_PT2_VENDOR", ""),
                    help="folder with pt2_profiler_util.py, pt2_parse.py, pt2_utils.py")
    ap.add_argument("--out", required=True)
    ap.add_argument("--optimizable-length", type=int, default=5)
    ap.add_argument("--memory-interval", choices=["exact", "float"], default="exact",
                    help="exact: records in [start_ns, end_ns] (current PyTorch); float: through "
                         "start_ns / 1000 * 1000 as the vendored 2.x code does")
    ap.add_argument("--skip-basic-evaluation", action="store_true",
                    help="leave out BasicEvaluation (quadratic in PyTorch's code on big traces)")
    ap.add_argument("--gzip-over", type=int, default=0, metavar="BYTES",
                    help="gzip (-9, no timestamp) every output file larger than BYTES")
    args = ap.parse_args()
    if not args.vendor or not os.path.isfile(os.path.join(args.vendor, "pt2_profiler_util.py")):
        sys.exit("pytorch_oracle.py: --vendor must name the folder with PyTorch 2.x's files "
                 "(testdata/pytorch2/README.md says which)")
    run(args)


if __name__ == "__main__":
    main()
