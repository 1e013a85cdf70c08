package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Hdf5Verifier#verifySwmr} of a file a Quire SWMR writer is appending to while the
 * verification runs: every walk passes (chunks allocated after the walk started lie past the
 * file's size when it started, and are still inside the file).
 */
class Hdf5VerifierSwmrTest {

    /** Records per chunk: small, so that appends allocate new chunks often. */
    private static final int CHUNK_RECORDS = 16;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "batch {0}")
    @ValueSource(ints = {1, 64})
    void aFileBeingAppendedToVerifiesAtEveryWalk(int batch) throws Exception {
        Path path = dir.resolve("live-" + batch + ".h5");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong appended = new AtomicLong();
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        Thread writer;
        try (Hdf5File file = Hdf5File.create(path)) {
            // Several datasets: a walk takes long enough for the writer to commit meanwhile.
            Dataset[] datasets = new Dataset[4];
            for (int i = 0; i < datasets.length; i++) {
                datasets[i] = file.root().createDataset("d" + i, DatasetSpec.builder(
                        Datatype.UINT64, 0).maxShape(DatasetSpec.UNLIMITED)
                        .chunkShape(CHUNK_RECORDS).build());
            }
            file.startSwmrWrite();
            writer = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        long n = datasets[0].shape()[0];
                        ByteBuffer values = ByteBuffer.allocate(batch * Long.BYTES)
                                .order(ByteOrder.LITTLE_ENDIAN);
                        for (int r = 0; r < batch; r++) {
                            values.putLong(n + r);
                        }
                        values.flip();
                        for (Dataset d : datasets) {
                            d.extend(n + batch);
                            d.write(new long[] {n}, new long[] {batch}, values.duplicate());
                        }
                        file.flush();
                        appended.addAndGet(batch);
                    }
                } catch (Throwable e) {
                    writerFailure.set(e);
                }
            }, "swmr-writer");
            writer.start();
            try {
                int walks = 0;
                long deadline = System.nanoTime() + 4_000_000_000L;
                long checkedChunks = 0;
                while (System.nanoTime() < deadline && writerFailure.get() == null) {
                    VerificationReport report = Hdf5Verifier.verifySwmr(path);
                    assertEquals(4, report.datasets(), report.toString());
                    checkedChunks = Math.max(checkedChunks, report.chunks());
                    walks++;
                }
                if (writerFailure.get() != null) {
                    throw new AssertionError("the writer failed", writerFailure.get());
                }
                assertTrue(walks > 10, walks + " walks");
                assertTrue(checkedChunks > 40, "the walks saw the file grow: " + checkedChunks
                        + " chunks at most");
            } finally {
                stop.set(true);
                writer.join(30_000);
            }
        }
        assertTrue(appended.get() > 0);
    }
}
