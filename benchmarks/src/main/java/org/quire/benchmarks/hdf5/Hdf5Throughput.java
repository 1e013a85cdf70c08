package org.quire.benchmarks.hdf5;

import org.quire.benchmarks.PageCache;
import org.quire.format.hdf5.Hdf5File;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Write and read throughput of one chunked float64 dataset, Quire against libhdf5's own Java
 * binding in the same JVM and the same run, for {@code benchmarks/hdf5-throughput.sh}:
 *
 * <pre>
 * java -cp ... org.quire.benchmarks.hdf5.Hdf5Throughput DIRECTORY MIB REPEATS CHUNK_KIB
 * </pre>
 *
 * Per repeat, for each {@link DatasetLayout} (fixed array, extensible array), each library
 * writes {@code DIRECTORY/LAYOUT-LIBRARY.h5}: MIB MiB of float64, element i = i, one chunk of
 * CHUNK_KIB KiB per write call (the extensible dataset is extended before each). Timed: create to
 * close ({@code write}), and the same plus an fsync of the file afterwards ({@code write_fsync}):
 * neither library fsyncs by itself. Then each library reads each library's file whole, one chunk
 * per call, once after dropping the page cache ({@code read_cold}) and once more straight after
 * ({@code read_warm}); the first and last element of every chunk and the length are checked.
 * The previous repeat's file is deleted and dirty pages are written back (untimed) before each write; the libraries alternate which goes
 * first from one repeat to the next; an untimed warm-up of a few chunks per library and layout
 * comes first. After the libraries, the same bytes are written and read as a plain file ({@link PlainFile}:
 * library and file {@code plain}), the ceiling both share. One line per measurement, and at the end the chunk index
 * each file got as Quire reads it:
 *
 * <pre>
 * result op=write layout=fixed library=quire file=quire bytes=1073741824 seconds=1.234
 * result op=read_cold layout=fixed library=libhdf5 file=quire bytes=1073741824 seconds=0.567
 * index layout=fixed file=libhdf5 type=FIXED_ARRAY
 * </pre>
 *
 * The files of the last repeat are left for {@link Hdf5LookupBenchmark}, with one more per library, written
 * untimed at the end: {@link DatasetLayout#DEFLATE}, the first {@value #COMPRESSED_MIB} MiB of the same data
 * (or all of it, if less) with every chunk compressed.
 */
public final class Hdf5Throughput {

    private static final int WARM_UP_CHUNKS = 8;
    /** Size of the compressed dataset written for the lookups: enough chunks that random lookups rarely repeat one. */
    private static final long COMPRESSED_MIB = 128;
    private static final List<Hdf5Library> LIBRARIES = List.of(Hdf5Library.named("quire"), Hdf5Library.named("libhdf5"));

    private final Path directory;
    private final long length;
    private final int chunkElements;

    private Hdf5Throughput(Path directory, long length, int chunkElements) {
        if (chunkElements <= 0 || length <= 0 || length % chunkElements != 0) {
            throw new IllegalArgumentException("the dataset (" + length + " elements) must be a positive multiple of"
                    + " the chunk (" + chunkElements + " elements)");
        }
        this.directory = directory;
        this.length = length;
        this.chunkElements = chunkElements;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            throw new IllegalArgumentException("usage: Hdf5Throughput DIRECTORY MIB REPEATS CHUNK_KIB");
        }
        Hdf5Throughput benchmark = new Hdf5Throughput(Path.of(args[0]), Long.parseLong(args[1]) * 1024 * 1024 / 8,
                Integer.parseInt(args[3]) * 1024 / 8);
        int repeats = Integer.parseInt(args[2]);
        benchmark.warmUp();
        for (int repeat = 0; repeat < repeats; repeat++) {
            List<Hdf5Library> order = repeat % 2 == 0 ? LIBRARIES : List.of(LIBRARIES.get(1), LIBRARIES.get(0));
            for (DatasetLayout layout : DatasetLayout.UNFILTERED) {
                benchmark.run(layout, order);
            }
        }
        benchmark.writeCompressed();
        benchmark.printChunkIndexes();
    }

    /** Untimed: each library writes and reads a few chunks of each layout, so that class loading is not timed. */
    private void warmUp() throws IOException {
        Path file = directory.resolve("warm-up.h5");
        for (Hdf5Library library : LIBRARIES) {
            for (DatasetLayout layout : DatasetLayout.UNFILTERED) {
                write(library, file, layout, WARM_UP_CHUNKS * chunkElements);
                read(library, file, WARM_UP_CHUNKS * chunkElements);
            }
        }
        Files.delete(file);
    }

    private void run(DatasetLayout layout, List<Hdf5Library> order) throws IOException {
        for (Hdf5Library writer : order) {
            Path file = layout.file(directory, writer);
            // Untimed: freeing the previous repeat's 1 GiB of cached pages is not writing.
            Files.deleteIfExists(file);
            PageCache.flush();
            long start = System.nanoTime();
            write(writer, file, layout, length);
            long written = System.nanoTime();
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            long synced = System.nanoTime();
            report("write", layout, writer, writer, written - start);
            report("write_fsync", layout, writer, writer, synced - start);
        }
        runPlain(layout);
        for (Hdf5Library reader : order) {
            for (Hdf5Library writer : LIBRARIES) {
                Path file = layout.file(directory, writer);
                if (PageCache.drop()) {
                    report("read_cold", layout, reader, writer, timedRead(reader, file));
                } else {
                    System.out.println("note drop_caches refused: no cold read");
                }
                report("read_warm", layout, reader, writer, timedRead(reader, file));
            }
        }
    }

    /**
     * The same bytes as a plain file (no HDF5, {@link PlainFile}), written and read like the libraries' files:
     * reported as library {@code plain}.
     */
    private void runPlain(DatasetLayout layout) throws IOException {
        PlainFile plain = new PlainFile(chunkElements);
        Path file = directory.resolve(layout.label + "-plain.bin");
        PageCache.flush();
        long start = System.nanoTime();
        plain.write(file, length);
        long written = System.nanoTime();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        long synced = System.nanoTime();
        reportPlain("write", layout, written - start);
        reportPlain("write_fsync", layout, synced - start);
        if (PageCache.drop()) {
            long begin = System.nanoTime();
            plain.read(file, length);
            reportPlain("read_cold", layout, System.nanoTime() - begin);
        }
        long begin = System.nanoTime();
        plain.read(file, length);
        reportPlain("read_warm", layout, System.nanoTime() - begin);
        Files.delete(file);
    }

    private void reportPlain(String op, DatasetLayout layout, long nanos) {
        System.out.printf("result op=%s layout=%s library=plain file=plain bytes=%d seconds=%.6f%n", op,
                layout.label, length * Double.BYTES, nanos / 1e9);
    }

    private void write(Hdf5Library library, Path file, DatasetLayout layout, long elements) throws IOException {
        double[] slab = new double[chunkElements];
        try (Float64DatasetFile out = library.create(file, elements, chunkElements, layout)) {
            for (long start = 0; start < elements; start += chunkElements) {
                for (int i = 0; i < slab.length; i++) {
                    slab[i] = start + i;
                }
                out.write(start, slab);
            }
        }
    }

    /** Untimed: each library writes its {@link DatasetLayout#DEFLATE} file for the lookups, and reads it back whole. */
    private void writeCompressed() throws IOException {
        long elements = Math.min(length, COMPRESSED_MIB * 1024 * 1024 / Double.BYTES / chunkElements * chunkElements);
        for (Hdf5Library library : LIBRARIES) {
            Path file = DatasetLayout.DEFLATE.file(directory, library);
            write(library, file, DatasetLayout.DEFLATE, elements);
            for (Hdf5Library reader : LIBRARIES) {
                read(reader, file, elements);
            }
        }
    }

    private long timedRead(Hdf5Library library, Path file) throws IOException {
        long begin = System.nanoTime();
        read(library, file, length);
        return System.nanoTime() - begin;
    }

    private void read(Hdf5Library library, Path file, long elements) throws IOException {
        double[] slab = new double[chunkElements];
        try (Float64DatasetFile in = library.open(file)) {
            if (in.length() != elements) {
                throw new IOException(library.name() + " reads " + in.length() + " elements in " + file + ", wrote "
                        + elements);
            }
            for (long start = 0; start < elements; start += chunkElements) {
                in.read(start, slab);
                if (slab[0] != start || slab[slab.length - 1] != start + slab.length - 1) {
                    throw new IOException(library.name() + " read elements " + start + ".. of " + file + " as "
                            + slab[0] + ".." + slab[slab.length - 1]);
                }
            }
        }
    }

    private void report(String op, DatasetLayout layout, Hdf5Library library, Hdf5Library fileWriter, long nanos) {
        System.out.printf("result op=%s layout=%s library=%s file=%s bytes=%d seconds=%.6f%n", op, layout.label,
                library.name(), fileWriter.name(), length * Double.BYTES, nanos / 1e9);
    }

    private void printChunkIndexes() throws IOException {
        for (DatasetLayout layout : DatasetLayout.values()) {
            for (Hdf5Library writer : LIBRARIES) {
                try (Hdf5File file = Hdf5File.open(layout.file(directory, writer))) {
                    System.out.printf("index layout=%s file=%s type=%s%n", layout.label, writer.name(),
                            file.root().dataset(Float64DatasetFile.DATASET).chunkIndexType());
                }
            }
        }
    }
}
