#!/usr/bin/env python3
"""Synthetic Kineto (PyTorch profiler) Chrome-trace generator, and a trace statistics printer.

  gen_trace.py --size-mb 100 [--seed 1] -o out.json[.gz]   # .gz => gzip level 1
  gen_trace.py --size-mb 100 --mix memory,stack -o out.json
  gen_trace.py --stats FILE...                             # plain or .gz, real or generated
  gen_trace.py --ranks 8 --size-mb 2 -o DIR                # a job: DIR/rank0.json ... rank7.json

The generated trace models an MLP training loop the way Kineto records it: one
`ProfilerStep#N` per step on the main thread holding the forward cpu_ops, the
backward ops on the autograd thread, an optimizer step, cudaLaunchKernel calls in
the innermost ops with their kernels and ac2g flows on stream 7, a few memcpy /
memset, `[memory]` instants, and the "M" metadata at the end, as Kineto puts it.
Output is a pure function of (--seed, --size-mb, --mix).

--ranks N writes a job of N ranks into a directory. Every rank runs the same steps (the same
seed), and each step ends in an all-reduce across the ranks: a record_param_comms op with
Kineto's collective args, its launch, and an NCCL kernel on stream 20 that starts when the rank
arrives and ends when the last rank has arrived plus the transfer time. A planted straggler
(--straggler R, default the last rank) arrives --straggler-delay-us later than the others at
every all-reduce, and each rank writes its times on its own clock, rank r's ahead of rank 0's
by a planted offset. DIR/planted.txt says what was planted, for tests to compare.

--mix picks what else the trace is made of, each mix imitating a real trace (class Mix
says which; scripts/trace_mix.py measures the shares, docs/performance.md compares
them): default (the above), memory (profile_memory), stack (with_stack), flows (fwdbwd
and ac2g flows on every runtime call). Mixes combine: --mix memory,stack,flows.

Speed matters (the bench writes ~1 GB per mix): a step's op tree is built once from
static strings, each step only formats the few numbers that change, and text is
written in large chunks.
"""
import argparse
import collections
import gzip
import itertools
import json
import os
import random
import sys

CPU_PID, MAIN_TID, BWD_TID = 3131, 3131, 3190
GPU_PID, STREAM = 0, 7
COMM_STREAM = 20  # a generated job's all-reduce kernels
NCCL_KERNEL = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"
BASE_NS = 1727743122123456  # ns; written as µs with 3 decimals, like modern Kineto
CHUNK = 8 << 20  # bytes buffered before each write


# ---------------------------------------------------------------- op tree
# A node is (kind, name, static_args, children, extra):
#   "op":     a cpu_op / user_annotation; extra = (cat, seq, alloc_bytes, self_ns). seq is the op's
#             autograd sequence number within the step (None: no autograd node), so a backward
#             node can carry the same number as the forward op it differentiates, as in PyTorch.
#   "launch": cudaLaunchKernel + its kernel; extra = (kernel_name, kernel_static_args, kernel_ns)
#   "memcpy" / "memset": cudaMemcpyAsync / cudaMemsetAsync + the GPU activity; extra = (gpu_name, bytes)
#   "rt":     a runtime call without GPU work (cudaStreamIsCapturing, ...)
def op(name, dims, types, *children, cat="cpu_op", seq=None, alloc=0, self_us=2.0):
    args = ', "Input Dims": %s, "Input type": %s' % (json.dumps(dims), json.dumps(types)) if dims else ""
    return ("op", name, args, children, (cat, seq, alloc, int(self_us * 1000)))


def rt(name, kind="rt", gpu=None):
    return (kind, name, "", (), gpu)


def kernel(name, grid, block, us, regs=64, smem=0):
    static = (', "queued": 0, "device": 0, "context": 1, "stream": %d, "registers per thread": %d, '
              '"shared memory": %d, "blocks per SM": %.6f, "warps per SM": %.6f, "grid": %s, '
              '"block": %s, "est. achieved occupancy %%": %d' % (
                  STREAM, regs, smem, grid[0] / 108, grid[0] * block[0] / 32 / 108,
                  json.dumps(grid), json.dumps(block), min(100, grid[0] * block[0] // 2048)))
    return ("launch", "cudaLaunchKernel", "", (), (name, static, int(us * 1000)))


EW = ("void at::native::vectorized_elementwise_kernel<4, at::native::%s, at::detail::Array<char*, %d> >"
      "(int, at::native::%s, at::detail::Array<char*, %d>)")
REDUCE = ("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
          "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
          "unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
          "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
          "unsigned int, float, 4>)")
SOFTMAX = ("void (anonymous namespace)::softmax_warp_%s<float, float, float, 10, true, false>"
           "(float*, float const*, int, int, int, bool const*, int, bool)")
NLL = "void at::native::(anonymous namespace)::nll_loss_%s_reduce_cuda_kernel_2d<float, float, long>"


def ew(functor, arity, n, us):
    return kernel(EW % (functor, arity, functor, arity), [max(1, n // 1024), 1, 1], [128, 1, 1], us, regs=20)


def view_chain(shape):
    """aten::t -> aten::transpose -> aten::as_strided: the deepest common CPU chain."""
    return op("aten::t", [shape], ["float"],
              op("aten::transpose", [shape, [], []], ["float", "Scalar", "Scalar"],
                 op("aten::as_strided", [shape, [], [], []], ["float", "", "", ""], self_us=0.8),
                 self_us=1.5), self_us=1.5)


# ---------------------------------------------------------------- mixes
MIXES = ("default", "memory", "stack", "flows")
# The numbers below make each mix's shares of events (scripts/trace_mix.py) match the real trace it
# imitates within a few points; docs/performance.md has the table. Changing the step's shape means
# measuring them again.
SYNC_CALLS = {"memory": 0.70, "flows": 1.30}  # runtime calls without GPU work added per kernel launch
REPEATS = {"memory": 0.49}  # launch sites that launch their kernel twice (multi_tensor_apply, split-K)
STACK_LEAVES = 36  # leaf Python calls (__getattr__, isinstance, ...) per nn.Module call
TUNABLE = {"sync": float, "repeat": float, "leaves": int}  # --tune overrides the three rates above


class Mix:
    """What a set of mixes (--mix memory,stack) adds to the default step.

    memory: profile_memory=True, as in HTA's df_index_resolver trace: a [memory] record for every
            allocation and every free (Addr, Bytes, Total Allocated, Total Reserved, Device Type,
            Device Id), activations freed by their backward node, gradients by the next one, and
            that DDP run's density of runtime calls (cudaStreamWaitEvent, cudaEventQuery, ...) and
            of kernels (some launch sites launch twice).
    stack:  with_stack=True, as in TraceLens' B200 and MI300X traces: python_function frames with
            Python id / Python parent id (nn.Module calls, their _call_impl and forward frames,
            built-in calls around each op, many leaf calls), the optimizer's loop and the backward
            call on the main thread.
    flows:  fwdbwd flows from each forward op to its backward node, and ac2g flows on every runtime
            call, at the runtime-call density of param's ResNet trace.
    memory and flows leave out Input Dims / Input type, as their traces (recorded without
    record_shapes) do; stack keeps them.
    Any mix but the default writes a step in Kineto's order (CPU ops and their fwdbwd flows,
    [memory] records, Python frames, then runtime calls with their flows and GPU activity) and, as
    Kineto does for CUDA, ends an ac2g flow on each runtime call without GPU work."""

    def __init__(self, names, tune=None):
        names = set(names)
        bad = names - set(MIXES)
        if bad:
            raise ValueError("unknown mix %s (mixes: %s)" % (", ".join(sorted(bad)), ", ".join(MIXES)))
        self.memory, self.stack, self.flows = "memory" in names, "stack" in names, "flows" in names
        self.kineto = self.memory or self.stack or self.flows
        self.sync = max([SYNC_CALLS[n] for n in names if n in SYNC_CALLS] or [0])
        self.repeat = max([REPEATS[n] for n in names if n in REPEATS] or [0])
        self.leaves = STACK_LEAVES if self.stack else 0
        # Input Dims / Input type (record_shapes): the traces that memory and flows imitate have none
        self.shapes = self.stack or not self.kineto
        self.name = ",".join(n for n in MIXES if n in names and n != "default") or "default"
        for key, value in (tune or {}).items():  # --tune: other shares than the calibrated ones
            if key not in TUNABLE:
                raise ValueError("unknown --tune key %s (keys: %s)" % (key, ", ".join(TUNABLE)))
            if not self.kineto:
                raise ValueError("--tune needs a mix other than default")
            setattr(self, key, TUNABLE[key](value))
            self.name += " %s=%s" % (key, value)


DEFAULT = Mix(["default"])
EVALUATE = "autograd::engine::evaluate_function: "
CALL_IMPL = "torch/nn/modules/module.py(1779): _call_impl"
LEAF_NAMES = ["torch/nn/modules/module.py(1951): __getattr__", "<built-in function isinstance>",
              "<built-in function len>", "torch/_jit_internal.py(103): is_scripting",
              "<built-in method numel of Tensor object at 0x7fdc681d0910>",
              "<built-in function _has_torch_function_unary>", "<built-in function hasattr>",
              "<built-in method size of Tensor object at 0x7fdc681f1c70>",
              "<built-in method get of dict object at 0x7f468be6f440>", "<built-in function is_grad_enabled>",
              "torch/nn/modules/module.py(1951): __getattr__", "<built-in method dim of Tensor object at 0x7fdc681d0910>"]
BACKWARD_FRAMES = ["torch/_tensor.py(648): backward", "torch/autograd/__init__.py(353): backward",
                   "torch/autograd/graph.py(824): _engine_run_backward",
                   "<method 'run_backward' of 'torch._C._EngineBase' objects>"]
SESSION_FRAMES = ["train.py(184): <module>", "train.py(180): main"]
TRAIN_STEP = "train.py(82): train_step"
CBID = {"cudaLaunchKernel": 211, "cudaMemcpyAsync": 41, "cudaMemsetAsync": 51, "cudaStreamIsCapturing": 317,
        "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags": 251, "cudaStreamWaitEvent": 147,
        "cudaEventQuery": 138, "cudaStreamGetPriority": 203, "cudaDeviceGetStreamPriorityRange": 205}
SYNC_NAMES = ["cudaStreamWaitEvent", "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", "cudaEventQuery",
              "cudaStreamGetPriority", "cudaStreamIsCapturing", "cudaDeviceGetStreamPriorityRange"]


def py(name, *children, module=None):
    """A python_function frame around children (ops or frames); module: an nn.Module's marker frame."""
    return ("py", name, "" if module is None else ', "Python module id": %d' % module, children, None)


def build_step(rnd, mix=DEFAULT):
    """Forward (main thread), backward (autograd thread) and optimizer trees of one step of an MLP."""
    mem = (lambda n: n) if mix.memory else (lambda n: 0)  # allocations only the memory mix adds (< 0: host)
    leaf_names = itertools.cycle(LEAF_NAMES)
    leaves = lambda n: [py(next(leaf_names)) for _ in range(n)]
    calls = collections.Counter()

    def module(cls, frames, builtin, node):
        """node as an nn.Module call records it with with_stack: the module's marker, _call_impl, its
        forward frames, the built-in function that enters C++, and leaf calls along the way."""
        if not mix.stack:
            return node
        inner = py(builtin, node)
        for i, f in enumerate(reversed(frames)):
            inner = py(f, *(leaves(mix.leaves // 2) if i == 0 else ()), inner)
        calls[cls] += 1
        return py("nn.Module: %s_%d" % (cls, calls[cls] - 1),
                  py(CALL_IMPL, *leaves(mix.leaves - mix.leaves // 2), inner), module=0)

    B = rnd.choice([16, 32, 64])
    widths = [rnd.choice([512, 1024, 2048, 4096]) for _ in range(rnd.randint(10, 14) + 1)]
    layers, classes = list(zip(widths, widths[1:])), widths[-1]
    act = lambda n: B * n * 4  # bytes of a [B, n] float activation
    gemm = lambda i, o, t: kernel("ampere_sgemm_128x64_" + t, [max(1, o // 64), max(1, B // 128), 1], [256, 1, 1],
                                  B * i * o / 2e7 + 4, regs=128, smem=24576)
    seqs = iter(range(10**6))
    # autograd::engine::evaluate_function: X wraps X, both carrying the forward op's sequence number
    ev = lambda seq, g, *kids: op(EVALUATE + g, None, None, op(g, None, None, *kids, seq=seq), seq=seq)
    acc = lambda shape: ev(None, "torch::autograd::AccumulateGrad",
                           op("aten::detach", [shape], ["float"], op("detach", [shape], ["float"], self_us=0.7)))
    x = [B, widths[0]]
    fwd = [op("aten::to", [x, [], [], [], []], ["float", "Scalar", "Scalar", "Scalar", ""],
              op("aten::_to_copy", [x, [], [], [], [], [], []], ["float", "Scalar", "", "", "", "Scalar", ""],
                 op("aten::empty_strided", [[], [], [], [], [], []], ["", "", "Scalar", "", "", ""], alloc=act(x[1])),
                 op("aten::copy_", [x, x, []], ["float", "float", "Scalar"],
                    rt("cudaMemcpyAsync", "memcpy", ("Memcpy HtoD (Pinned -> Device)", act(x[1]))))))]
    if mix.stack:
        fwd = [py("<built-in method to of Tensor object at 0x7fdc681f2a80>", *fwd)]
    model = []
    bwd, opt = [], []
    for i, o in layers:
        s_lin, s_relu, s_drop = next(seqs), next(seqs), next(seqs)
        model += [module("Linear", ["torch/nn/modules/linear.py(125): forward"], "<built-in function linear>",
                         op("aten::linear", [[B, i], [o, i], [o]], ["float", "float", "float"],
                            view_chain([o, i]),
                            op("aten::addmm", [[o], [B, i], [i, o], [], []], ["float", "float", "float", "Scalar", "Scalar"],
                               rt("cudaStreamIsCapturing"), gemm(i, o, "tn"), seq=s_lin, alloc=act(o)),
                            seq=s_lin)),
                  module("ReLU", ["torch/nn/modules/activation.py(133): forward", "torch/nn/functional.py(1697): relu"],
                         "<built-in method relu of type object at 0x7f4f7dff0640>",
                         op("aten::relu", [[B, o]], ["float"],
                            op("aten::clamp_min", [[B, o], []], ["float", "Scalar"], ew("clamp_min_functor", 2, B * o, 2.5),
                               alloc=mem(act(o))),
                            seq=s_relu)),
                  module("Dropout", ["torch/nn/modules/dropout.py(69): forward", "torch/nn/functional.py(1412): dropout"],
                         "<built-in method dropout of type object at 0x7f4f7dff0640>",
                         op("aten::dropout", [[B, o], [], []], ["float", "Scalar", "Scalar"],
                            op("aten::native_dropout", [[B, o], [], []], ["float", "Scalar", "Scalar"],
                               op("aten::empty_like", [[B, o], [], [], [], [], []], ["float", "", "", "", "", ""],
                                  op("aten::empty_strided", [[], [], [], [], [], []], ["", "", "Scalar", "", "", ""], alloc=act(o))),
                               ew("fused_dropout_functor", 3, B * o, 3.0), seq=s_drop, alloc=mem(B * o)), seq=s_drop))]
        # backward runs the layers in reverse: prepend
        bwd[:0] = [ev(s_drop, "NativeDropoutBackward0",
                      op("aten::native_dropout_backward", [[B, o], [B, o], []], ["float", "bool", "Scalar"],
                         ew("MulFunctor<float>", 3, B * o, 2.5), alloc=mem(act(o)))),
                   ev(s_relu, "ReluBackward0",
                      op("aten::threshold_backward", [[B, o], [B, o], []], ["float", "float", "Scalar"],
                         ew("threshold_kernel_impl<float>", 3, B * o, 2.5), alloc=mem(act(o)))),
                   ev(s_lin, "AddmmBackward0",
                      view_chain([i, o]),
                      op("aten::mm", [[B, o], [o, i]], ["float", "float"],
                         rt("cudaStreamIsCapturing"), gemm(o, i, "nn"), alloc=act(i)),
                      view_chain([B, o]),
                      op("aten::mm", [[o, B], [B, i]], ["float", "float"], gemm(B, o * i // B, "nt"), alloc=mem(o * i * 4)),
                      op("aten::sum", [[B, o], [], [], []], ["float", "ScalarList", "Scalar", ""],
                         rt("cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags"),
                         kernel(REDUCE, [max(1, o // 32), 1, 1], [32, 16, 1], 4.0, regs=32, smem=16), alloc=mem(o * 4))),
                   acc([o, i]), acc([o])]
        opt += [op("aten::add_", [[o, i], [o, i], []], ["float", "float", "Scalar"], ew("CUDAFunctor_add<float>", 3, o * i, 6.0)),
                op("aten::add_", [[o], [o], []], ["float", "float", "Scalar"], ew("CUDAFunctor_add<float>", 3, o, 1.5))]
    s_sm, s_nll = next(seqs), next(seqs)
    y, t = [B, classes], [B]
    loss = [op("aten::cross_entropy_loss", [y, t, [], [], []], ["float", "long", "", "Scalar", "Scalar"],
               op("aten::log_softmax", [y, [], []], ["float", "Scalar", ""],
                  op("aten::_log_softmax", [y, [], []], ["float", "Scalar", "Scalar"],
                     kernel(SOFTMAX % "forward", [B, 1, 1], [1024, 1, 1], 5.0, regs=40, smem=64),
                     seq=s_sm, alloc=act(classes)), seq=s_sm),
               op("aten::nll_loss_nd", [y, t, [], [], []], ["float", "long", "", "Scalar", "Scalar"],
                  op("aten::nll_loss", [y, t, [], [], []], ["float", "long", "", "Scalar", "Scalar"],
                     op("aten::nll_loss_forward", [y, t, [], [], []], ["float", "long", "", "Scalar", "Scalar"],
                        kernel(NLL % "forward", [1, 1, 1], [32, 1, 1], 3.0, regs=30), seq=s_nll, alloc=mem(512)),
                     seq=s_nll), seq=s_nll))]
    if mix.stack:
        model = [py("nn.Module: MLP_0", py(CALL_IMPL, *leaves(mix.leaves), py("train.py(31): forward", *model)), module=0)]
        loss = [module("CrossEntropyLoss", ["torch/nn/modules/loss.py(1293): forward",
                                            "torch/nn/functional.py(3494): cross_entropy"],
                       "<built-in function cross_entropy_loss>", *loss)]
    fwd += model + loss
    bwd[:0] = [ev(s_nll, "NllLossBackward0",
                  op("aten::nll_loss_backward", [[], y, t, [], [], [], []], ["float", "float", "long", "", "Scalar", "Scalar", "float"],
                     ew("FillFunctor<float>", 1, B * classes, 1.8), kernel(NLL % "backward", [1, 1, 1], [32, 1, 1], 2.5, regs=30),
                     alloc=mem(act(classes)))),
               ev(s_sm, "LogSoftmaxBackward0",
                  op("aten::_log_softmax_backward_data", [y, y, [], []], ["float", "float", "Scalar", "Scalar"],
                     kernel(SOFTMAX % "backward", [B, 1, 1], [1024, 1, 1], 4.0, regs=40), alloc=mem(act(classes))))]
    zeros = [op("aten::zero_", [[o, i]], ["float"],
                op("aten::fill_", [[o, i], []], ["float", "Scalar"], rt("cudaMemsetAsync", "memset", ("Memset (Device)", o * i * 4))),
                alloc=mem(-8))  # a CPU scalar: the host's records (Device Type 0, Device Id -1)
             for i, o in layers[:2]]
    fwd = [op("DistributedDataParallel.forward", None, None, *fwd, cat="user_annotation")]
    step = op("Optimizer.step#SGD.step", None, None, *opt, cat="user_annotation")
    zero = op("Optimizer.zero_grad#SGD.zero_grad", None, None, *zeros, cat="user_annotation")
    if mix.stack:
        fwd = [py("nn.Module: DistributedDataParallel_0",
                  py(CALL_IMPL, *leaves(mix.leaves), py("torch/nn/parallel/distributed.py(1637): forward", *fwd)), module=0)]
        method = lambda name, node: [py("<built-in method %s of Tensor object at 0x7f3e8bc17c00>" % name, node)] + leaves(2)
        step = py("torch/optim/optimizer.py(485): wrapper", *leaves(mix.leaves // 2),
                  op("Optimizer.step#SGD.step", None, None,
                     py("torch/optim/sgd.py(105): step", py("torch/optim/sgd.py(245): sgd",
                        py("torch/optim/sgd.py(339): _single_tensor_sgd", *sum((method("add_", a) for a in opt), [])))),
                     cat="user_annotation"))
        zero = py("torch/optim/optimizer.py(936): zero_grad", *leaves(mix.leaves // 2),
                  op("Optimizer.zero_grad#SGD.zero_grad", None, None, *sum((method("zero_", z) for z in zeros), []),
                     cat="user_annotation"))
    return fwd, bwd, [step, zero], next(seqs)


# ---------------------------------------------------------------- emission
class Allocator:
    """One device's caching allocator, as far as its [memory] records show it: a freed block is
    reused for the next request of its size, others are cut from reserved segments (2 MiB steps)
    that are never given back. CPU records carry no reserved total."""

    def __init__(self, device_type, device_id, base, allocated, reserved):
        self.device_type, self.device_id = device_type, device_id
        self.free = {}  # size -> addresses
        self.next, self.end = base, base + reserved - allocated  # reserved space not yet handed out
        self.allocated, self.reserved = allocated, reserved
        self.caching = reserved > 0

    def alloc(self, nbytes):
        size = (nbytes + 511) // 512 * 512
        blocks = self.free.get(size)
        if blocks:
            addr = blocks.pop()
        else:
            addr, self.next = self.next, self.next + size
            if self.next > self.end and self.caching:
                grow = -(-(self.next - self.end) // (2 << 20)) * (2 << 20)
                self.end += grow
                self.reserved += grow
        self.allocated += size
        return addr, size

    def release(self, addr, size):
        self.allocated -= size
        self.free.setdefault(size, []).append(addr)


class Writer:
    def __init__(self, rnd, fh, mix=DEFAULT):
        self.rnd, self.fh, self.mix = rnd, fh, mix
        self.lines, self.gpu = [], []  # CPU-side lines of the step; GPU lines flushed after them
        self.mem, self.py, self.dev = [], [], []  # Kineto's order: [memory], Python, runtime + GPU
        self.size = 0
        self.first = True
        self.ext = self.corr = self.seq = self.evidx = 0
        self.gpu_t = 0
        self.allocated = 0
        # profile_memory: CUDA has 1 GiB of weights and 2 GiB reserved before the trace starts
        self.cuda = Allocator(1, 0, 0x7f3a00000000, 1 << 30, 2 << 30)
        self.host = Allocator(0, -1, 0x55d4c0000000, 0, 0)
        self.live, self.grads, self.new_grads, self.seq_ctx = {}, [], [], []
        self.fwd_ops, self.fwdbwd = {}, 0  # sequence number -> (slot, start) of its forward op
        self.py_ids, self.py_stack = len(SESSION_FRAMES), [len(SESSION_FRAMES)]  # the session's frames: ids 1, 2
        self.repeat_credit = self.sync_credit = 0.0
        self.sync_next = 0
        self.clock_ns = 0  # a rank's clock runs ahead of the job's by this much
        self.job = None  # (Job, rank) when the trace is one rank of a generated job

    def ts(self, t):
        return "%.3f" % ((t + self.clock_ns) / 1000)

    def all_reduce(self, n, t):
        """The step's closing all-reduce on this rank, from t (the same on every rank: they run
        the same steps); returns when it is over, the same on every rank too."""
        job, rank = self.job
        arrive = [t + job.arrival_ns(n, r) for r in range(job.ranks)]
        end = max(arrive) + job.transfer_ns
        self.ext += 1
        self.evidx += 1
        self.corr += 1
        ext, c, mine = self.ext, self.corr, arrive[rank]
        comm = ('"Process Group Name": "0", "Process Group Description": "default_pg", '
                '"Process Group Ranks": "[%s]", "Collective name": "allreduce", "In msg nelems": %d, '
                '"Out msg nelems": %d, "dtype": "Float", "Group size": %d, "Rank": %d' % (
                    ", ".join(map(str, range(job.ranks))), job.nelems, job.nelems, job.ranks, rank))
        launch = mine - 4000
        out = self.dev if self.mix.kineto else self.gpu  # where this mix keeps runtime and GPU lines
        self.lines.append('{"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": %d, "tid": %d, '
                          '"ts": %s, "dur": %.3f, "args": {"External id": %d, %s, "Ev Idx": %d}}' % (
                              CPU_PID, MAIN_TID, self.ts(launch - 1000), 5.5, ext, comm, self.evidx))
        out.append('{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": %d, "tid": %d, '
                        '"ts": %s, "dur": %.3f, "args": {"External id": %d, "cbid": 211, "correlation": %d}}' % (
                            CPU_PID, MAIN_TID, self.ts(launch), 3.0, ext, c))
        out.append('{"ph": "X", "cat": "kernel", "name": "%s", "pid": %d, "tid": %d, "ts": %s, "dur": %.3f, '
                        '"args": {"External id": %d, "correlation": %d, "device": 0, "context": 1, "stream": %d, '
                        '%s}}' % (NCCL_KERNEL, GPU_PID, COMM_STREAM, self.ts(mine), (end - mine) / 1000, ext, c,
                                  COMM_STREAM, comm))
        return end

    def emit(self, node, tid, t, parent_ext):
        """Writes node (pre-order, so parents precede children) starting after t; returns its end.
        parent_ext is the enclosing op's External id, which runtime calls and their GPU work carry."""
        kind, name, args, children, extra = node
        r = self.rnd.random
        start = t + 200 + int(r() * 1500)
        if kind == "py":
            return self.python(name, args, children, tid, t, parent_ext)
        if kind == "op":
            cat, seq, alloc, self_ns = extra
            args = args if self.mix.shapes else ""
            self.ext += 1
            self.evidx += 1
            ext = self.ext
            slot = len(self.lines)
            self.lines.append(None)
            cur = start + 100 + int(r() * self_ns)
            if alloc:
                if self.mix.memory:
                    self.alloc(tid, cur, alloc, seq)
                elif not self.mix.kineto:
                    self.allocated += alloc
                    self.memory(tid, cur, alloc)
                cur += 50
            if self.mix.memory and seq is not None:
                self.seq_ctx.append(seq)
            for c in children:
                cur = self.emit(c, tid, cur, ext)
            if self.mix.memory and seq is not None:
                self.seq_ctx.pop()
            if self.mix.memory and tid == BWD_TID and name.startswith(EVALUATE):
                cur = self.release_consumed(seq, cur)
            end = cur + 150 + int(r() * self_ns)
            seqs = "" if seq is None else ', "Sequence number": %d, "Fwd thread id": %d' % (
                self.seq + seq, 1 if tid == BWD_TID else 0)
            self.lines[slot] = (
                '{"ph": "X", "cat": "%s", "name": "%s", "pid": %d, "tid": %d, "ts": %s, "dur": %.3f, '
                '"args": {"External id": %d%s, "Ev Idx": %d%s}}' % (
                    cat, name, CPU_PID, tid, self.ts(start), (end - start) / 1000, ext, seqs, self.evidx, args))
            if self.mix.flows and seq is not None:
                self.link_forward_backward(slot, seq, name, tid, start)
            return end
        if self.mix.kineto:
            return self.runtime_calls(kind, name, extra, tid, start, parent_ext)
        # runtime call: a leaf inside the enclosing op (External id = that op's id)
        self.corr += 1
        c = self.corr
        cbid = {"launch": 211, "memcpy": 51, "memset": 48, "rt": 317}[kind]
        end = start + 2000 + int(r() * 4000)
        self.lines.append(
            '{"ph": "X", "cat": "cuda_runtime", "name": "%s", "pid": %d, "tid": %d, "ts": %s, "dur": %.3f, '
            '"args": {"External id": %d, "cbid": %d, "correlation": %d}}' % (
                name, CPU_PID, tid, self.ts(start), (end - start) / 1000, parent_ext, cbid, c))
        if kind == "rt":
            return end
        self.lines.append('{"ph": "s", "id": %d, "pid": %d, "tid": %d, "ts": %s, "cat": "ac2g", "name": "ac2g"}'
                          % (c, CPU_PID, tid, self.ts(start)))
        self.gpu_activity(kind, extra, start, parent_ext, c, self.gpu)
        return end

    def gpu_activity(self, kind, extra, start, parent_ext, c, out):
        """The kernel, memcpy or memset a runtime call started, and the end of its ac2g flow."""
        r = self.rnd.random
        g0 = max(self.gpu_t + 500, start + 5000 + int(r() * 20000))
        if kind == "launch":
            kname, kargs, kns = extra
            g1 = g0 + int(kns * (0.8 + 0.4 * r()))
            cat, gargs = "kernel", kargs
        else:
            gname, nbytes = extra
            g1 = g0 + 1000 + nbytes // (20 if kind == "memcpy" else 500)
            kname, cat = gname, "gpu_" + kind
            gargs = ', "device": 0, "context": 1, "stream": %d, "bytes": %d, "memory bandwidth (GB/s)": %.6f' % (
                STREAM, nbytes, nbytes / (g1 - g0))
        self.gpu_t = g1
        out.append('{"ph": "X", "cat": "%s", "name": "%s", "pid": %d, "tid": %d, "ts": %s, "dur": %.3f, '
                   '"args": {"External id": %d, "correlation": %d%s}}' % (
                       cat, kname, GPU_PID, STREAM, self.ts(g0), (g1 - g0) / 1000, parent_ext, c, gargs))
        out.append('{"ph": "f", "id": %d, "pid": %d, "tid": %d, "ts": %s, "cat": "ac2g", "name": "ac2g", "bp": "e"}'
                   % (c, GPU_PID, STREAM, self.ts(g0)))

    def runtime_calls(self, kind, name, extra, tid, start, parent_ext):
        """A runtime call as Kineto writes it (after the step's CPU ops and Python frames), its launch
        repeated and calls without GPU work added at the mix's rates; returns the last one's end."""
        r = self.rnd.random
        calls = [(kind, name, extra)]
        if kind == "launch" and self.mix.repeat:
            self.repeat_credit += self.mix.repeat
            if self.repeat_credit >= 1:
                self.repeat_credit -= 1
                calls.append(calls[0])
        if kind != "rt" and self.mix.sync:
            self.sync_credit += self.mix.sync * len(calls)
            while self.sync_credit >= 1:
                self.sync_credit -= 1
                calls.append(("rt", SYNC_NAMES[self.sync_next % len(SYNC_NAMES)], None))
                self.sync_next += 1
        t = start
        for kind, name, extra in calls:
            self.corr += 1
            c = self.corr
            end = t + 2000 + int(r() * 4000)
            self.dev.append(
                '{"ph": "X", "cat": "cuda_runtime", "name": "%s", "pid": %d, "tid": %d, "ts": %s, "dur": %.3f, '
                '"args": {"External id": %d, "cbid": %d, "correlation": %d}}' % (
                    name, CPU_PID, tid, self.ts(t), (end - t) / 1000, parent_ext, CBID[name], c))
            self.dev.append('{"ph": "%s", "id": %d, "pid": %d, "tid": %d, "ts": %s, "cat": "ac2g", "name": "ac2g"%s}'
                            % ("f" if kind == "rt" else "s", c, CPU_PID, tid, self.ts(t),
                               ', "bp": "e"' if kind == "rt" else ""))
            if kind != "rt":
                self.gpu_activity(kind, extra, t, parent_ext, c, self.dev)
            t = end + 300 + int(r() * 1000)
        return end

    def python(self, name, args, children, tid, t, parent_ext):
        """A python_function frame: around its children, a few hundred ns for a leaf call."""
        r = self.rnd.random
        h = self.py_open(name, tid, t + 30 + int(r() * 300), args)
        cur = h[3] + 40 + int(r() * 200)
        for c in children:
            cur = self.emit(c, tid, cur, parent_ext)
        end = cur + 40 + int(r() * 200)
        self.py_close(h, end)
        return end

    def py_open(self, name, tid, start, args=""):
        self.py_ids += 1
        self.evidx += 1
        self.py.append(None)
        h = (len(self.py) - 1, self.py_ids, self.py_stack[-1], start, name, tid, args, self.evidx)
        self.py_stack.append(self.py_ids)
        return h

    def py_close(self, h, end):
        slot, pid, parent, start, name, tid, args, evidx = h
        self.py_stack.pop()
        self.py[slot] = ('{"ph": "X", "cat": "python_function", "name": "%s", "pid": %d, "tid": %d, "ts": %s, '
                         '"dur": %.3f, "args": {"Python parent id": %s, "Python id": %d%s, "Ev Idx": %d}}' % (
                             name, CPU_PID, tid, self.ts(start), (end - start) / 1000,
                             "null" if parent is None else parent, pid, args, evidx))

    def link_forward_backward(self, slot, seq, name, tid, start):
        """fwdbwd flows as PyTorch links them: from the forward op of a sequence number that started
        last to the backward node (not its evaluate_function wrapper) of the same number."""
        if tid == MAIN_TID:
            self.fwd_ops[seq] = (slot, start)
        elif not name.startswith(EVALUATE) and seq in self.fwd_ops:
            fslot, fstart = self.fwd_ops.pop(seq)
            self.fwdbwd += 1
            flow = ',\n  {"ph": "%s", "id": %d, "pid": %d, "tid": %d, "ts": %s, "cat": "fwdbwd", "name": "fwdbwd"%s}'
            self.lines[fslot] += flow % ("s", self.fwdbwd, CPU_PID, MAIN_TID, self.ts(fstart), "")
            self.lines[slot] += flow % ("f", self.fwdbwd, CPU_PID, tid, self.ts(start), ', "bp": "e"')

    def memory(self, tid, t, nbytes):
        self.evidx += 1
        self.lines.append(
            '{"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": %d, "tid": %d, "ts": %s, '
            '"args": {"Total Reserved": %d, "Total Allocated": %d, "Bytes": %d, "Device Id": 0, "Device Type": 1, '
            '"Addr": %d, "Ev Idx": %d}}' % (CPU_PID, tid, self.ts(t), 1 << 34, self.allocated, nbytes,
                                            0x7f3a00000000 + (self.evidx << 12), self.evidx))

    def record(self, tid, t, dev, addr, nbytes):
        """A profile_memory record after dev took (nbytes > 0) or gave back (< 0) the block at addr."""
        self.evidx += 1
        self.mem.append(
            '{"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": %d, "tid": %d, "ts": %s, '
            '"args": {"Total Reserved": %d, "Total Allocated": %d, "Bytes": %d, "Device Id": %d, "Device Type": %d, '
            '"Addr": %d, "Ev Idx": %d}}' % (CPU_PID, tid, self.ts(t), dev.reserved, dev.allocated, nbytes,
                                            dev.device_id, dev.device_type, addr, self.evidx))

    def alloc(self, tid, t, nbytes, seq):
        """Allocates for an op (nbytes < 0: on the host): a forward activation lives until the
        backward node of its sequence number (the innermost around it) has run, a gradient until the
        next backward node has, anything else until the end of the step."""
        dev = self.host if nbytes < 0 else self.cuda
        addr, size = dev.alloc(abs(nbytes))
        self.record(tid, t, dev, addr, size)
        if tid == BWD_TID:
            self.new_grads.append((dev, addr, size))
        else:
            owner = seq if seq is not None else self.seq_ctx[-1] if self.seq_ctx else None
            self.live.setdefault(owner, []).append((dev, addr, size))

    def release_consumed(self, seq, t):
        """After a backward node: frees its forward activations and the gradients it consumed."""
        for dev, addr, size in (self.live.pop(seq, []) if seq is not None else []) + self.grads:
            t += 30
            dev.release(addr, size)
            self.record(BWD_TID, t, dev, addr, -size)
        self.grads, self.new_grads = self.new_grads, []
        return t

    def release_all(self, t):
        """The end of a step: what is still allocated (the input, the last gradients) is freed."""
        blocks = [b for owner in sorted(self.live, key=lambda k: -1 if k is None else k) for b in self.live[owner]]
        for dev, addr, size in blocks + self.grads + self.new_grads:
            t += 30
            dev.release(addr, size)
            self.record(MAIN_TID, t, dev, addr, -size)
        self.live, self.grads, self.new_grads = {}, [], []
        return t

    def step(self, n, fwd, bwd, opt, nseq, t):
        """One ProfilerStep: forward, then backward on the autograd thread, then optimizer."""
        self.lines.append(None)
        slot, self.ext, self.evidx = len(self.lines) - 1, self.ext + 1, self.evidx + 1
        ext, evidx, start = self.ext, self.evidx, t
        stack = self.mix.stack
        if stack:
            frame = self.py_open(TRAIN_STEP, MAIN_TID, t + 500)
        cur = t + 1000
        for node in fwd:
            cur = self.emit(node, MAIN_TID, cur, ext)
        if stack:  # the main thread waits in loss.backward() while the autograd thread runs
            frames = [self.py_open(name, MAIN_TID, cur + 100 * i) for i, name in enumerate(BACKWARD_FRAMES, 1)]
            cur += 100 * len(frames) + 100
        for node in bwd:
            cur = self.emit(node, BWD_TID, cur, ext)
        if stack:
            for h in reversed(frames):
                cur += 100
                self.py_close(h, cur)
        for node in opt:
            cur = self.emit(node, MAIN_TID, cur, ext)
        if self.mix.memory:
            cur = self.release_all(cur + 100)
        elif not self.mix.kineto:
            # activations freed at the end of the step: negative Bytes, as the caching allocator reports
            freed, self.allocated = self.allocated, 0
            self.memory(MAIN_TID, cur + 100, -freed)
        if stack:
            cur += 300
            self.py_close(frame, cur)
        self.seq += nseq
        self.fwd_ops = {}
        if self.job:
            cur = self.gpu_t = self.all_reduce(n, max(cur, self.gpu_t) + 1000)
        end = max(cur, self.gpu_t) + 2000
        self.lines[slot] = ('{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d", "pid": %d, "tid": %d, '
                            '"ts": %s, "dur": %.3f, "args": {"External id": %d, "Ev Idx": %d}}' % (
                                n, CPU_PID, MAIN_TID, self.ts(start), (end - start) / 1000, ext, evidx))
        if self.mix.kineto:
            self.lines += self.mem + self.py + self.dev
            self.mem, self.py, self.dev = [], [], []
        else:
            self.lines += self.gpu
            self.gpu = []
        return end + 5000

    def session_frames(self, start, end):
        """The Python frames around the whole session (ids 1 and 2), known once the last step ended."""
        for i, name in enumerate(SESSION_FRAMES):
            self.evidx += 1
            self.py.append('{"ph": "X", "cat": "python_function", "name": "%s", "pid": %d, "tid": %d, "ts": %s, '
                           '"dur": %.3f, "args": {"Python parent id": %s, "Python id": %d, "Ev Idx": %d}}' % (
                               name, CPU_PID, MAIN_TID, self.ts(start + 100 * i), (end - start - 200 * i) / 1000,
                               "null" if i == 0 else i, i + 1, self.evidx))
        self.lines += self.py
        self.py = []

    def flush(self, final=False):
        if self.lines and (final or sum(map(len, self.lines)) >= CHUNK):
            text = ",\n  ".join(self.lines)
            text = ("\n  " if self.first else ",\n  ") + text
            self.first = False
            self.write(text)
            self.lines = []

    def write(self, text):
        data = text.encode()
        self.size += len(data)
        self.fh.write(data)


class Job:
    """What a generated job plants: a straggler, a clock offset per rank, and each rank's arrival
    at each step's all-reduce (after the step's compute: a few us of jitter, the straggler later)."""
    def __init__(self, ranks, seed, straggler, straggler_delay_us):
        self.ranks, self.seed, self.straggler = ranks, seed, straggler
        self.delay_ns = int(straggler_delay_us * 1000)
        self.transfer_ns = 180000
        self.nelems = 1 << 22  # 16 MiB of floats
        # Rank r's clock is ahead of rank 0's: up to +-250 us, to the nanosecond.
        self.offsets_ns = [0] + [((r * 7919) % 500 - 250) * 1000 + r * 37 for r in range(1, ranks)]

    def arrival_ns(self, step, rank):
        jitter = random.Random(self.seed * 1000003 + step * 1009 + rank).randrange(2000, 20000)
        return jitter + (self.delay_ns if rank == self.straggler else 0)

    def planted(self):
        """Plain text, not JSON: profana takes every JSON file of a directory for a trace."""
        lines = ["# what gen_trace.py planted in this job", "ranks %d" % self.ranks, "straggler %d" % self.straggler,
                 "straggler_delay_us %.3f" % (self.delay_ns / 1000)]
        lines += ["clock_offset_us %d %.3f" % (r, o / 1000) for r, o in enumerate(self.offsets_ns)]
        return "\n".join(lines) + "\n"


def generate(path, size_mb, seed, mix=DEFAULT, rank=0, world_size=8, job=None):
    rnd = random.Random(seed)
    tree = build_step(rnd, mix)
    target = int(size_mb * 1e6)
    opener = (lambda p: gzip.GzipFile(p, "wb", compresslevel=1, mtime=0)) if path.endswith(".gz") else (lambda p: open(p, "wb"))
    with opener(path) as fh:
        w = Writer(rnd, fh, mix)
        if job:
            w.job, w.clock_ns = (job, rank), job.offsets_ns[rank]
        dev = ('{"id": %d, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 84990623744, "computeMajor": 8, '
               '"computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048, '
               '"regsPerBlock": 65536, "regsPerMultiprocessor": 65536, "warpSize": 32, "sharedMemPerBlock": 49152, '
               '"sharedMemPerMultiprocessor": 167936, "numSms": 108, "sharedMemPerBlockOptin": 166912}')
        flags = "".join('  "%s": 1,\n' % k for k, on in (("record_shapes", mix.kineto and mix.shapes), ("profile_memory", mix.memory),
                                                          ("with_stack", mix.stack)) if on)
        w.write('{\n  "schemaVersion": 1,\n  "deviceProperties": [\n    %s\n  ],\n'
                '  "distributedInfo": {"backend": "nccl", "rank": %d, "world_size": %d, "pg_count": 1},\n%s'
                '  "traceEvents": [' % (",\n    ".join(dev % i for i in range(8)), rank, world_size, flags))
        t, n = BASE_NS + rnd.randrange(10**9), 1
        first = t
        tail = 2000  # bytes left for the metadata and closing text
        while w.size + sum(map(len, w.lines)) < target - tail:
            t = w.step(n, *tree, t)
            n += 1
            w.flush()
        if mix.stack:
            w.session_frames(first - 1000, t)
        meta = lambda name, pid, tid, value: (
            '{"name": "%s", "ph": "M", "ts": %s, "pid": %d, "tid": %d, "args": {%s}}' % (
                name, w.ts(BASE_NS), pid, tid, value))
        w.lines += [meta("process_name", CPU_PID, 0, '"name": "python"'),
                    meta("process_labels", CPU_PID, 0, '"labels": "CPU"'),
                    meta("process_name", GPU_PID, 0, '"name": "python"'),
                    meta("process_labels", GPU_PID, 0, '"labels": "GPU 0"'),
                    meta("thread_name", CPU_PID, MAIN_TID, '"name": "thread %d (python)"' % MAIN_TID),
                    meta("thread_name", CPU_PID, BWD_TID, '"name": "thread %d (pt_autograd_0)"' % BWD_TID),
                    meta("thread_name", GPU_PID, STREAM, '"name": "stream %d "' % STREAM)]
        if job:
            w.lines.append(meta("thread_name", GPU_PID, COMM_STREAM, '"name": "stream %d "' % COMM_STREAM))
        w.flush(final=True)
        w.write('\n  ],\n  "traceName": "rank%d.%d.pt.trace.json"\n}\n' % (rank, seed))
    return w.size, n - 1


# ---------------------------------------------------------------- --stats
GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation"}


def stats(path):
    """Event count, bytes per event (of the JSON text), % of events per cat (or per ph when there is
    no cat), CPU nesting depth (1 = top level, over X events per thread), args per event, and
    kernels per cuda*Launch* call."""
    raw = gzip.open(path).read() if path.endswith(".gz") else open(path, "rb").read()
    doc = json.loads(raw)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    cats = collections.Counter(e.get("cat", "(ph %s)" % e.get("ph")) for e in events)
    # CPU nesting: per thread, sort complete events by (start, longest first) and keep a stack of ends
    threads = collections.defaultdict(list)
    for e in events:
        if e.get("ph") == "X" and e.get("cat") not in GPU_CATS:
            threads[(e.get("pid"), e.get("tid"))].append((float(e["ts"]), -float(e.get("dur", 0))))
    depths = []
    for evs in threads.values():
        evs.sort()
        stack = []
        for ts, neg_dur in evs:
            while stack and stack[-1] <= ts:
                stack.pop()
            stack.append(ts - neg_dur)
            depths.append(len(stack))
    launches = sum(1 for e in events if e.get("cat") in ("cuda_runtime", "cuda_driver") and "Launch" in e.get("name", ""))
    return {"events": len(events), "bytes/event": len(raw) / max(1, len(events)), "cats": cats,
            "max depth": max(depths, default=0), "mean depth": sum(depths) / max(1, len(depths)),
            "args/event": sum(len(e.get("args", ())) for e in events) / max(1, len(events)),
            "kernel/launch": cats["kernel"] / launches if launches else float("nan")}


def print_stats(paths):
    """One markdown table, one column per file, so generated and real traces sit side by side."""
    res = [stats(p) for p in paths]
    print("| | " + " | ".join("/".join(p.split("/")[-2:]) for p in paths) + " |")
    print("|---" * (len(paths) + 1) + "|")
    row = lambda label, vals: print("| %s | %s |" % (label, " | ".join(vals)))
    row("events", ["%d" % r["events"] for r in res])
    row("bytes/event", ["%.0f" % r["bytes/event"] for r in res])
    for key, fmt in (("max depth", "%d"), ("mean depth", "%.2f"), ("args/event", "%.2f"), ("kernel/launch", "%.2f")):
        row(key, [fmt % r[key] for r in res])
    total = collections.Counter()
    for r in res:
        total.update({c: n / r["events"] for c, n in r["cats"].items()})
    for cat, _ in total.most_common():
        row("%% %s" % cat, ["%.1f" % (100 * r["cats"][cat] / r["events"]) for r in res])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size-mb", type=float, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mix", default="default",
                    help="comma list of %s: what the trace is made of (default: the bench's trace)" % ", ".join(MIXES))
    ap.add_argument("--tune", metavar="KEY=VALUE,...",
                    help="override a mix's rates to reach other shares: sync (runtime calls without GPU work per "
                         "launch), repeat (share of launch sites launching twice), leaves (leaf Python calls per "
                         "module call); e.g. --mix memory --tune sync=0.5")
    ap.add_argument("-o", "--output", help="the trace file; with --ranks, the directory of the job")
    ap.add_argument("--ranks", type=int, help="write a job of this many ranks (rankN.json each) into -o DIR")
    ap.add_argument("--straggler", type=int, help="the rank that arrives late at every all-reduce (default: the last)")
    ap.add_argument("--straggler-delay-us", type=float, default=500)
    ap.add_argument("--stats", nargs="+", metavar="FILE")
    a = ap.parse_args()
    if a.stats:
        print_stats(a.stats)
    elif a.output:
        try:
            pairs = [kv.split("=", 1) for kv in a.tune.split(",")] if a.tune else []
            if any(len(kv) != 2 for kv in pairs):
                raise ValueError("--tune wants KEY=VALUE,... (keys: %s)" % ", ".join(TUNABLE))
            tune = dict(pairs)
            mix = Mix((m.strip() for m in a.mix.split(",") if m.strip()), tune)
        except ValueError as e:
            ap.error(str(e))
        if a.ranks:
            if a.ranks < 2:
                ap.error("--ranks wants 2 or more")
            straggler = a.ranks - 1 if a.straggler is None else a.straggler
            job = Job(a.ranks, a.seed, straggler, a.straggler_delay_us)
            os.makedirs(a.output, exist_ok=True)
            for r in range(a.ranks):
                generate(os.path.join(a.output, "rank%d.json" % r), a.size_mb, a.seed, mix, r, a.ranks, job)
            with open(os.path.join(a.output, "planted.txt"), "w") as fh:
                fh.write(job.planted())
            print("%s: %d ranks, straggler %d" % (a.output, a.ranks, straggler), file=sys.stderr)
            return
        size, steps = generate(a.output, a.size_mb, a.seed, mix)
        print("%s: %d bytes of JSON, %d steps (mix %s)" % (a.output, size, steps, mix.name), file=sys.stderr)
    else:
        ap.error("need -o FILE or --stats FILE...")


if __name__ == "__main__":
    main()
