#!/usr/bin/python3
"""Follows an HDF5 record dataset while a SWMR writer appends to it, checking every record.

usage: swmr_follow.py FILE DATASET [--expect N] [--idle I] [--timeout S] [--plain]

Opens FILE with h5py as an SWMR reader (swmr=True; it waits until the writer has switched to
SWMR writing), then polls DATASET: ds.refresh() (not ds.id.refresh(), which leaves ds.shape
stale) and reads every record that became visible, until N records are visible, or (--idle)
nothing new appeared for I seconds, or S seconds (default 60) have passed; at least one of
--expect and --idle is needed. --plain opens FILE as a plain reader (no SWMR: a closed or
cleared file) and checks every record once. Each record is checked against the record contract of
org.quire.examples.swmr.SwmrRecord, implemented here independently: 8 little-endian uint64
members seq, t_ns, p0..p4, sum; record i has seq = i, p_k = splitmix64(i*8 + k),
sum = seq ^ p0 ^ ... ^ p4 ^ t_ns. A record of all zero bytes is a fill value (never written),
one whose payload or sum does not match its seq is torn, a consistent one with another seq is
out of order; an extent that shrinks is a failure too.

Prints one JSON line: records checked, ok, torn, fill, out_of_order, shrinks, the number of
distinct extents seen, refreshes, read retries and seconds. Exit status 0 when N records were
seen (with --expect) and all were ok, 1 otherwise (bad records, timeout, unreadable file), 2 for bad usage.
"""
import argparse
import json
import multiprocessing
import queue
import sys
import time

import h5py
import numpy as np

MEMBERS = ("seq", "t_ns", "p0", "p1", "p2", "p3", "p4", "sum")
GOLDEN = ((0, 0, 0xE220A8397B1DCDAF), (0, 4, 0x6E73E372E2338ACA))
MAX_CONSECUTIVE_ERRORS = 100
# Past the timeout, how long a read still running is waited for before the follower is killed.
GRACE_SECONDS = 5.0
READ_RECORDS = 16384  # records read at once: bounds the reader's memory, as SwmrFollow's


def splitmix64(x):
    """The SplitMix64 output function, element-wise on a uint64 array (wrapping arithmetic)."""
    with np.errstate(over="ignore"):
        z = x + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def classify(records, first):
    """Counts of (ok, torn, fill, out_of_order) in a structured array of records first, first+1..."""
    seq = records["seq"].astype(np.uint64)
    fill = np.ones(len(records), dtype=bool)
    for name in MEMBERS:
        fill &= records[name] == 0
    consistent = np.ones(len(records), dtype=bool)
    total = seq ^ records["t_ns"].astype(np.uint64)
    with np.errstate(over="ignore"):
        base = seq * np.uint64(8)
    for k in range(5):
        word = records["p%d" % k].astype(np.uint64)
        consistent &= word == splitmix64(base + np.uint64(k))
        total ^= word
    consistent &= total == records["sum"].astype(np.uint64)
    torn = ~fill & ~consistent
    expected = np.arange(first, first + len(records), dtype=np.uint64)
    out_of_order = ~fill & consistent & (seq != expected)
    ok = ~fill & consistent & (seq == expected)
    return int(ok.sum()), int(torn.sum()), int(fill.sum()), int(out_of_order.sum())


def check_golden():
    for seq, k, value in GOLDEN:
        found = int(splitmix64(np.array([seq * 8 + k], dtype=np.uint64))[0])
        if found != value:
            raise SystemExit("swmr_follow.py: splitmix64 self-check failed for seq %d p%d: %x"
                             % (seq, k, found))


def open_when_ready(path, dataset, deadline):
    """The file and dataset, opened as an SWMR reader once the writer allows it."""
    last_error = None
    while time.monotonic() < deadline:
        try:
            f = h5py.File(path, "r", libver="latest", swmr=True)
        except (OSError, FileNotFoundError) as e:  # not there yet, or not SWMR writing yet
            last_error = e
            time.sleep(0.01)
            continue
        try:
            return f, f[dataset]
        except KeyError as e:
            f.close()
            raise SystemExit("swmr_follow.py: %s: no dataset %s (%s)" % (path, dataset, e))
    raise TimeoutError("could not open %s as an SWMR reader: %s" % (path, last_error))


def count(summary, ds, start, end):
    """Checks records start..end-1 of ds, a slice at a time, into the summary's counts."""
    for at in range(start, end, READ_RECORDS):
        ok, torn, fill, out_of_order = classify(ds[at:min(end, at + READ_RECORDS)], at)
        summary["ok"] += ok
        summary["torn"] += torn
        summary["fill"] += fill
        summary["out_of_order"] += out_of_order


def follow(args):
    started = time.monotonic()
    deadline = started + args.timeout
    summary = {"file": args.file, "dataset": args.dataset, "expected": args.expect,
               "records": 0, "ok": 0, "torn": 0, "fill": 0, "out_of_order": 0, "shrinks": 0,
               "extents_seen": 0, "refreshes": 0, "read_retries": 0, "error": None}
    if args.plain:
        seen = 0
        try:
            with h5py.File(args.file, "r") as f:
                ds = f[args.dataset]
                seen = ds.shape[0]
                count(summary, ds, 0, seen)
                summary["extents_seen"] = 1
        except (OSError, KeyError) as e:
            summary["error"] = "%s: %s" % (args.file, e)
    else:
        try:
            f, ds = open_when_ready(args.file, args.dataset, deadline)
        except TimeoutError as e:
            summary["error"] = str(e)
            return summary
        with f:
            seen = follow_dataset(ds, args, deadline, summary)
    summary["records"] = seen
    if summary["error"] is None and args.expect is not None and seen < args.expect:
        summary["error"] = ("the file holds %d of %d records" % (seen, args.expect)
                            if args.plain else "timed out after %.1f s with %d of %d records"
                            % (args.timeout, seen, args.expect))
    summary["seconds"] = round(time.monotonic() - started, 3)
    return summary


def follow_in_child(args):
    """follow(args) in a child process, killed if it outlives the timeout by GRACE_SECONDS.

    libhdf5 retries a metadata read that fails its checksum up to 100 times with a doubling
    sleep, inside one C call that Python's signals cannot interrupt: on a damaged block a
    refresh does not return for minutes. Only a separate process can be stopped on time.
    """
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    child = context.Process(target=lambda: results.put(follow(args)), daemon=True)
    started = time.monotonic()
    child.start()
    try:
        return results.get(timeout=args.timeout + GRACE_SECONDS)
    except queue.Empty:
        child.kill()
        child.join()
        return {"file": args.file, "dataset": args.dataset, "expected": args.expect,
                "records": 0, "ok": 0, "torn": 0, "fill": 0, "out_of_order": 0, "shrinks": 0,
                "extents_seen": 0, "refreshes": 0, "read_retries": 0,
                "error": "%s: libhdf5 did not return within %.1f s of the %.1f s timeout "
                         "(a read retrying a damaged block?); stopped"
                         % (args.file, GRACE_SECONDS, args.timeout),
                "seconds": round(time.monotonic() - started, 3)}
    finally:
        child.join(1)


def follow_dataset(ds, args, deadline, summary):
    """Refreshes and checks until enough records, or idle, or the deadline; the records seen."""
    seen = 0
    errors = 0
    extents = set()
    grew = time.monotonic()
    while time.monotonic() < deadline:
        if args.expect is not None and seen >= args.expect:
            break
        if args.idle is not None and time.monotonic() - grew >= args.idle:
            break
        try:
            ds.refresh()
            summary["refreshes"] += 1
            n = ds.shape[0]
            if n < seen:
                summary["shrinks"] += 1
                seen = n
                continue
            if n > seen:
                extents.add(n)
                count(summary, ds, seen, n)
                seen = n
                grew = time.monotonic()
            errors = 0
        except (OSError, RuntimeError) as e:  # a metadata read libhdf5 gave up on
            summary["read_retries"] += 1
            errors += 1
            if errors >= MAX_CONSECUTIVE_ERRORS:
                summary["error"] = "%d reads failed in a row, last: %s" % (errors, e)
                break
            time.sleep(0.001)
    summary["extents_seen"] = len(extents)
    return seen


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file")
    parser.add_argument("dataset")
    parser.add_argument("--expect", type=int, help="records to wait for")
    parser.add_argument("--idle", type=float,
                        help="stop once nothing new appeared for this many seconds")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds to wait for them (default 60)")
    parser.add_argument("--plain", action="store_true",
                        help="open as a plain reader (not SWMR) and check every record once")
    args = parser.parse_args()
    if args.expect is None and args.idle is None and not args.plain:
        parser.error("give --expect N, --idle I or both (or --plain)")
    if any(v is not None and v <= 0 for v in (args.expect, args.idle)) or args.timeout <= 0:
        parser.error("--expect, --idle and --timeout must be positive")
    check_golden()
    summary = follow_in_child(args)
    print(json.dumps(summary, sort_keys=True), flush=True)
    bad = summary["torn"] + summary["fill"] + summary["out_of_order"] + summary["shrinks"]
    return 1 if bad or summary["error"] else 0


if __name__ == "__main__":
    sys.exit(main())
