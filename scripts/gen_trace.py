#!/usr/bin/env python3
"""Synthetic Kineto (PyTorch profiler) Chrome-trace generator, and a trace statistics printer.

  gen_trace.py --size-mb 100 [--seed 1] -o out.json[.gz]   # .gz => gzip level 1
  gen_trace.py --stats FILE...                             # plain or .gz, real or generated

The generated trace models an MLP training loop the way Kineto records it: one
`ProfilerStep#N` per step on the main thread holding the forward cpu_ops, the
backward ops on the autograd thread, an optimizer step, cudaLaunchKernel calls in
the innermost ops with their kernels and ac2g flows on stream 7, a few memcpy /
memset, `[memory]` instants, and the "M" metadata at the end, as Kineto puts it.
Output is a pure function of (--seed, --size-mb).

Speed matters (the bench writes ~1 GB): a step's op tree is built once from
static strings, each step only formats the few numbers that change, and text is
written in large chunks.
"""
import argparse
import collections
import gzip
import json
import random
import sys

CPU_PID, MAIN_TID, BWD_TID = 3131, 3131, 3190
GPU_PID, STREAM = 0, 7
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


def build_step(rnd):
    """Forward (main thread), backward (autograd thread) and optimizer trees of one step of an MLP."""
    B = rnd.choice([16, 32, 64])
    widths = [rnd.choice([512, 1024, 2048, 4096]) for _ in range(rnd.randint(10, 14) + 1)]
    layers, classes = list(zip(widths, widths[1:])), widths[-1]
    act = lambda n: B * n * 4  # bytes of a [B, n] float activation
    gemm = lambda i, o, t: kernel("ampere_sgemm_128x64_" + t, [max(1, o // 64), max(1, B // 128), 1], [256, 1, 1],
                                  B * i * o / 2e7 + 4, regs=128, smem=24576)
    seqs = iter(range(10**6))
    # autograd::engine::evaluate_function: X wraps X, both carrying the forward op's sequence number
    ev = lambda seq, g, *kids: op("autograd::engine::evaluate_function: " + g, None, None,
                                  op(g, None, None, *kids, seq=seq), seq=seq)
    acc = lambda shape: ev(None, "torch::autograd::AccumulateGrad",
                           op("aten::detach", [shape], ["float"], op("detach", [shape], ["float"], self_us=0.7)))
    x = [B, widths[0]]
    fwd = [op("aten::to", [x, [], [], [], []], ["float", "Scalar", "Scalar", "Scalar", ""],
              op("aten::_to_copy", [x, [], [], [], [], [], []], ["float", "Scalar", "", "", "", "Scalar", ""],
                 op("aten::empty_strided", [[], [], [], [], [], []], ["", "", "Scalar", "", "", ""], alloc=act(x[1])),
                 op("aten::copy_", [x, x, []], ["float", "float", "Scalar"],
                    rt("cudaMemcpyAsync", "memcpy", ("Memcpy HtoD (Pinned -> Device)", act(x[1]))))))]
    bwd, opt = [], []
    for i, o in layers:
        s_lin, s_relu, s_drop = next(seqs), next(seqs), next(seqs)
        fwd += [op("aten::linear", [[B, i], [o, i], [o]], ["float", "float", "float"],
                   view_chain([o, i]),
                   op("aten::addmm", [[o], [B, i], [i, o], [], []], ["float", "float", "float", "Scalar", "Scalar"],
                      rt("cudaStreamIsCapturing"), gemm(i, o, "tn"), seq=s_lin, alloc=act(o)),
                   seq=s_lin),
                op("aten::relu", [[B, o]], ["float"],
                   op("aten::clamp_min", [[B, o], []], ["float", "Scalar"], ew("clamp_min_functor", 2, B * o, 2.5)),
                   seq=s_relu),
                op("aten::dropout", [[B, o], [], []], ["float", "Scalar", "Scalar"],
                   op("aten::native_dropout", [[B, o], [], []], ["float", "Scalar", "Scalar"],
                      op("aten::empty_like", [[B, o], [], [], [], [], []], ["float", "", "", "", "", ""],
                         op("aten::empty_strided", [[], [], [], [], [], []], ["", "", "Scalar", "", "", ""], alloc=act(o))),
                      ew("fused_dropout_functor", 3, B * o, 3.0), seq=s_drop), seq=s_drop)]
        # backward runs the layers in reverse: prepend
        bwd[:0] = [ev(s_drop, "NativeDropoutBackward0",
                      op("aten::native_dropout_backward", [[B, o], [B, o], []], ["float", "bool", "Scalar"],
                         ew("MulFunctor<float>", 3, B * o, 2.5))),
                   ev(s_relu, "ReluBackward0",
                      op("aten::threshold_backward", [[B, o], [B, o], []], ["float", "float", "Scalar"],
                         ew("threshold_kernel_impl<float>", 3, B * o, 2.5))),
                   ev(s_lin, "AddmmBackward0",
                      view_chain([i, o]),
                      op("aten::mm", [[B, o], [o, i]], ["float", "float"],
                         rt("cudaStreamIsCapturing"), gemm(o, i, "nn"), alloc=act(i)),
                      view_chain([B, o]),
                      op("aten::mm", [[o, B], [B, i]], ["float", "float"], gemm(B, o * i // B, "nt")),
                      op("aten::sum", [[B, o], [], [], []], ["float", "ScalarList", "Scalar", ""],
                         rt("cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags"),
                         kernel(REDUCE, [max(1, o // 32), 1, 1], [32, 16, 1], 4.0, regs=32, smem=16))),
                   acc([o, i]), acc([o])]
        opt += [op("aten::add_", [[o, i], [o, i], []], ["float", "float", "Scalar"], ew("CUDAFunctor_add<float>", 3, o * i, 6.0)),
                op("aten::add_", [[o], [o], []], ["float", "float", "Scalar"], ew("CUDAFunctor_add<float>", 3, o, 1.5))]
    s_sm, s_nll = next(seqs), next(seqs)
    y, t = [B, classes], [B]
    fwd += [op("aten::cross_entropy_loss", [y, t, [], [], []], ["float", "long", "", "Scalar", "Scalar"],
               op("aten::log_softmax", [y, [], []], ["float", "Scalar", ""],
                  op("aten::_log_softmax", [y, [], []], ["float", "Scalar", "Scalar"],
                     kernel(SOFTMAX % "forward", [B, 1, 1], [1024, 1, 1], 5.0, regs=40, smem=64),
                     seq=s_sm, alloc=act(classes)), seq=s_sm),
               op("aten::nll_loss_nd", [y, t, [], [], []], ["float", "long", "", "Scalar", "Scalar"],
                  op("aten::nll_loss", [y, t, [], [], []], ["float", "long", "", "Scalar", "Scalar"],
                     op("aten::nll_loss_forward", [y, t, [], [], []], ["float", "long", "", "Scalar", "Scalar"],
                        kernel(NLL % "forward", [1, 1, 1], [32, 1, 1], 3.0, regs=30), seq=s_nll),
                     seq=s_nll), seq=s_nll))]
    bwd[:0] = [ev(s_nll, "NllLossBackward0",
                  op("aten::nll_loss_backward", [[], y, t, [], [], [], []], ["float", "float", "long", "", "Scalar", "Scalar", "float"],
                     ew("FillFunctor<float>", 1, B * classes, 1.8), kernel(NLL % "backward", [1, 1, 1], [32, 1, 1], 2.5, regs=30))),
               ev(s_sm, "LogSoftmaxBackward0",
                  op("aten::_log_softmax_backward_data", [y, y, [], []], ["float", "float", "Scalar", "Scalar"],
                     kernel(SOFTMAX % "backward", [B, 1, 1], [1024, 1, 1], 4.0, regs=40)))]
    zeros = [op("aten::zero_", [[o, i]], ["float"],
                op("aten::fill_", [[o, i], []], ["float", "Scalar"], rt("cudaMemsetAsync", "memset", ("Memset (Device)", o * i * 4))))
             for i, o in layers[:2]]
    return ([op("DistributedDataParallel.forward", None, None, *fwd, cat="user_annotation")], bwd,
            [op("Optimizer.step#SGD.step", None, None, *opt, cat="user_annotation"),
             op("Optimizer.zero_grad#SGD.zero_grad", None, None, *zeros, cat="user_annotation")], next(seqs))


# ---------------------------------------------------------------- emission
class Writer:
    def __init__(self, rnd, fh):
        self.rnd, self.fh = rnd, fh
        self.lines, self.gpu = [], []  # CPU-side lines of the step; GPU lines flushed after them
        self.size = 0
        self.first = True
        self.ext = self.corr = self.seq = self.evidx = 0
        self.gpu_t = 0
        self.allocated = 0

    def ts(self, t):
        return "%.3f" % (t / 1000)

    def emit(self, node, tid, t, parent_ext):
        """Writes node (pre-order, so parents precede children) starting after t; returns its end.
        parent_ext is the enclosing op's External id, which runtime calls and their GPU work carry."""
        kind, name, args, children, extra = node
        r = self.rnd.random
        start = t + 200 + int(r() * 1500)
        if kind == "op":
            cat, seq, alloc, self_ns = extra
            self.ext += 1
            self.evidx += 1
            ext = self.ext
            slot = len(self.lines)
            self.lines.append(None)
            cur = start + 100 + int(r() * self_ns)
            if alloc:
                self.allocated += alloc
                self.memory(tid, cur, alloc)
                cur += 50
            for c in children:
                cur = self.emit(c, tid, cur, ext)
            end = cur + 150 + int(r() * self_ns)
            seqs = "" if seq is None else ', "Sequence number": %d, "Fwd thread id": %d' % (
                self.seq + seq, 1 if tid == BWD_TID else 0)
            self.lines[slot] = (
                '{"ph": "X", "cat": "%s", "name": "%s", "pid": %d, "tid": %d, "ts": %s, "dur": %.3f, '
                '"args": {"External id": %d%s, "Ev Idx": %d%s}}' % (
                    cat, name, CPU_PID, tid, self.ts(start), (end - start) / 1000, ext, seqs, self.evidx, args))
            return end
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
        self.gpu.append('{"ph": "X", "cat": "%s", "name": "%s", "pid": %d, "tid": %d, "ts": %s, "dur": %.3f, '
                        '"args": {"External id": %d, "correlation": %d%s}}' % (
                            cat, kname, GPU_PID, STREAM, self.ts(g0), (g1 - g0) / 1000, parent_ext, c, gargs))
        self.gpu.append('{"ph": "f", "id": %d, "pid": %d, "tid": %d, "ts": %s, "cat": "ac2g", "name": "ac2g", "bp": "e"}'
                        % (c, GPU_PID, STREAM, self.ts(g0)))
        return end

    def memory(self, tid, t, nbytes):
        self.evidx += 1
        self.lines.append(
            '{"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": %d, "tid": %d, "ts": %s, '
            '"args": {"Total Reserved": %d, "Total Allocated": %d, "Bytes": %d, "Device Id": 0, "Device Type": 1, '
            '"Addr": %d, "Ev Idx": %d}}' % (CPU_PID, tid, self.ts(t), 1 << 34, self.allocated, nbytes,
                                            0x7f3a00000000 + (self.evidx << 12), self.evidx))

    def step(self, n, fwd, bwd, opt, nseq, t):
        """One ProfilerStep: forward, then backward on the autograd thread, then optimizer."""
        self.lines.append(None)
        slot, self.ext, self.evidx = len(self.lines) - 1, self.ext + 1, self.evidx + 1
        ext, evidx, start = self.ext, self.evidx, t
        cur = t + 1000
        for node in fwd:
            cur = self.emit(node, MAIN_TID, cur, ext)
        for node in bwd:
            cur = self.emit(node, BWD_TID, cur, ext)
        for node in opt:
            cur = self.emit(node, MAIN_TID, cur, ext)
        # activations freed at the end of the step: negative Bytes, as the caching allocator reports
        freed, self.allocated = self.allocated, 0
        self.memory(MAIN_TID, cur + 100, -freed)
        self.seq += nseq
        end = max(cur, self.gpu_t) + 2000
        self.lines[slot] = ('{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d", "pid": %d, "tid": %d, '
                            '"ts": %s, "dur": %.3f, "args": {"External id": %d, "Ev Idx": %d}}' % (
                                n, CPU_PID, MAIN_TID, self.ts(start), (end - start) / 1000, ext, evidx))
        self.lines += self.gpu
        self.gpu = []
        return end + 5000

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


def generate(path, size_mb, seed):
    rnd = random.Random(seed)
    tree = build_step(rnd)
    target = int(size_mb * 1e6)
    opener = (lambda p: gzip.GzipFile(p, "wb", compresslevel=1, mtime=0)) if path.endswith(".gz") else (lambda p: open(p, "wb"))
    with opener(path) as fh:
        w = Writer(rnd, fh)
        dev = ('{"id": %d, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 84990623744, "computeMajor": 8, '
               '"computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048, '
               '"regsPerBlock": 65536, "regsPerMultiprocessor": 65536, "warpSize": 32, "sharedMemPerBlock": 49152, '
               '"sharedMemPerMultiprocessor": 167936, "numSms": 108, "sharedMemPerBlockOptin": 166912}')
        w.write('{\n  "schemaVersion": 1,\n  "deviceProperties": [\n    %s\n  ],\n'
                '  "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 8, "pg_count": 1},\n'
                '  "traceEvents": [' % ",\n    ".join(dev % i for i in range(8)))
        t, n = BASE_NS + rnd.randrange(10**9), 1
        tail = 2000  # bytes left for the metadata and closing text
        while w.size + sum(map(len, w.lines)) < target - tail:
            t = w.step(n, *tree, t)
            n += 1
            w.flush()
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
        w.flush(final=True)
        w.write('\n  ],\n  "traceName": "rank0.%d.pt.trace.json"\n}\n' % seed)
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
    ap.add_argument("-o", "--output")
    ap.add_argument("--stats", nargs="+", metavar="FILE")
    a = ap.parse_args()
    if a.stats:
        print_stats(a.stats)
    elif a.output:
        size, steps = generate(a.output, a.size_mb, a.seed)
        print("%s: %d bytes of JSON, %d steps" % (a.output, size, steps), file=sys.stderr)
    else:
        ap.error("need -o FILE or --stats FILE...")


if __name__ == "__main__":
    main()
