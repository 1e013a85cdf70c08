package org.quire.benchmarks;

import org.quire.format.sion.SionParallelWriter;
import org.quire.format.sion.SionWriteOptions;
import org.quire.runtime.local.LocalWorld;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Why one SION rank writes small records slower than a plain file: where the data area starts.
 *
 * <pre>
 * java -cp ... org.quire.benchmarks.SionBlockAlignment DIRECTORY MIB WRITE_KIB REPEATS
 * </pre>
 *
 * One process writes MIB MiB of zeros in writes of WRITE_KIB KiB into the page cache (no fsync),
 * four ways, interleaved, REPEATS times: a plain file from offset 0 (the baseline, as
 * file-per-process), a plain file from offset 4096 (as a SION data area that starts one 4 KiB
 * block in), and a one-task SION file with block size 4096 (what the file store reports here),
 * 65536, and the writer's default ({@code FS_BLOCK_SIZE_FROM_FILE_STORE}: the file store's block
 * size, at least 64 KiB). Prints a Markdown table of the medians and their ratios to the baseline.
 */
public final class SionBlockAlignment {

    private SionBlockAlignment() {
    }

    /** One way of writing {@code bytes} bytes into {@code file} in writes of {@code buffer}. */
    @FunctionalInterface
    private interface Writer {
        void write(Path file, ByteBuffer buffer, long bytes) throws IOException;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            System.err.println("usage: SionBlockAlignment DIRECTORY MIB WRITE_KIB REPEATS");
            System.exit(2);
        }
        Path directory = Path.of(args[0]);
        long bytes = Long.parseLong(args[1]) << 20;
        ByteBuffer buffer = ByteBuffer.allocateDirect(Integer.parseInt(args[2]) << 10);
        int repeats = Integer.parseInt(args[3]);

        Map<String, Writer> ways = new LinkedHashMap<>();
        ways.put("plain file from offset 0 (baseline)", (file, data, total) -> plainFile(file, data, total, 0));
        ways.put("plain file from offset 4096", (file, data, total) -> plainFile(file, data, total, 4096));
        ways.put("SION, block size 4096", (file, data, total) -> sion(file, data, total, 4096));
        ways.put("SION, block size 65536", (file, data, total) -> sion(file, data, total, 65536));
        ways.put("SION, default block size", (file, data, total) -> sion(file, data, total,
                SionParallelWriter.FS_BLOCK_SIZE_FROM_FILE_STORE));

        Map<String, List<Double>> rates = new LinkedHashMap<>();
        Path file = directory.resolve("alignment.bin");
        for (int repeat = 0; repeat <= repeats; repeat++) { // repeat 0 warms up, untimed
            for (Map.Entry<String, Writer> way : ways.entrySet()) {
                long start = System.nanoTime();
                way.getValue().write(file, buffer, bytes);
                double seconds = (System.nanoTime() - start) / 1e9;
                Files.delete(file);
                if (repeat > 0) {
                    rates.computeIfAbsent(way.getKey(), k -> new ArrayList<>()).add(bytes / 1048576.0 / seconds);
                }
            }
        }
        double baseline = median(rates.values().iterator().next());
        System.out.println("| write | MiB/s, median of " + repeats + " | ratio to offset 0 |");
        System.out.println("|---|---:|---:|");
        for (Map.Entry<String, List<Double>> way : rates.entrySet()) {
            double median = median(way.getValue());
            System.out.printf("| %s | %,.0f | %.2f |%n", way.getKey(), median, median / baseline);
        }
    }

    private static void plainFile(Path file, ByteBuffer buffer, long bytes, long start) throws IOException {
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long offset = 0; offset < bytes; offset += buffer.capacity()) {
                out.write(buffer.clear(), start + offset);
            }
        }
    }

    private static void sion(Path file, ByteBuffer buffer, long bytes, int blockSize) throws IOException {
        try (SionParallelWriter out = SionParallelWriter.open(file, LocalWorld.self(), 16L << 20, 1, blockSize,
                SionWriteOptions.defaults().withFsyncOnClose(false))) {
            for (long written = 0; written < bytes; written += buffer.capacity()) {
                out.write(buffer.clear());
            }
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }
}
