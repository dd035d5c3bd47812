#!/usr/bin/env python3
"""Records one large, real PyTorch GPU profiling session with PyTorch's own answers beside it.

  python3 scripts/record_big_trace.py OUTDIR [--steps N] [--target-mb MB] [--time-budget S]

Needs a machine with a CUDA GPU and PyTorch. The workload is a small GPT-style language model
(token + position embeddings, nn.TransformerEncoder with a causal mask, d_model 512, 6 layers,
tied LM head) trained with AdamW under bf16 autocast, plus the host-side work of a real loop:
batches made on the CPU and pinned, non-blocking uploads, gradient clipping, an LR schedule
and a loss.item() per step. It is profiled with

  torch.profiler.profile(activities=[CPU, CUDA], record_shapes=True, profile_memory=True,
                         with_stack=True)

(no schedule: every step is recorded), the configuration whose traces get big in practice,
rich in python_function events and [memory] instant events. With --steps 0 (the default) a
short pilot session measures the trace bytes per step and the gzip ratio first, and the main
session takes as many steps as give about --target-mb MB of trace (fewer if the gzipped trace
would not stay under 15 MiB, or the steps would not fit the time budget).

Writes into OUTDIR:

  trace.json.gz        prof.export_chrome_trace(path), exactly as PyTorch wrote it, gzip -6
                       (split into trace.json.gz.partN when the file exceeds 15.5 MiB)
  table_self_cpu.txt   prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=-1)
  table_self_cuda.txt  prof.key_averages().table(sort_by="self_cuda_time_total", row_limit=-1)
  meta.json            versions, GPU, workload, flags, sizes, event counts and the wall seconds
                       PyTorch took for stop(), export_chrome_trace(), events() (its lazy
                       post-processing of the Kineto results), key_averages() and each table()

A failure in one output is written to <file>.error (the traceback) instead. Nothing here is used
by the build or the tests.
"""
import argparse
import collections
import gzip
import json
import math
import os
import shutil
import sys
import tempfile
import time
import traceback

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile

from record_live_oracle import attempt as write_or_error

GENERATOR_VERSION = 1
FLAGS = {"record_shapes": True, "profile_memory": True, "with_stack": True}
GZ_LIMIT = int(15 * 1024 * 1024)  # aim the gzipped trace under this
PART_SIZE = int(15.5 * 1024 * 1024)  # split a gzipped trace bigger than this into parts

PARAMS = {"vocab": 8192, "d_model": 512, "nhead": 8, "ff": 2048, "layers": 6, "batch": 16,
          "seq": 256, "dropout": 0.1, "optimizer": "AdamW(lr=3e-4, weight_decay=0.1)",
          "autocast": "bfloat16", "clip_grad_norm": 1.0, "lr_schedule": "warmup 10 + cosine"}


class GPT(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.tok_emb = nn.Embedding(p["vocab"], p["d_model"])
        self.pos_emb = nn.Embedding(p["seq"], p["d_model"])
        self.drop = nn.Dropout(p["dropout"])
        layer = nn.TransformerEncoderLayer(p["d_model"], p["nhead"], p["ff"], dropout=p["dropout"],
                                           activation="gelu", batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, p["layers"], norm=nn.LayerNorm(p["d_model"]),
                                            enable_nested_tensor=False)
        self.head = nn.Linear(p["d_model"], p["vocab"], bias=False)
        self.head.weight = self.tok_emb.weight
        self.register_buffer("mask", nn.Transformer.generate_square_subsequent_mask(p["seq"]),
                             persistent=False)

    def forward(self, idx):
        s = idx.shape[1]
        pos = torch.arange(s, device=idx.device)
        x = self.drop(self.tok_emb(idx) + self.pos_emb(pos))
        x = self.blocks(x, mask=self.mask[:s, :s], is_causal=True)
        return self.head(x)


class Trainer:
    def __init__(self, dev):
        torch.manual_seed(11)
        torch.cuda.manual_seed_all(11)
        p = PARAMS
        self.dev = dev
        self.model = GPT(p).to(dev)
        self.model.train()
        decay = [w for n, w in self.model.named_parameters() if w.dim() >= 2]
        no_decay = [w for n, w in self.model.named_parameters() if w.dim() < 2]
        self.opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1},
                                      {"params": no_decay, "weight_decay": 0.0}], lr=3e-4)

        def lr_at(step, warm=10, total=1000):
            if step < warm:
                return (step + 1) / warm
            return 0.5 * (1 + math.cos(math.pi * min(1.0, (step - warm) / (total - warm))))
        self.sched = torch.optim.lr_scheduler.LambdaLR(self.opt, lr_at)
        self.gen = torch.Generator().manual_seed(13)
        self.losses = []

    def batch(self):
        """Host-side batch: random tokens with a little structure, pinned, uploaded async."""
        b, s, v = PARAMS["batch"], PARAMS["seq"], PARAMS["vocab"]
        tok = torch.randint(0, v, (b, s + 1), generator=self.gen)
        tok[:, 1::2] = (tok[:, 0:-1:2] * 7 + 3) % v
        tok = tok.pin_memory()
        tok = tok.to(self.dev, non_blocking=True)
        return tok[:, :-1], tok[:, 1:]

    def step(self):
        x, y = self.batch()
        self.opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            logits = self.model(x)
            loss = F.cross_entropy(logits.float().view(-1, logits.size(-1)), y.reshape(-1))
        loss.backward()
        gnorm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), PARAMS["clip_grad_norm"])
        self.opt.step()
        self.sched.step()
        with torch.no_grad():
            acc = (logits.argmax(-1) == y).float().mean()
        # logging, as a real loop does: forces a device sync every step
        self.losses.append((loss.item(), float(gnorm), acc.item()))


def session(tr, steps, deadline):
    """Profiles `steps` steps (fewer if the deadline passes); returns the profiler, the steps
    done, and the wall seconds of the steps and of stop()."""
    p = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], **FLAGS)
    p.start()
    t0 = time.perf_counter()
    done = 0
    for _ in range(steps):
        tr.step()
        done += 1
        if time.perf_counter() > deadline:
            print(f"  deadline reached after {done} steps", flush=True)
            break
    torch.cuda.synchronize()
    t1 = time.perf_counter()
    p.stop()
    t2 = time.perf_counter()
    return p, done, t1 - t0, t2 - t1


def attempt(path, fn):
    """record_live_oracle.attempt (fn() -> text written to path, or the traceback to
    path + '.error'), saying so on a failure."""
    ok = write_or_error(path, fn)
    if not ok:
        print(f"  {os.path.basename(path)}: FAILED (see {os.path.basename(path)}.error)", flush=True)
    return ok


def timed(fn):
    t = time.perf_counter()
    r = fn()
    return r, round(time.perf_counter() - t, 3)


def stats_of(p):
    """The profiler's own timing counters, where this PyTorch version keeps them."""
    st = getattr(p.profiler, "_stats", None)
    if st is None:
        return None
    try:
        return {k: v for k, v in vars(st).items() if isinstance(v, (int, float, str, bool))}
    except TypeError:
        return str(st)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--steps", type=int, default=0, help="profiled steps; 0: choose by a pilot")
    ap.add_argument("--target-mb", type=float, default=160.0,
                    help="uncompressed trace size the pilot aims for (MB, 1e6 bytes)")
    ap.add_argument("--pilot-steps", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--time-budget", type=float, default=90.0,
                    help="stop taking profiled steps after this many seconds of the main session")
    a = ap.parse_args()
    start = time.time()
    os.makedirs(a.outdir, exist_ok=True)
    dev = torch.device("cuda")
    props = torch.cuda.get_device_properties(0)
    print(f"torch {torch.__version__} cuda {torch.version.cuda} on {props.name}", flush=True)

    tr = Trainer(dev)
    nparams = sum(w.numel() for w in tr.model.parameters())
    t = time.perf_counter()
    for _ in range(a.warmup):
        tr.step()
    torch.cuda.synchronize()
    t_plain = (time.perf_counter() - t) / max(1, a.warmup)
    t = time.perf_counter()
    for _ in range(3):
        tr.step()
    torch.cuda.synchronize()
    t_plain = (time.perf_counter() - t) / 3
    print(f"model {nparams / 1e6:.1f}M params; unprofiled step {t_plain * 1e3:.1f} ms "
          f"(after {a.warmup} warm-up steps)", flush=True)

    tmp = tempfile.mkdtemp(prefix="bigtrace-")
    pilot = None
    steps = a.steps
    if steps <= 0:
        pp, pdone, pwall, pstop = session(tr, a.pilot_steps, time.perf_counter() + 60)
        ppath = os.path.join(tmp, "pilot.json")
        pp.export_chrome_trace(ppath)
        with open(ppath, "rb") as f:
            pdata = f.read()
        pgz = len(gzip.compress(pdata, compresslevel=6, mtime=0))
        per_step = len(pdata) / pdone
        ratio = len(pdata) / pgz
        step_s = pwall / pdone
        by_size = int(a.target_mb * 1e6 / per_step)
        by_gz = int(GZ_LIMIT * 0.95 * ratio / per_step)
        by_time = int(a.time_budget * 0.85 / step_s)
        steps = max(1, min(by_size, by_gz, by_time))
        pilot = {"steps": pdone, "trace_bytes": len(pdata), "gz6_bytes": pgz,
                 "bytes_per_step": int(per_step), "gzip_ratio": round(ratio, 2),
                 "profiled_step_seconds": round(step_s, 4), "stop_seconds": round(pstop, 3),
                 "steps_by_target_size": by_size, "steps_by_gz_limit": by_gz,
                 "steps_by_time_budget": by_time}
        print(f"pilot: {pdone} steps, {len(pdata) / 1e6:.2f} MB ({per_step / 1e6:.2f} MB/step), "
              f"gzip ratio {ratio:.1f}, {step_s * 1e3:.0f} ms/profiled step -> {steps} steps "
              f"(size {by_size}, gz {by_gz}, time {by_time})", flush=True)
        del pp, pdata
        os.remove(ppath)

    print(f"profiling {steps} steps ...", flush=True)
    p, done, wall, stop_s = session(tr, steps, time.perf_counter() + a.time_budget)
    print(f"  {done} steps in {wall:.1f}s ({wall / done * 1e3:.0f} ms/step); stop() {stop_s:.2f}s",
          flush=True)
    timings = {"profiled_steps_seconds": round(wall, 3), "stop_seconds": round(stop_s, 3)}

    raw = os.path.join(tmp, "trace.json")
    _, timings["export_chrome_trace_seconds"] = timed(lambda: p.export_chrome_trace(raw))
    size = os.path.getsize(raw)
    print(f"  export_chrome_trace: {size} bytes ({size / 1e6:.1f} MB) in "
          f"{timings['export_chrome_trace_seconds']}s", flush=True)

    # PyTorch's post-processing of the Kineto results (lazy since 2.x: the first events() call)
    evs, timings["events_first_call_seconds"] = timed(p.events)
    n_function_events = len(evs)
    _, timings["events_second_call_seconds"] = timed(p.events)
    ka, timings["key_averages_seconds"] = timed(p.key_averages)
    n_key_averages = len(ka)
    print(f"  events(): {n_function_events} FunctionEvents in "
          f"{timings['events_first_call_seconds']}s; key_averages(): {n_key_averages} rows in "
          f"{timings['key_averages_seconds']}s", flush=True)
    calls = {}
    for fname, sort in (("table_self_cpu.txt", "self_cpu_time_total"),
                        ("table_self_cuda.txt", "self_cuda_time_total")):
        t = time.perf_counter()
        attempt(os.path.join(a.outdir, fname),
                lambda s=sort: p.key_averages().table(sort_by=s, row_limit=-1))
        timings[f"{fname[:-4]}_key_averages_plus_table_seconds"] = round(time.perf_counter() - t, 3)
        t = time.perf_counter()
        try:
            ka.table(sort_by=sort, row_limit=-1)
        except Exception:
            pass
        timings[f"{fname[:-4]}_table_only_seconds"] = round(time.perf_counter() - t, 3)
        calls[fname] = f'prof.key_averages().table(sort_by="{sort}", row_limit=-1)'
    print(f"  tables written; timings so far {timings}", flush=True)

    with open(raw, "rb") as f:
        data = f.read()
    t = time.perf_counter()
    try:
        doc = json.loads(data)
        tev = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
        n_trace_events = len(tev)
        by_cat = collections.Counter(str(e.get("cat")) for e in tev)
        by_ph = collections.Counter(str(e.get("ph")) for e in tev)
        n_memory = sum(1 for e in tev if e.get("name") == "[memory]")
        del doc, tev
    except Exception:
        traceback.print_exc()
        n_trace_events, by_cat, by_ph, n_memory = None, {}, {}, None
    timings["json_loads_count_seconds"] = round(time.perf_counter() - t, 3)

    t = time.perf_counter()
    gz = gzip.compress(data, compresslevel=6, mtime=0)
    timings["gzip6_seconds"] = round(time.perf_counter() - t, 3)
    del data
    os.remove(raw)
    gz_path = os.path.join(a.outdir, "trace.json.gz")
    parts = []
    if len(gz) <= PART_SIZE:
        with open(gz_path, "wb") as f:
            f.write(gz)
    else:
        for i in range(0, len(gz), PART_SIZE):
            name = f"trace.json.gz.part{i // PART_SIZE}"
            with open(os.path.join(a.outdir, name), "wb") as f:
                f.write(gz[i:i + PART_SIZE])
            parts.append(name)
        print(f"  gzipped trace {len(gz)} bytes > {PART_SIZE}: split into {parts} "
              f"(cat them back into trace.json.gz)", flush=True)
    calls["trace.json.gz"] = "prof.export_chrome_trace(path), then gzip -6"
    shutil.rmtree(tmp, ignore_errors=True)

    meta = {
        "generator_version": GENERATOR_VERSION,
        "script": "scripts/record_big_trace.py",
        "profiler": "torch.profiler.profile(activities=[CPU, CUDA], record_shapes=True, "
                    "profile_memory=True, with_stack=True), no schedule, p.start()/p.stop()",
        **FLAGS, "schedule": None,
        "workload": "GPT-style TransformerEncoder LM training (AdamW, bf16 autocast)",
        "workload_params": PARAMS, "model_params": nparams,
        "torch_version": torch.__version__, "cuda_version": torch.version.cuda,
        "cudnn_version": torch.backends.cudnn.version(), "python": sys.version.split()[0],
        "gpu": props.name,
        "steps_requested": steps, "steps": done, "warmup_steps": a.warmup + 3,
        "unprofiled_step_seconds": round(t_plain, 4),
        "pilot": pilot,
        "trace_bytes": size, "trace_gz_bytes": len(gz), "trace_gz_parts": parts or None,
        "trace_events": n_trace_events, "memory_instant_events": n_memory,
        "trace_events_by_cat": dict(by_cat.most_common()),
        "trace_events_by_ph": dict(by_ph.most_common()),
        "function_events": n_function_events, "key_averages_rows": n_key_averages,
        "timings_seconds": timings,
        "profiler_stats": stats_of(p),
        "final_loss": tr.losses[-1] if tr.losses else None,
        "calls": calls,
        "script_seconds": round(time.time() - start, 1),
    }
    with open(os.path.join(a.outdir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    print(json.dumps({k: meta[k] for k in ("steps", "trace_bytes", "trace_gz_bytes",
                                            "trace_events", "function_events",
                                            "timings_seconds", "script_seconds")}), flush=True)


if __name__ == "__main__":
    main()
