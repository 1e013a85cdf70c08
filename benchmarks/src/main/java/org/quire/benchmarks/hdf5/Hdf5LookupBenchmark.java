package org.quire.benchmarks.hdf5;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import org.quire.benchmarks.PageCache;

import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Latency of reading one element at a random index of the files {@link Hdf5Throughput} left in
 * {@code directory} (element i holds i, and every lookup is checked), each library reading its own
 * file and the other's. The file stays open for the whole trial; it is read whole (untimed) before, so that
 * the page cache holds it (the throughput run dropped the page cache before its cold reads). {@code layout}: the fixed and extensible array files, unfiltered, and the
 * deflate-compressed one. {@code reader}: {@code quire} (default chunk cache, 1 MiB in 521 slots, which only
 * filtered chunks use: a lookup in an unfiltered chunk reads its 8 bytes), {@code libhdf5} (default chunk cache,
 * 1 MiB per dataset: a lookup that misses it reads and caches the whole chunk), {@code libhdf5-nocache}
 * ({@code H5Pset_chunk_cache(0, 0)}: a lookup in an unfiltered chunk reads 8 bytes, one in a compressed chunk
 * decompresses it whole).
 *
 * <pre>
 * java -cp ... org.openjdk.jmh.Main Hdf5LookupBenchmark -p directory=DIRECTORY
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class Hdf5LookupBenchmark {

    @Param("")
    public String directory;

    @Param({"fixed", "extensible", "deflate"})
    public String layout;

    @Param({"quire", "libhdf5"})
    public String writer;

    @Param({"quire", "libhdf5", "libhdf5-nocache"})
    public String reader;

    private Float64DatasetFile file;
    private long length;
    private final SplittableRandom random = new SplittableRandom(42);
    private final double[] element = new double[1];

    @Setup(Level.Trial)
    public void open() throws IOException {
        if (directory.isEmpty()) {
            throw new IllegalArgumentException("give the directory of Hdf5Throughput's files: -p directory=...");
        }
        Path path = DatasetLayout.named(layout).file(Path.of(directory), Hdf5Library.named(writer));
        PageCache.load(path);
        file = Hdf5Library.named(reader).open(path);
        length = file.length();
    }

    @Benchmark
    public double lookup() throws IOException {
        long index = random.nextLong(length);
        file.read(index, element);
        if (element[0] != index) {
            throw new IOException(reader + " read element " + index + " of " + writer + "'s " + layout + " file as "
                    + element[0]);
        }
        return element[0];
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        file.close();
    }
}
