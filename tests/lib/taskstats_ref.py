#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A reference reading of the kernel's per-task delay accounting.

The accuracy tests compare stalltop's figures with this one. It shares no
code with stalltop: it speaks generic netlink with the socket module,
resolves the "TASKSTATS" family through the generic netlink controller and
decodes struct taskstats from the offsets of the kernel's
include/uapi/linux/taskstats.h.

  taskstats_ref.py get [--threads] PID...
      one JSON object: the readings of these processes (TGID queries: the
      kernel adds up the threads, also those that ended), or with --threads
      of each of their threads (PID queries), keyed by id.

  taskstats_ref.py follow --input FILE --tee OUT [--threads]
                   [--until CAT:MIN]... [--min-lines M] PID...
      reads stalltop's NDJSON samples line by line from FILE (a FIFO that
      stalltop writes), and the moment a line arrives, takes a reading as
      above and prints it as one JSON line {"line": N, "mono": s,
      "wall": s, "lag": s, "tasks": {...}}: N is the sample's line number
      (1 = stalltop's first sample), mono and wall the clocks at the
      reading, lag = wall - the sample's "time". Then it appends the sample
      line to OUT, so a test that sees line N in OUT finds the reading of
      line N already printed. Ends at the end of FILE.
      With --until CAT:MIN (repeatable) and --min-lines M (default 8), the
      first reading N >= M such that every task read at lines N - M + 1
      and N waited at least MIN % of the time between those two readings
      in each CAT also has "enough": true, "from": N - M + 1: the workload
      made what the test needs over the window of the last M lines, and
      the test may stop stalltop.

  taskstats_ref.py exits
      registers for the exit records of every CPU, prints {"ready": true}
      once the kernel took the registration, then one JSON line per record
      until SIGTERM: {"kind": "pid"|"tgid", "id": N, ...a reading} (a
      process of one thread ends with its pid record alone), or
      {"lost": true} where the socket overflowed.

A reading of one task: {"version": V, "delay": {CAT: ns}, "count": {CAT: n},
"run_real": ns, "run_virtual": ns} for the categories that version has
(cpu, io, swap, reclaim, thrashing, compact, wpcopy, irq); run_real is
cpu_run_real_total (user + system time, counted at the tick), run_virtual
cpu_run_virtual_total (the scheduler's exact run time). A task that is gone
is left out.
"""

import argparse
import errno
import json
import os
import signal
import socket
import struct
import sys
import time

NETLINK_GENERIC = 16
NLMSG_ERROR = 2
NLM_F_REQUEST = 1
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2

NLM_F_ACK = 4
TASKSTATS_CMD_GET = 1
TASKSTATS_CMD_NEW = 2
TASKSTATS_CMD_ATTR_PID = 1
TASKSTATS_CMD_ATTR_TGID = 2
TASKSTATS_CMD_ATTR_REGISTER_CPUMASK = 3
TASKSTATS_TYPE_PID = 1
TASKSTATS_TYPE_TGID = 2
TASKSTATS_TYPE_STATS = 3
TASKSTATS_TYPE_AGGR_PID = 4
TASKSTATS_TYPE_AGGR_TGID = 5

SO_RCVBUFFORCE = 33  # asm-generic/socket.h; not in every Python's socket module
NLA_TYPE_MASK = 0x3FFF  # without NLA_F_NESTED and NLA_F_NET_BYTEORDER

# struct taskstats: byte offsets of each category's count and delay total,
# and the version that added it. Versions 1..14 and 16.. only append at
# the end; version 15 moved fields and is not read here.
#   0 version (u16), 4 ac_exitcode (u32), 8 ac_flag, 9 ac_nice,
#   16 cpu_count, 24 cpu_delay_total, 32 blkio_count, 40 blkio_delay_total,
#   48 swapin_count, 56 swapin_delay_total, 64 cpu_run_real_total,
#   72 cpu_run_virtual_total, 80 ac_comm[32], 112 ac_sched + pad,
#   120 ac_uid .. 136 ac_btime (u32 each), 144 ac_etime, 152 ac_utime,
#   160 ac_stime, 168 ac_minflt, 176 ac_majflt, 184 coremem, 192 virtmem,
#   200 hiwater_rss, 208 hiwater_vm, 216 read_char, 224 write_char,
#   232 read_syscalls, 240 write_syscalls, 248 read_bytes, 256 write_bytes,
#   264 cancelled_write_bytes, 272 nvcsw, 280 nivcsw, 288 ac_utimescaled,
#   296 ac_stimescaled, 304 cpu_scaled_run_real_total,
#   312 freepages_count, 320 freepages_delay_total,
#   v9: 328 thrashing_count, 336 thrashing_delay_total,
#   v10: 344 ac_btime64, v11: 352 compact_count, 360 compact_delay_total,
#   v12: 368 ac_tgid (u32), 376 ac_tgetime, 384 ac_exe_dev, 392 ac_exe_inode,
#   v13: 400 wpcopy_count, 408 wpcopy_delay_total,
#   v14: 416 irq_count, 424 irq_delay_total, v16: 432.. the max/min fields.
CATEGORIES = (
    # key, count offset, delay total offset, since version
    ("cpu", 16, 24, 1),
    ("io", 32, 40, 1),
    ("swap", 48, 56, 1),
    ("reclaim", 312, 320, 7),
    ("thrashing", 328, 336, 9),
    ("compact", 352, 360, 11),
    ("wpcopy", 400, 408, 13),
    ("irq", 416, 424, 14),
)
OFF_RUN_REAL = 64     # utime + stime, in ns (tick-based)
OFF_RUN_VIRTUAL = 72  # the scheduler's sum_exec_runtime, in ns


def attrs(buf):
    """(type, payload) of each netlink attribute in buf."""
    off = 0
    while off + 4 <= len(buf):
        length, typ = struct.unpack_from("=HH", buf, off)
        if length < 4 or off + length > len(buf):
            break
        yield typ & NLA_TYPE_MASK, buf[off + 4:off + length]
        off += (length + 3) & ~3


def attr(typ, payload):
    a = struct.pack("=HH", 4 + len(payload), typ) + payload
    return a + b"\0" * (-len(a) % 4)


class Taskstats:
    def __init__(self):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                  NETLINK_GENERIC)
        self.sock.bind((0, 0))
        self.seq = 0
        reply = self.request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                             attr(CTRL_ATTR_FAMILY_NAME, b"TASKSTATS\0"))
        if reply is None:
            raise OSError(errno.ENOENT, "no TASKSTATS generic netlink family")
        self.family = None
        for typ, val in attrs(reply):
            if typ == CTRL_ATTR_FAMILY_ID:
                self.family = struct.unpack_from("=H", val)[0]
        if self.family is None:
            raise OSError(errno.EPROTO, "no family id in the controller's reply")

    def request(self, family, cmd, payload):
        """Send one generic netlink request; the reply's attributes as
        bytes, or None when the kernel answers ESRCH."""
        self.seq += 1
        body = struct.pack("=BBH", cmd, 1, 0) + payload
        msg = struct.pack("=IHHII", 16 + len(body), family, NLM_F_REQUEST,
                          self.seq, 0) + body
        self.sock.send(msg)
        while True:
            data = self.sock.recv(65536)
            off = 0
            while off + 16 <= len(data):
                length, typ, _flags, seq, _pid = struct.unpack_from("=IHHII", data, off)
                if length < 16 or off + length > len(data):
                    raise OSError(errno.EPROTO, "truncated netlink message")
                msg = data[off:off + length]
                off += (length + 3) & ~3
                if seq != self.seq:
                    continue  # a late answer to an earlier request
                if typ == NLMSG_ERROR:
                    err = -struct.unpack_from("=i", msg, 16)[0]
                    if err == 0:
                        continue
                    if err == errno.ESRCH:
                        return None
                    raise OSError(err, os.strerror(err))
                return msg[20:]  # after nlmsghdr and genlmsghdr

    def read(self, ident, thread):
        """One task's (thread) or process's (not thread) reading."""
        reply = self.request(self.family, TASKSTATS_CMD_GET,
                             attr(TASKSTATS_CMD_ATTR_PID if thread
                                  else TASKSTATS_CMD_ATTR_TGID,
                                  struct.pack("=I", ident)))
        if reply is None:
            return None
        want = TASKSTATS_TYPE_AGGR_PID if thread else TASKSTATS_TYPE_AGGR_TGID
        for typ, val in attrs(reply):
            if typ != want:
                continue
            for t2, stats in attrs(val):
                if t2 == TASKSTATS_TYPE_STATS:
                    return decode(stats)
        raise OSError(errno.EPROTO, "no statistics in the reply for %d" % ident)


def decode(stats):
    version = struct.unpack_from("=H", stats, 0)[0]
    if version == 15:
        raise OSError(errno.EPROTO, "taskstats version 15 (fields in other places) is not read here")
    r = {"version": version, "delay": {}, "count": {}}
    for key, count_off, total_off, since in CATEGORIES:
        if version >= since and total_off + 8 <= len(stats):
            r["count"][key], r["delay"][key] = (
                struct.unpack_from("=QQ", stats, count_off)[0],
                struct.unpack_from("=Q", stats, total_off)[0])
    r["run_real"], r["run_virtual"] = struct.unpack_from("=QQ", stats, OFF_RUN_REAL)
    return r


def exits(ts):
    """Print the exit records of every CPU as they come (see above)."""
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    # room for the records of a busy machine's bursts of exits (a build):
    # beyond net.core.rmem_max, which root may pass
    try:
        ts.sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 32 << 20)
    except OSError:
        ts.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 32 << 20)
    with open("/sys/devices/system/cpu/possible") as f:
        mask = f.read().strip().encode() + b"\0"
    ts.seq += 1
    body = struct.pack("=BBH", TASKSTATS_CMD_GET, 1, 0) + \
        attr(TASKSTATS_CMD_ATTR_REGISTER_CPUMASK, mask)
    ts.sock.send(struct.pack("=IHHII", 16 + len(body), ts.family,
                             NLM_F_REQUEST | NLM_F_ACK, ts.seq, 0) + body)
    ready = False
    while True:
        try:
            data = ts.sock.recv(1 << 20)
        except OSError as e:
            if e.errno != errno.ENOBUFS:
                raise
            print(json.dumps({"lost": True}), flush=True)
            continue
        off = 0
        while off + 16 <= len(data):
            length, typ, _flags, seq, _pid = struct.unpack_from("=IHHII", data, off)
            if length < 16 or off + length > len(data):
                break
            msg = data[off:off + length]
            off += (length + 3) & ~3
            if typ == NLMSG_ERROR and not ready and seq == ts.seq:
                err = -struct.unpack_from("=i", msg, 16)[0]
                if err:
                    raise OSError(err, os.strerror(err))
                ready = True
                print(json.dumps({"ready": True}), flush=True)
                continue
            if typ != ts.family or msg[16] != TASKSTATS_CMD_NEW:
                continue
            for aggr, val in attrs(msg[20:]):
                if aggr not in (TASKSTATS_TYPE_AGGR_PID, TASKSTATS_TYPE_AGGR_TGID):
                    continue
                rec = {"kind": "pid" if aggr == TASKSTATS_TYPE_AGGR_PID else "tgid"}
                for t2, v2 in attrs(val):
                    if t2 in (TASKSTATS_TYPE_PID, TASKSTATS_TYPE_TGID):
                        rec["id"] = struct.unpack_from("=I", v2)[0]
                    elif t2 == TASKSTATS_TYPE_STATS:
                        rec.update(decode(v2))
                print(json.dumps(rec), flush=True)


def ids(pids, threads):
    """The ids to read: the processes, or each one's threads now."""
    if not threads:
        return pids
    out = []
    for p in pids:
        try:
            out += sorted(int(t) for t in os.listdir("/proc/%d/task" % p))
        except FileNotFoundError:
            pass
    return out


def reading(ts, pids, threads):
    tasks = {}
    for i in ids(pids, threads):
        r = ts.read(i, threads)
        if r is not None:
            tasks[str(i)] = r
    return tasks


def window_pct(first, last, key, cat):
    """Task key's CAT delay over the window between two readings, in % of
    the time between them (None when either lacks it)."""
    a, b = first["tasks"].get(key), last["tasks"].get(key)
    if a is None or b is None or cat not in a["delay"] or cat not in b["delay"]:
        return None
    return 100 * (b["delay"][cat] - a["delay"][cat]) / 1e9 / (last["mono"] - first["mono"])


def enough(first, last, until):
    """Whether every task read at both readings reached each CAT:MIN of
    until between them (and at least one task was)."""
    keys = [k for k in first["tasks"] if k in last["tasks"]]
    if not keys:
        return False
    for cat, least in until:
        for k in keys:
            pct = window_pct(first, last, k, cat)
            if pct is None or pct < least:
                return False
    return True


def follow(ts, args):
    out = open(args.tee, "a")
    n = 0
    recs = []
    with open(args.input, "rb") as f:
        for line in f:
            if not line.endswith(b"\n"):
                break  # the writer ended mid-line: not a sample
            # the reading first, as close to stalltop's as we can
            mono = time.monotonic()
            wall = time.time()
            tasks = reading(ts, args.pids, args.threads)
            n += 1
            try:
                lag = wall - json.loads(line)["time"]
            except (ValueError, KeyError, TypeError):
                lag = None
            rec = {"line": n, "mono": mono, "wall": wall, "lag": lag, "tasks": tasks}
            recs.append(rec)
            if args.until and n >= args.min_lines and not any(r.get("enough") for r in recs):
                first = recs[n - args.min_lines]
                if enough(first, rec, args.until):
                    rec["enough"] = True
                    rec["from"] = first["line"]
            print(json.dumps(rec), flush=True)
            out.write(line.decode())
            out.flush()
    out.close()


def until_arg(text):
    """CAT:MIN, as --until takes it."""
    cat, _, least = text.partition(":")
    if cat not in [c[0] for c in CATEGORIES]:
        raise argparse.ArgumentTypeError("no such category: %r" % cat)
    try:
        return cat, float(least)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number: %r" % least) from None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("get")
    f = sub.add_parser("follow")
    sub.add_parser("exits")
    f.add_argument("--input", required=True)
    f.add_argument("--tee", required=True)
    f.add_argument("--until", type=until_arg, action="append", default=[])
    f.add_argument("--min-lines", type=int, default=8)
    for a in (g, f):
        a.add_argument("--threads", action="store_true")
        a.add_argument("pids", type=int, nargs="+")
    args = p.parse_args()
    ts = Taskstats()
    if args.cmd == "exits":
        exits(ts)
    elif args.cmd == "get":
        print(json.dumps({"mono": time.monotonic(), "wall": time.time(),
                          "tasks": reading(ts, args.pids, args.threads)}))
    else:
        follow(ts, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
