package org.quire.examples.swmr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.quire.format.hdf5.Datatype;

/**
 * The record contract (issue 10, item 4): golden values, each verdict, the member layout, and
 * {@link SwmrAppend}'s argument checks.
 */
class SwmrRecordTest {

    private static ByteBuffer record(long seq, long tNs) {
        ByteBuffer buffer = ByteBuffer.allocate(SwmrRecord.SIZE);
        SwmrRecord.encode(seq, tNs, buffer);
        assertEquals(SwmrRecord.SIZE, buffer.position());
        return buffer.flip();
    }

    @Test
    void recordZeroHasTheIssuesGoldenPayload() {
        assertEquals(0xe220a8397b1dcdafL, SwmrRecord.payload(0, 0));
        assertEquals(0x6e73e372e2338acaL, SwmrRecord.payload(0, 4));
        ByteBuffer zero = record(0, 12345).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0, zero.getLong(0));
        assertEquals(12345, zero.getLong(8));
        assertEquals(0xe220a8397b1dcdafL, zero.getLong(16));
        assertEquals(0x6e73e372e2338acaL, zero.getLong(48));
        long sum = 12345;
        for (int k = 0; k < 5; k++) {
            sum ^= SwmrRecord.payload(0, k);
        }
        assertEquals(sum, zero.getLong(56));
    }

    @Test
    void eachVerdictIsTold() {
        assertEquals(SwmrRecord.Verdict.OK, SwmrRecord.verify(record(7, 99), 7));
        assertEquals(SwmrRecord.Verdict.OK, SwmrRecord.verify(record(0, 0), 0));
        assertEquals(SwmrRecord.Verdict.WRONG_SEQ, SwmrRecord.verify(record(7, 99), 8));
        assertEquals(SwmrRecord.Verdict.FILL, SwmrRecord.verify(ByteBuffer.allocate(64), 3));
        for (int at = 0; at < SwmrRecord.SIZE; at++) {
            ByteBuffer torn = record(1_000_000, 424242);
            torn.put(at, (byte) (torn.get(at) ^ 0x10));
            assertEquals(SwmrRecord.Verdict.TORN, SwmrRecord.verify(torn, 1_000_000),
                    "byte " + at + " flipped");
        }
        ByteBuffer halves = record(5, 1);
        halves.put(32, record(6, 1), 32, 32); // second half of another record
        assertEquals(SwmrRecord.Verdict.TORN, SwmrRecord.verify(halves, 5));
    }

    @Test
    void verifyReadsAtThePositionWithoutMovingIt() {
        ByteBuffer two = ByteBuffer.allocate(2 * SwmrRecord.SIZE);
        SwmrRecord.encode(10, 1, two);
        SwmrRecord.encode(11, 2, two);
        two.position(SwmrRecord.SIZE);
        assertEquals(SwmrRecord.Verdict.OK, SwmrRecord.verify(two, 11));
        assertEquals(SwmrRecord.SIZE, two.position());
    }

    @Test
    void tNsIsReadAtThePositionWithoutMovingItOrTheOrder() {
        ByteBuffer two = ByteBuffer.allocate(2 * SwmrRecord.SIZE);
        SwmrRecord.encode(10, 0x0102030405060708L, two);
        SwmrRecord.encode(11, -5, two);
        two.position(SwmrRecord.SIZE);
        assertEquals(-5, SwmrRecord.tNs(two));
        assertEquals(0x0102030405060708L, SwmrRecord.tNs(two.position(0)));
        assertEquals(0, two.position());
        assertEquals(ByteOrder.BIG_ENDIAN, two.order());
    }

    @Test
    void theTypeIsEightLittleEndianUint64Members() {
        assertEquals(64, SwmrRecord.TYPE.size());
        assertEquals(SwmrRecord.MEMBER_NAMES, SwmrRecord.TYPE.members().stream()
                .map(Datatype.Member::name).toList());
        for (int i = 0; i < 8; i++) {
            assertEquals(8 * i, SwmrRecord.TYPE.members().get(i).offset());
            assertEquals(Datatype.UINT64, SwmrRecord.TYPE.members().get(i).type());
        }
    }

    @Test
    void appendArgumentsAreChecked() {
        SwmrAppend.Arguments ok = SwmrAppend.Arguments.parse(
                new String[] {"f.h5", "/records", "100", "7", "--fsync"});
        assertEquals(new SwmrAppend.Arguments(Path.of("f.h5"), "records", 100, 7, true, false,
                Double.POSITIVE_INFINITY), ok);
        assertEquals(new SwmrAppend.Arguments(Path.of("f.h5"), "d", 9, 1, false, true, 2.5),
                SwmrAppend.Arguments.parse(new String[] {"f.h5", "d", "9", "1", "--seconds",
                        "2.5", "--progress"}));
        String[][] bad = {{}, {"f.h5", "d", "1"}, {"f.h5", "d", "x", "1"}, {"f.h5", "d", "1", "0"},
                {"f.h5", "d", "-5", "1"}, {"f.h5", "", "1", "1"}, {"f.h5", "a/b", "1", "1"},
                {"f.h5", "d", "1", "1", "--sync"}, {"f.h5", "d", "1", "100000000"},
                {"f.h5", "d", "1", "1", "--seconds"}, {"f.h5", "d", "1", "1", "--seconds", "0"},
                {"f.h5", "d", "1", "1", "--seconds", "soon"}};
        for (String[] args : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SwmrAppend.Arguments.parse(args), String.join(" ", args));
            assertTrue(!e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
