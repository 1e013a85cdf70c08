package org.quire.examples;

/**
 * The deterministic byte stream {@link SionCheckpoint} writes for each rank, so that any reader
 * (another job, another rank count, a test after a crash) can check every byte without the
 * writer. Record {@code i} of rank {@code r} has {@link #recordLength} bytes; every tenth record
 * (i = 7, 17, ...) is three chunks and a bit long, so it spans chunks. Byte {@code p} of rank
 * {@code r}'s stream is {@link #byteAt}.
 */
public final class CheckpointStream {

    /** Chunk size every rank requests. */
    public static final int CHUNK_SIZE = 8192;
    /** Alignment the example asks for, so that capacities are the same on every file system. */
    public static final int FS_BLOCK_SIZE = 4096;

    private CheckpointStream() {
    }

    public static int recordLength(int rank, int record) {
        if (record % 10 == 7) {
            return 3 * CHUNK_SIZE + 100 + rank;
        }
        return 1 + (int) ((rank * 7919L + record * 104729L) % 3000);
    }

    /** Length of rank {@code rank}'s stream after its first {@code records} records. */
    public static long length(int rank, int records) {
        long length = 0;
        for (int record = 0; record < records; record++) {
            length += recordLength(rank, record);
        }
        return length;
    }

    public static byte byteAt(int rank, long position) {
        return (byte) (position * 31 + rank * 101 + (position >>> 11) ^ (position >>> 19));
    }

    /** Bytes {@code position .. position + length - 1} of rank {@code rank}'s stream. */
    public static byte[] bytes(int rank, long position, int length) {
        byte[] data = new byte[length];
        for (int i = 0; i < length; i++) {
            data[i] = byteAt(rank, position + i);
        }
        return data;
    }

    /**
     * Index of the first byte of {@code data} that differs from rank {@code rank}'s stream, or -1
     * if {@code data} is a prefix of that stream.
     */
    public static long firstMismatch(int rank, byte[] data) {
        for (int i = 0; i < data.length; i++) {
            if (data[i] != byteAt(rank, i)) {
                return i;
            }
        }
        return -1;
    }
}
