#!/usr/bin/env python3
"""Records live PyTorch 2.x GPU profiling sessions with PyTorch's own answers beside each trace.

  python3 scripts/record_live_oracle.py OUTDIR [--only NAME ...] [--time-budget SECONDS]

Needs a machine with a CUDA GPU and PyTorch (the files in testdata/live/ were made with it).
For every session it runs a small real workload under torch.profiler.profile and writes, into
OUTDIR/<workload>/<config>/:

  trace.json.gz               prof.export_chrome_trace(), exactly as PyTorch wrote it (gzipped)
  table_*.txt                 prof.key_averages(...).table(...) from the live profiler object
  stacks_<metric>.txt         prof.export_stacks(path, metric), for sessions with stacks
  optimizable.txt             BasicEvaluation(prof.profiler).get_optimizable_events(5) (printed)
  basic_evaluation.json.gz    BasicEvaluation's per-event metrics and queue depth list
  memory_timeline.json        prof.export_memory_timeline(path, "cuda:0"), where it applies
  key_averages.json           key_averages() rows (default, by input shape) with repr() floats
  events.json.gz              the FunctionEvent list after PyTorch built its tree
  kineto_events.json.gz       prof.profiler.kineto_results.events(): ids, links, threads, devices
  meta.json                   versions, GPU, workload parameters, flags, the call behind each file

A failure in one output is written to <file>.error (the traceback) instead; a failed session
leaves session.error. Nothing here is used by the build or the tests: they read what it wrote.
"""
import argparse
import contextlib
import gzip
import io
import json
import os
import shutil
import sys
import threading
import time
import traceback

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile, record_function, schedule

GENERATOR_VERSION = 1

TABLES = [
    # file, key_averages kwargs (None: the raw FunctionEvent list), table kwargs, condition
    ("table_default.txt", {}, {}, None),
    ("table_self_cpu.txt", {}, {"sort_by": "self_cpu_time_total", "row_limit": -1}, None),
    ("table_cpu_total_top10.txt", {}, {"sort_by": "cpu_time_total", "row_limit": 10}, None),
    ("table_count_top15.txt", {}, {"sort_by": "count", "row_limit": 15}, None),
    ("table_self_cuda.txt", {}, {"sort_by": "self_cuda_time_total", "row_limit": -1}, None),
    ("table_cuda_total_top20.txt", {}, {"sort_by": "cuda_time_total", "row_limit": 20}, None),
    ("table_by_input_shape.txt", {"group_by_input_shape": True},
     {"sort_by": "cpu_time_total", "row_limit": -1}, "shapes"),
    ("table_by_stack_n5.txt", {"group_by_stack_n": 5},
     {"sort_by": "self_cpu_time_total", "row_limit": -1}, "stack"),
    ("table_top_level.txt", {}, {"sort_by": "cpu_time_total", "row_limit": -1,
                                 "top_level_events_only": True}, None),
    ("table_self_cpu_mem.txt", {}, {"sort_by": "self_cpu_memory_usage", "row_limit": -1},
     "memory"),
    ("table_self_cuda_mem.txt", {}, {"sort_by": "self_cuda_memory_usage", "row_limit": -1},
     "memory"),
    ("table_raw_events_top25.txt", None, {"sort_by": "self_cpu_time_total", "row_limit": 25},
     None),
]

# name -> (record_shapes, profile_memory, with_stack, verbose experimental config)
CONFIGS = {
    "plain": (False, False, False, False),
    "all": (True, True, True, False),
    "verbose": (True, False, True, True),
    "memory": (False, True, False, False),
}

DEV = None


def seed_all(seed):
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)


class MLPTrain:
    """MLP training with SGD + momentum under schedule(wait=1, warmup=1, active=2)."""
    sched = (1, 1, 2)

    def params(self):
        return {"dims": [256, 512, 512, 10], "batch": 64, "iters": 5, "optimizer": "sgd"}

    def setup(self):
        seed_all(1)
        self.model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                                   nn.Linear(512, 10)).to(DEV)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.01, momentum=0.9)
        self.x = torch.randn(64, 256, device=DEV)
        self.y = torch.randint(0, 10, (64,), device=DEV)

    def iteration(self):
        self.opt.zero_grad()
        loss = F.cross_entropy(self.model(self.x), self.y)
        loss.backward()
        self.opt.step()

    def run(self, step):
        for _ in range(5):
            self.iteration()
            step()


class CNNTrain:
    """Conv-BN-ReLU network with a residual add, Adam, two iterations (cuDNN kernels)."""
    sched = None

    def params(self):
        return {"chans": [3, 32, 64], "hw": 32, "batch": 8, "iters": 2, "optimizer": "adam"}

    def setup(self):
        seed_all(3)
        self.conv1 = nn.Conv2d(3, 32, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(32)
        self.conv2 = nn.Conv2d(32, 64, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(64)
        self.skip = nn.Conv2d(32, 64, 1)
        self.fc = nn.Linear(64, 10)
        self.mods = nn.ModuleList([self.conv1, self.bn1, self.conv2, self.bn2, self.skip,
                                   self.fc]).to(DEV)
        self.opt = torch.optim.Adam(self.mods.parameters(), lr=1e-3)
        self.x = torch.randn(8, 3, 32, 32, device=DEV)
        self.y = torch.randint(0, 10, (8,), device=DEV)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        h = F.max_pool2d(h, 2)
        h = F.relu(self.bn2(self.conv2(h)) + self.skip(h))
        return self.fc(F.adaptive_avg_pool2d(h, 1).flatten(1))

    def iteration(self):
        self.opt.zero_grad(set_to_none=True)
        F.cross_entropy(self.forward(self.x), self.y).backward()
        self.opt.step()

    def run(self, step):
        for _ in range(2):
            self.iteration()
            step()


class TransformerTrain:
    """One TransformerEncoderLayer (dropout on) with AdamW: forward, backward, step."""
    sched = None

    def params(self):
        return {"d_model": 128, "nhead": 4, "ff": 256, "seq": 64, "batch": 8, "iters": 2}

    def setup(self):
        seed_all(5)
        self.layer = nn.TransformerEncoderLayer(128, 4, 256, dropout=0.1, batch_first=True).to(DEV)
        self.layer.train()
        self.opt = torch.optim.AdamW(self.layer.parameters(), lr=1e-3)
        self.x = torch.randn(8, 64, 128, device=DEV)

    def iteration(self):
        self.opt.zero_grad(set_to_none=True)
        self.layer(self.x).pow(2).mean().backward()
        self.opt.step()

    def run(self, step):
        for _ in range(2):
            self.iteration()
            step()


class MultiStream:
    """Matrix products on two side streams ordered by CUDA events, pinned and pageable copies
    both ways, a memset, a host wait on an event and a device synchronize."""
    sched = None

    def params(self):
        return {"n": 1024, "iters": 2}

    def setup(self):
        seed_all(7)
        self.s1 = torch.cuda.Stream()
        self.s2 = torch.cuda.Stream()
        self.a = torch.randn(1024, 1024, device=DEV)
        self.b = torch.randn(1024, 1024, device=DEV)
        self.host_pinned = torch.randn(1024, 1024).pin_memory()
        self.host_pageable = torch.randn(256, 1024)

    def iteration(self):
        with record_function("upload"):
            up = self.host_pinned.to(DEV, non_blocking=True)
            up2 = self.host_pageable.to(DEV)
        done = torch.cuda.Event()
        with torch.cuda.stream(self.s1):
            self.s1.wait_stream(torch.cuda.current_stream())
            x = self.a @ up
            x = torch.relu(x)
            done.record(self.s1)
        with torch.cuda.stream(self.s2):
            y = self.b @ self.b
            y.zero_()
        torch.cuda.current_stream().wait_event(done)
        z = x + up2.sum()
        done.synchronize()
        with record_function("download"):
            z.cpu()
        torch.cuda.synchronize()

    def run(self, step):
        for _ in range(2):
            self.iteration()
            step()


class CudaGraph:
    """A captured CUDA graph of an MLP forward, replayed three times, beside eager ops."""
    sched = None

    def params(self):
        return {"dims": [512, 1024, 512], "batch": 128, "replays": 3}

    def setup(self):
        seed_all(9)
        self.model = nn.Sequential(nn.Linear(512, 1024), nn.GELU(), nn.Linear(1024, 512)).to(DEV)
        self.static_in = torch.randn(128, 512, device=DEV)
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s), torch.no_grad():
            for _ in range(3):
                self.model(self.static_in)
        torch.cuda.current_stream().wait_stream(s)
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph), torch.no_grad():
            self.static_out = self.model(self.static_in)

    def iteration(self):
        self.static_in.copy_(torch.randn(128, 512, device=DEV))
        self.graph.replay()
        self.static_out.sum().item()

    def run(self, step):
        for _ in range(3):
            self.iteration()
            step()


class Threads:
    """Ops on the main thread and on a second Python thread at once (a data-loader-like worker
    doing its own GPU work), plus backward on PyTorch's autograd device thread."""
    sched = None

    def params(self):
        return {"n": 512, "iters": 2}

    def setup(self):
        seed_all(11)
        self.w = torch.randn(512, 512, device=DEV, requires_grad=True)
        self.x = torch.randn(512, 512, device=DEV)

    def worker(self):
        with record_function("worker_batch"):
            t = torch.randn(512, 512, device=DEV)
            (t @ t).softmax(dim=1).sum().item()

    def iteration(self):
        t = threading.Thread(target=self.worker)
        t.start()
        with record_function("main_step"):
            loss = torch.tanh(self.x @ self.w).sum()
            loss.backward()
        t.join()
        torch.cuda.synchronize()

    def run(self, step):
        for _ in range(2):
            self.iteration()
            step()


class Compiled:
    """torch.compile'd MLP (Triton kernels launched outside aten ops), compiled before
    profiling, two training iterations."""
    sched = None

    def params(self):
        return {"dims": [256, 512, 256], "batch": 64, "iters": 2, "compile": "default"}

    def setup(self):
        seed_all(13)
        self.model = nn.Sequential(nn.Linear(256, 512), nn.GELU(), nn.LayerNorm(512),
                                   nn.Linear(512, 256)).to(DEV)
        self.cmodel = torch.compile(self.model)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.01)
        self.x = torch.randn(64, 256, device=DEV)

    def iteration(self):
        self.opt.zero_grad(set_to_none=True)
        self.cmodel(self.x).pow(2).mean().backward()
        self.opt.step()

    def run(self, step):
        for _ in range(2):
            self.iteration()
            step()


class NcclSingleRank:
    """torch.distributed with NCCL on one rank (world size 1): all_reduce, broadcast, all_gather,
    reduce_scatter, then a DistributedDataParallel training step (its bucketed all_reduce)."""
    sched = None

    def params(self):
        return {"world_size": 1, "backend": "nccl", "n": 1 << 20, "iters": 2}

    def setup(self):
        import torch.distributed as dist
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", "29511")
        if not dist.is_initialized():
            dist.init_process_group("nccl", rank=0, world_size=1,
                                    device_id=torch.device("cuda", 0))
        self.dist = dist
        seed_all(17)
        self.t = torch.randn(1 << 20, device=DEV)
        self.out = torch.empty(1 << 20, device=DEV)
        model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 10)).to(DEV)
        self.ddp = nn.parallel.DistributedDataParallel(model)
        self.opt = torch.optim.SGD(self.ddp.parameters(), lr=0.01)
        self.x = torch.randn(32, 256, device=DEV)

    def iteration(self):
        d = self.dist
        d.all_reduce(self.t)
        d.broadcast(self.t, src=0)
        d.all_gather_into_tensor(self.out, self.t)
        d.reduce_scatter_tensor(self.t, self.out)
        self.opt.zero_grad(set_to_none=True)
        self.ddp(self.x).sum().backward()
        self.opt.step()
        torch.cuda.synchronize()

    def run(self, step):
        for _ in range(2):
            self.iteration()
            step()


class ResNetAmp:
    """torchvision ResNet-18 under autocast(bfloat16) with channels_last: forward, backward, SGD."""
    sched = None

    def params(self):
        return {"model": "resnet18", "batch": 16, "hw": 64, "dtype": "bfloat16", "iters": 2}

    def setup(self):
        import torchvision
        seed_all(19)
        self.model = torchvision.models.resnet18(num_classes=10).to(DEV).to(
            memory_format=torch.channels_last)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.01, momentum=0.9)
        self.x = torch.randn(16, 3, 64, 64, device=DEV).to(memory_format=torch.channels_last)
        self.y = torch.randint(0, 10, (16,), device=DEV)

    def iteration(self):
        self.opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = F.cross_entropy(self.model(self.x), self.y)
        loss.backward()
        self.opt.step()

    def run(self, step):
        for _ in range(2):
            self.iteration()
            step()


class PinMemoryLoader:
    """A DataLoader with pin_memory=True: its pin-memory thread makes CUDA calls no op links,
    while the main thread copies the batches to the GPU and trains."""
    sched = None

    def params(self):
        return {"batches": 3, "batch": 64, "features": 512, "pin_memory": True}

    def setup(self):
        seed_all(23)
        ds = torch.utils.data.TensorDataset(torch.randn(192, 512), torch.randint(0, 10, (192,)))
        self.loader = torch.utils.data.DataLoader(ds, batch_size=64, pin_memory=True)
        self.model = nn.Sequential(nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 10)).to(DEV)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.01)

    def iteration(self):
        for x, y in self.loader:
            x, y = x.to(DEV, non_blocking=True), y.to(DEV, non_blocking=True)
            self.opt.zero_grad(set_to_none=True)
            F.cross_entropy(self.model(x), y).backward()
            self.opt.step()
        torch.cuda.synchronize()

    def run(self, step):
        self.iteration()
        step()


class GPTTrain:
    """Three training steps of scripts/record_big_trace.py's GPT-style language model (AdamW,
    bf16 autocast, a pinned non-blocking upload, gradient clipping, an LR schedule, loss.item()
    each step)."""
    sched = None

    def params(self):
        from record_big_trace import PARAMS  # it imports this file: not at the top
        return dict(PARAMS, iters=3)

    def setup(self):
        from record_big_trace import Trainer
        self.trainer = Trainer(DEV)

    def iteration(self):
        self.trainer.step()

    def run(self, step):
        for _ in range(3):
            self.iteration()
            step()


WORKLOADS = {
    # name: (factory, configs)
    "mlp_train": (MLPTrain, ["plain", "all", "verbose"]),
    "cnn_train": (CNNTrain, ["plain", "all"]),
    "transformer_train": (TransformerTrain, ["all"]),
    "multistream": (MultiStream, ["plain"]),
    "cuda_graph": (CudaGraph, ["plain"]),
    "threads": (Threads, ["plain"]),
    "compiled": (Compiled, ["plain"]),
    "nccl_single_rank": (NcclSingleRank, ["plain"]),
    "resnet18_amp": (ResNetAmp, ["plain", "verbose"]),
    "pin_memory_loader": (PinMemoryLoader, ["plain"]),
    "cnn_memory": (CNNTrain, ["memory"]),
    "gpt_train": (GPTTrain, ["all", "verbose"]),
}


def warm_up(wl):
    """One untimed pass: CUDA context, cuDNN/cuBLAS handles, lazy init, compilation."""
    if hasattr(wl, "iteration"):
        for _ in range(2):
            wl.iteration()
    torch.cuda.synchronize()


def run_session(wl, cfg):
    shapes, memory, stack, verbose = CONFIGS[cfg]
    kw = dict(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=shapes,
              profile_memory=memory, with_stack=stack)
    if verbose:
        kw["experimental_config"] = torch._C._profiler._ExperimentalConfig(verbose=True)
    if wl.sched is not None:
        w, wu, a = wl.sched
        kw["schedule"] = schedule(wait=w, warmup=wu, active=a, repeat=1)
    with profile(**kw) as p:
        wl.run(p.step)
        torch.cuda.synchronize()
    return p


def attempt(path, fn):
    """Runs fn() -> text, writes it to path; a failure writes path + '.error' instead."""
    try:
        text = fn()
        if text is not None:
            with open(path, "w") as f:
                f.write(text)
        return True
    except Exception:
        with open(path + ".error", "w") as f:
            f.write(traceback.format_exc())
        return False


def num(x):
    return repr(x) if isinstance(x, float) else x


def attr(e, *names):
    for n in names:
        if hasattr(e, n):
            try:
                return getattr(e, n)
            except Exception:
                pass
    return None


def fe_dict(idx, e, index_of):
    kernels = [[k.name, k.device, num(k.duration)] for k in getattr(e, "kernels", [])]
    return {
        "idx": idx, "id": e.id, "name": e.name, "trace_name": e.trace_name, "thread": e.thread,
        "start_us": num(e.time_range.start), "end_us": num(e.time_range.end),
        "cpu_parent": index_of.get(id(e.cpu_parent)) if e.cpu_parent is not None else None,
        "cpu_children": [index_of[id(c)] for c in e.cpu_children if id(c) in index_of],
        "is_async": e.is_async, "scope": e.scope, "sequence_nr": e.sequence_nr,
        "fwd_thread": e.fwd_thread, "node_id": e.node_id, "device_type": str(e.device_type),
        "device_index": e.device_index, "is_legacy": e.is_legacy,
        "input_shapes": e.input_shapes, "stack": e.stack,
        "cpu_memory_usage": e.cpu_memory_usage, "self_cpu_memory_usage": e.self_cpu_memory_usage,
        "device_memory_usage": attr(e, "device_memory_usage", "cuda_memory_usage"),
        "self_device_memory_usage": attr(e, "self_device_memory_usage", "self_cuda_memory_usage"),
        "cpu_time_total": num(e.cpu_time_total), "self_cpu_time_total": num(e.self_cpu_time_total),
        "device_time_total": num(attr(e, "device_time_total", "cuda_time_total")),
        "self_device_time_total": num(attr(e, "self_device_time_total", "self_cuda_time_total")),
        "kernels": kernels,
    }


def avg_dict(i, a):
    return {
        "order": i, "key": a.key, "count": a.count,
        "cpu_time_total": num(a.cpu_time_total), "self_cpu_time_total": num(a.self_cpu_time_total),
        "device_time_total": num(attr(a, "device_time_total", "cuda_time_total")),
        "self_device_time_total": num(attr(a, "self_device_time_total", "self_cuda_time_total")),
        "cpu_memory_usage": a.cpu_memory_usage, "self_cpu_memory_usage": a.self_cpu_memory_usage,
        "device_memory_usage": attr(a, "device_memory_usage", "cuda_memory_usage"),
        "self_device_memory_usage": attr(a, "self_device_memory_usage", "self_cuda_memory_usage"),
        "input_shapes": a.input_shapes, "is_async": a.is_async, "node_id": a.node_id,
        "device_type": str(a.device_type), "top_level": a.cpu_parent is None,
    }


def columnar(rows):
    fields = list(rows[0].keys()) if rows else []
    return {"fields": fields, "rows": [[r[f] for f in fields] for r in rows]}


def dump(path, obj):
    data = (json.dumps(obj, separators=(",", ":"), default=str) + "\n").encode()
    if path.endswith(".gz"):
        with open(path, "wb") as f:
            f.write(gzip.compress(data, compresslevel=9, mtime=0))
    else:
        with open(path, "wb") as f:
            f.write(data)


def basic_evaluation(p, d):
    from torch.profiler._utils import BasicEvaluation
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        ev = BasicEvaluation(p.profiler)
        ranked = ev.get_optimizable_events(length=5, print_enable=True)
    with open(os.path.join(d, "optimizable.txt"), "w") as f:
        f.write(buf.getvalue())
    metrics = []
    for key, m in ev.metrics.items():
        e = key.event
        metrics.append({"name": e.name, "id": getattr(e, "id", None),
                        "start_ns": attr(e, "start_time_ns"), "end_ns": attr(e, "end_time_ns"),
                        "self_time_ns": m.self_time_ns, "idle_time_ns": m.idle_time_ns,
                        "queue_depth": m.queue_depth,
                        "fraction_idle_time": num(m.fraction_idle_time)})
    qd = [[q.start, q.end, q.queue_depth] for q in getattr(ev, "queue_depth_list", [])]
    dump(os.path.join(d, "basic_evaluation.json.gz"),
         {"metrics": columnar(metrics), "queue_depth_list": qd,
          "ranked": [e.name for e in ranked] if ranked else []})
    return None


def emit(outdir, wl_name, factory, cfg):
    shapes, memory, stack, verbose = CONFIGS[cfg]
    d = os.path.join(outdir, wl_name, cfg)
    os.makedirs(d, exist_ok=True)
    wl = factory()
    wl.setup()
    warm_up(wl)
    t0 = time.time()
    p = run_session(wl, cfg)
    calls = {}
    raw = os.path.join(d, "trace.json")
    p.export_chrome_trace(raw)
    with open(raw, "rb") as f:
        data = f.read()
    with open(raw + ".gz", "wb") as f:
        f.write(gzip.compress(data, compresslevel=9, mtime=0))
    os.remove(raw)
    calls["trace.json.gz"] = "prof.export_chrome_trace(path), then gzip -9"
    cond_ok = {None: True, "shapes": shapes, "memory": memory, "stack": stack}
    fevents = p.profiler.function_events
    for fname, ka_kw, tb_kw, cond in TABLES:
        if not cond_ok[cond]:
            continue
        if ka_kw is None:
            fn = (lambda kw=tb_kw: fevents.table(**kw))
            calls[fname] = f"prof.profiler.function_events.table({fmt_kw(tb_kw)})"
        else:
            fn = (lambda ka=ka_kw, kw=tb_kw: p.key_averages(**ka).table(**kw))
            calls[fname] = f"prof.key_averages({fmt_kw(ka_kw)}).table({fmt_kw(tb_kw)})"
        attempt(os.path.join(d, fname), fn)
    if stack:
        for metric in ("self_cpu_time_total", "self_cuda_time_total"):
            fname = f"stacks_{metric}.txt"
            path = os.path.join(d, fname)
            attempt(path, lambda m=metric, pth=path: p.export_stacks(pth, m))
            calls[fname] = f'prof.export_stacks(path, "{metric}")'
    attempt(os.path.join(d, "optimizable.txt"), lambda: basic_evaluation(p, d))
    calls["optimizable.txt"] = ("BasicEvaluation(prof.profiler).get_optimizable_events("
                                "length=5, print_enable=True), stdout")
    if shapes and memory and stack:
        path = os.path.join(d, "memory_timeline.json")
        attempt(path, lambda: p.export_memory_timeline(path, device="cuda:0"))
        calls["memory_timeline.json"] = 'prof.export_memory_timeline(path, device="cuda:0")'
        rpath = os.path.join(d, "memory_timeline.raw.json.gz")
        attempt(rpath, lambda: p.export_memory_timeline(rpath, device="cuda:0"))
        calls["memory_timeline.raw.json.gz"] = 'prof.export_memory_timeline(path, device="cuda:0")'

    def key_averages():
        ka = {"default": [avg_dict(i, a) for i, a in enumerate(p.key_averages())]}
        if shapes:
            ka["by_input_shape"] = [avg_dict(i, a) for i, a in
                                    enumerate(p.key_averages(group_by_input_shape=True))]
        dump(os.path.join(d, "key_averages.json"), {k: columnar(v) for k, v in ka.items()})
    attempt(os.path.join(d, "key_averages.json"), key_averages)

    def events():
        index_of = {id(e): i for i, e in enumerate(fevents)}
        evs = [fe_dict(i, e, index_of) for i, e in enumerate(fevents)]
        dump(os.path.join(d, "events.json.gz"), {"events": columnar(evs),
                                                  "self_cpu_time_total": num(fevents.self_cpu_time_total)})
    attempt(os.path.join(d, "events.json.gz"), events)

    def kineto_events():
        rows = []
        fields = ["name", "start_ns", "end_ns", "correlation_id", "linked_correlation_id",
                  "start_thread_id", "end_thread_id", "device_type", "device_index",
                  "device_resource_id", "is_async", "sequence_nr", "fwd_thread_id", "scope",
                  "is_user_annotation"]

        def call(k, f):
            try:
                v = getattr(k, f)()
                return v if isinstance(v, (int, float, str, bool)) else str(v)
            except Exception:
                return None
        for k in p.profiler.kineto_results.events():
            rows.append({f: call(k, f) for f in fields})
        dump(os.path.join(d, "kineto_events.json.gz"), {"events": columnar(rows)})
    attempt(os.path.join(d, "kineto_events.json.gz"), kineto_events)
    props = torch.cuda.get_device_properties(0)
    meta = {
        "generator_version": GENERATOR_VERSION, "workload": wl_name,
        "workload_class": type(wl).__name__, "workload_doc": type(wl).__doc__,
        "workload_params": wl.params(), "config": cfg,
        "profiler": "torch.profiler.profile(activities=[CPU, CUDA])",
        "record_shapes": shapes, "profile_memory": memory, "with_stack": stack,
        "experimental_verbose": verbose, "schedule": wl.sched,
        "torch_version": torch.__version__, "cuda_version": torch.version.cuda,
        "cudnn_version": torch.backends.cudnn.version(), "python": sys.version.split()[0],
        "gpu": props.name, "num_function_events": len(fevents),
        "profiled_seconds": round(time.time() - t0, 3), "calls": calls,
    }
    dump(os.path.join(d, "meta.json"), meta)
    return meta


def fmt_kw(kw):
    return ", ".join(f"{k}={v!r}" for k, v in kw.items())


def main():
    global DEV
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--only", action="append")
    ap.add_argument("--time-budget", type=float, default=1e9,
                    help="start no new session after this many seconds")
    a = ap.parse_args()
    DEV = torch.device("cuda")
    torch.backends.cudnn.benchmark = False
    start = time.time()
    os.makedirs(a.outdir, exist_ok=True)
    index = []
    for name, (factory, cfgs) in WORKLOADS.items():
        if a.only and name not in a.only:
            continue
        for cfg in cfgs:
            if time.time() - start > a.time_budget:
                print(f"{name}/{cfg}: skipped (time budget)", flush=True)
                continue
            try:
                meta = emit(a.outdir, name, factory, cfg)
                index.append({"session": f"{name}/{cfg}", "events": meta["num_function_events"]})
                print(f"{name}/{cfg}: {meta['num_function_events']} events, "
                      f"{time.time() - start:.0f}s", flush=True)
            except Exception:
                d = os.path.join(a.outdir, name, cfg)
                os.makedirs(d, exist_ok=True)
                with open(os.path.join(d, "session.error"), "w") as f:
                    f.write(traceback.format_exc())
                print(f"{name}/{cfg}: FAILED\n{traceback.format_exc()}", flush=True)
    dump(os.path.join(a.outdir, "index.json"),
         {"torch_version": torch.__version__, "sessions": index})


if __name__ == "__main__":
    main()
