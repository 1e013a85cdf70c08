package org.quire.runtime;

import java.nio.ByteBuffer;

/**
 * The two messages of a worker's link to {@code quire run} (see {@link LauncherWatch}): the
 * worker's hello, its rank and an HMAC of the rank keyed by the job secret, so the launcher keeps
 * only links of its own ranks open; and the launcher's acknowledgement once it holds the link, so
 * a worker whose hello was dropped (a flood filled the launcher's listener) knows it and tries
 * again instead of taking the closed connection for the launcher's death.
 * <pre>
 *   hello            0: int rank (big-endian)
 *                    4: byte[32] HMAC-SHA256(secret, "quire launcher link", rank)
 *   acknowledgement  0: byte[32] HMAC-SHA256(secret, "quire launcher link held", rank)
 * </pre>
 */
public final class LauncherLinkHello {

    public static final int BYTES = Integer.BYTES + JobSecret.BYTES;
    public static final int ACKNOWLEDGEMENT_BYTES = JobSecret.BYTES;
    private static final String PURPOSE = "quire launcher link";
    private static final String HELD = "quire launcher link held";

    private LauncherLinkHello() {
    }

    public static byte[] encode(JobSecret secret, int rank) {
        byte[] rankBytes = ByteBuffer.allocate(Integer.BYTES).putInt(rank).array();
        return ByteBuffer.allocate(BYTES).put(rankBytes).put(secret.mac(PURPOSE, rankBytes)).array();
    }

    public static byte[] acknowledgement(JobSecret secret, int rank) {
        return secret.mac(HELD, ByteBuffer.allocate(Integer.BYTES).putInt(rank).array());
    }

    public static boolean isAcknowledgement(JobSecret secret, int rank, byte[] answer) {
        return answer.length == ACKNOWLEDGEMENT_BYTES
                && secret.verify(answer, HELD, ByteBuffer.allocate(Integer.BYTES).putInt(rank).array());
    }

    /** The rank in {@code hello}, or -1 when its MAC is not made with {@code secret}. */
    public static int verifiedRank(JobSecret secret, byte[] hello) {
        byte[] rankBytes = new byte[Integer.BYTES];
        byte[] mac = new byte[JobSecret.BYTES];
        ByteBuffer.wrap(hello).get(rankBytes).get(mac);
        return secret.verify(mac, PURPOSE, rankBytes) ? ByteBuffer.wrap(rankBytes).getInt() : -1;
    }
}
