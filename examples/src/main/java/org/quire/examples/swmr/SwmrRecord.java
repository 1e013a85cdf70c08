package org.quire.examples.swmr;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Collections;
import java.util.List;

import org.quire.format.hdf5.Datatype;

/**
 * The record contract of SWMR stress and crash tests (issue 10, item 4), so that any
 * independent reader can check a file Quire wrote: a compound of 8 little-endian uint64 members
 * {@code seq, t_ns, p0, p1, p2, p3, p4, sum} at offsets 0, 8, ..., 56 (64 bytes). Record
 * {@code i} has {@code seq = i}, {@code p_k = splitmix64(i * 8 + k)}, {@code t_ns} the writer's
 * {@link System#nanoTime()} when it encoded the record, and {@code sum = seq ^ p0 ^ ... ^ p4 ^
 * t_ns}. {@code examples/src/main/python/swmr_follow.py} implements the same checks on its own.
 *
 * <pre>
 * 0      8      16     24     32     40     48     56     64
 * +------+------+------+------+------+------+------+------+
 * | seq  | t_ns |  p0  |  p1  |  p2  |  p3  |  p4  | sum  |   each a little-endian uint64
 * +------+------+------+------+------+------+------+------+
 * </pre>
 */
public final class SwmrRecord {

    /** Bytes of one record. */
    public static final int SIZE = 64;
    /** The payload words {@code p0..p4}. */
    public static final int PAYLOAD_WORDS = 5;
    /** The member names, in file order. */
    public static final List<String> MEMBER_NAMES =
            List.of("seq", "t_ns", "p0", "p1", "p2", "p3", "p4", "sum");
    /** The compound datatype of a record dataset. */
    public static final Datatype.CompoundType TYPE = Datatype.CompoundType.packed(MEMBER_NAMES,
            Collections.nCopies(MEMBER_NAMES.size(), Datatype.UINT64));

    private static final int SEQ = 0;
    private static final int T_NS = 8;
    private static final int P0 = 16;
    private static final int SUM = 56;

    /** What a reader found in a 64-byte record it expected to hold record {@code i}. */
    public enum Verdict {
        /** Record {@code i}, every word consistent. */
        OK,
        /** All 64 bytes zero: the fill value, never written (a failure under a visible extent). */
        FILL,
        /** Words that belong to no record: a payload or the sum does not match the seq. */
        TORN,
        /** A consistent record, but of another seq: out of order. */
        WRONG_SEQ
    }

    private SwmrRecord() {
    }

    /** The standard SplitMix64 output function of {@code x}. */
    public static long splitmix64(long x) {
        long z = x + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Payload word {@code k} (0..4) of record {@code seq}. */
    public static long payload(long seq, int k) {
        return splitmix64(seq * 8 + k);
    }

    /** Puts record {@code seq} stamped {@code tNs} at {@code into}'s position, advancing it. */
    public static void encode(long seq, long tNs, ByteBuffer into) {
        ByteBuffer out = into.slice(into.position(), SIZE).order(ByteOrder.LITTLE_ENDIAN);
        long sum = seq ^ tNs;
        out.putLong(SEQ, seq).putLong(T_NS, tNs);
        for (int k = 0; k < PAYLOAD_WORDS; k++) {
            long p = payload(seq, k);
            out.putLong(P0 + 8 * k, p);
            sum ^= p;
        }
        out.putLong(SUM, sum);
        into.position(into.position() + SIZE);
    }

    /** The {@code t_ns} of the record at {@code record}'s position (not moved). */
    public static long tNs(ByteBuffer record) {
        return record.slice(record.position(), SIZE).order(ByteOrder.LITTLE_ENDIAN).getLong(T_NS);
    }

    /** The 64 bytes at {@code record}'s position (not moved) checked against record {@code seq}. */
    public static Verdict verify(ByteBuffer record, long seq) {
        ByteBuffer in = record.slice(record.position(), SIZE).order(ByteOrder.LITTLE_ENDIAN);
        boolean allZero = true;
        for (int at = 0; at < SIZE; at += 8) {
            allZero &= in.getLong(at) == 0;
        }
        if (allZero) {
            return Verdict.FILL;
        }
        long found = in.getLong(SEQ);
        long sum = found ^ in.getLong(T_NS);
        for (int k = 0; k < PAYLOAD_WORDS; k++) {
            long p = in.getLong(P0 + 8 * k);
            if (p != payload(found, k)) {
                return Verdict.TORN;
            }
            sum ^= p;
        }
        if (sum != in.getLong(SUM)) {
            return Verdict.TORN;
        }
        return found == seq ? Verdict.OK : Verdict.WRONG_SEQ;
    }
}
