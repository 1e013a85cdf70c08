package org.quire.format.hdf5;

import java.util.Arrays;

/**
 * The LZF compressed format of Marc Lehmann's liblzf (version 1.5, the one h5py bundles for its
 * HDF5 filter 32000). A stream is a sequence of instructions, each starting with a control byte:
 *
 * <pre>
 * 000LLLLL  literal run: the next L + 1 bytes (1..32) are copied to the output
 * LLLooooo oooooooo            back reference, L = 1..6:  copy L + 2 bytes
 * 111ooooo LLLLLLLL oooooooo   back reference, L = 7 + the second byte: copy L + 2 bytes (9..264)
 * </pre>
 * A back reference copies from {@code distance = (o + 1)} bytes (1..8192) behind the output's
 * end, byte by byte, so it may overlap the bytes it writes (a run). The stream holds no header,
 * no sizes and no checksum: the reader must know how long the output may grow.
 */
final class LzfCodec {

    private static final int MAX_LITERAL = 1 << 5;
    private static final int MAX_DISTANCE = 1 << 13;
    private static final int MAX_MATCH = (1 << 8) + (1 << 3);
    private static final int MIN_MATCH = 3;
    private static final int HASH_BITS = 14;

    private LzfCodec() {
    }

    /**
     * {@code data} compressed: greedy matches of at least 3 bytes found through a hash of the
     * next 3 bytes (the last position each hash was seen at). Data without repeats comes out as
     * literal runs, at most {@code data.length / 32 + 1} bytes longer than it.
     */
    static byte[] compress(byte[] data) {
        byte[] out = new byte[data.length + data.length / MAX_LITERAL + 1];
        int[] lastSeen = new int[1 << HASH_BITS];
        Arrays.fill(lastSeen, -1);
        int length = 0;
        int literalStart = 0;
        int at = 0;
        while (at + MIN_MATCH <= data.length) {
            int hash = hash(data, at);
            int candidate = lastSeen[hash];
            lastSeen[hash] = at;
            int match = candidate >= 0 && at - candidate <= MAX_DISTANCE
                    ? matchLength(data, candidate, at) : 0;
            if (match < MIN_MATCH) {
                at++;
                continue;
            }
            length = literals(data, literalStart, at, out, length);
            int distance = at - candidate - 1;
            int extra = match - 2;
            if (extra < 7) {
                out[length++] = (byte) (extra << 5 | distance >>> 8);
            } else {
                out[length++] = (byte) (7 << 5 | distance >>> 8);
                out[length++] = (byte) (extra - 7);
            }
            out[length++] = (byte) distance;
            // Remember positions inside the match too: later data often repeats from there.
            for (int i = at + 1; i < at + match && i + MIN_MATCH <= data.length; i++) {
                lastSeen[hash(data, i)] = i;
            }
            at += match;
            literalStart = at;
        }
        length = literals(data, literalStart, data.length, out, length);
        return Arrays.copyOf(out, length);
    }

    /**
     * {@code stream} decompressed into one array of {@code limit} bytes, its most.
     *
     * @throws IllegalArgumentException the stream is not LZF; the message names the stream byte
     * @throws Filter.OutputPastLimitException its output would pass {@code limit}
     */
    static byte[] decompress(byte[] stream, int limit) {
        byte[] out = new byte[limit];
        int length = 0;
        int at = 0;
        while (at < stream.length) {
            int instruction = at;
            int control = stream[at++] & 0xff;
            if (control < MAX_LITERAL) {
                int run = control + 1;
                if (run > stream.length - at) {
                    throw damaged(instruction, "literal run of " + run + " bytes passes the end of"
                            + " the stream (" + (stream.length - at) + " bytes left)");
                }
                if (run > limit - length) {
                    throw tooLong(instruction, limit);
                }
                System.arraycopy(stream, at, out, length, run);
                at += run;
                length += run;
                continue;
            }
            int copy = control >>> 5;
            if (copy == 7) {
                if (at >= stream.length) {
                    throw damaged(instruction, "back reference cut off by the end of the stream");
                }
                copy += stream[at++] & 0xff;
            }
            if (at >= stream.length) {
                throw damaged(instruction, "back reference cut off by the end of the stream");
            }
            int distance = ((control & 0x1f) << 8 | stream[at++] & 0xff) + 1;
            copy += 2;
            if (distance > length) {
                throw damaged(instruction, "back reference " + distance + " bytes behind output"
                        + " byte " + length);
            }
            if (copy > limit - length) {
                throw tooLong(instruction, limit);
            }
            for (int from = length - distance, end = length + copy; length < end; ) {
                out[length++] = out[from++];
            }
        }
        return length == out.length ? out : Arrays.copyOf(out, length);
    }

    /** Writes {@code data[from, to)} as literal runs of at most 32 bytes. */
    private static int literals(byte[] data, int from, int to, byte[] out, int length) {
        while (from < to) {
            int run = Math.min(MAX_LITERAL, to - from);
            out[length++] = (byte) (run - 1);
            System.arraycopy(data, from, out, length, run);
            length += run;
            from += run;
        }
        return length;
    }

    private static int matchLength(byte[] data, int candidate, int at) {
        int max = Math.min(MAX_MATCH, data.length - at);
        int length = 0;
        while (length < max && data[candidate + length] == data[at + length]) {
            length++;
        }
        return length;
    }

    private static int hash(byte[] data, int at) {
        int v = (data[at] & 0xff) << 16 | (data[at + 1] & 0xff) << 8 | data[at + 2] & 0xff;
        return (v * 0x9E3779B1) >>> (32 - HASH_BITS);
    }

    private static IllegalArgumentException damaged(int at, String what) {
        return new IllegalArgumentException("LZF stream byte " + at + ": " + what);
    }

    private static IllegalArgumentException tooLong(int at, int limit) {
        return new Filter.OutputPastLimitException("LZF stream byte " + at
                + ": output passes the limit of " + limit + " bytes",
                "more than " + limit + " bytes (LZF stream byte " + at + ")");
    }
}
