package org.quire.benchmarks.versioned;

import java.lang.reflect.Method;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * SHA-256 throughput over MIB MiB of 1 MiB chunks, for {@code benchmarks/versions.sh}: Quire's
 * chunk digest ({@code org.quire.format.versioned.ChunkDigest.of}, package-private, so called by
 * reflection once looked up: the chunk's bytes, then its shape text {@code (131072,)}) against
 * one JDK {@code MessageDigest} SHA-256 hashing the same chunks ({@code update} and {@code digest}
 * per chunk), the limit on this CPU.
 *
 * <pre>
 * java -cp ... org.quire.benchmarks.versioned.ChunkDigestThroughput MIB REPEATS
 * </pre>
 *
 * The chunks are random bytes, made untimed. One untimed pass of each first (JIT); then per
 * repeat each once, alternating which goes first. The digests of all chunks are added up,
 * bytewise, into one value printed at the end, so no digest is optimised away. One line per pass:
 *
 * <pre>
 * result op=digest impl=jdk bytes=1073741824 seconds=1.234
 * </pre>
 */
public final class ChunkDigestThroughput {

    private ChunkDigestThroughput() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: ChunkDigestThroughput MIB REPEATS");
        }
        int chunks = Integer.parseInt(args[0]);
        int repeats = Integer.parseInt(args[1]);
        byte[][] data = new byte[chunks][VersionPlan.CHUNK_ELEMENTS * 8];
        for (byte[] chunk : data) {
            ThreadLocalRandom.current().nextBytes(chunk);
        }
        Method quire = Class.forName("org.quire.format.versioned.ChunkDigest")
                .getDeclaredMethod("of", byte[].class, long[].class);
        quire.setAccessible(true);
        MessageDigest jdk = MessageDigest.getInstance("SHA-256");
        long[] shape = {VersionPlan.CHUNK_ELEMENTS};
        byte[] folded = new byte[32];
        pass("quire", data, quire, jdk, shape, folded, false);
        pass("jdk", data, quire, jdk, shape, folded, false);
        for (int repeat = 0; repeat < repeats; repeat++) {
            boolean quireFirst = repeat % 2 == 0;
            pass(quireFirst ? "quire" : "jdk", data, quire, jdk, shape, folded, true);
            pass(quireFirst ? "jdk" : "quire", data, quire, jdk, shape, folded, true);
        }
        System.out.println("note digests summed " + Arrays.hashCode(folded));
    }

    private static void pass(String impl, byte[][] data, Method quire, MessageDigest jdk, long[] shape,
                             byte[] folded, boolean print) throws Exception {
        long start = System.nanoTime();
        for (byte[] chunk : data) {
            byte[] digest;
            if (impl.equals("quire")) {
                digest = (byte[]) quire.invoke(null, chunk, shape);
            } else {
                jdk.update(chunk);
                digest = jdk.digest();
            }
            for (int i = 0; i < digest.length; i++) {
                folded[i] += digest[i];
            }
        }
        long seconds = System.nanoTime() - start;
        if (print) {
            System.out.printf("result op=digest impl=%s bytes=%d seconds=%.6f%n", impl,
                    (long) data.length * data[0].length, seconds / 1e9);
        }
    }
}
