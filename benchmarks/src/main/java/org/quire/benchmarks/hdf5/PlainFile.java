package org.quire.benchmarks.hdf5;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The ceiling both libraries share: the same float64 elements written and read as plain
 * little-endian bytes with one positional write or read per chunk, no HDF5 structure at all.
 * What no HDF5 writer can beat by much on the same machine, so a ratio to libhdf5 above this
 * ceiling's own ratio is not reachable.
 */
final class PlainFile {

    private final ByteBuffer chunk;

    PlainFile(int chunkElements) {
        chunk = ByteBuffer.allocateDirect(chunkElements * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Writes {@code elements} elements (element i = i), chunk by chunk, replacing {@code file}. */
    void write(Path file, long elements) throws IOException {
        Files.deleteIfExists(file);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            int chunkElements = chunk.capacity() / Double.BYTES;
            for (long start = 0; start < elements; start += chunkElements) {
                chunk.clear();
                for (int i = 0; i < chunkElements; i++) {
                    chunk.putDouble(start + i);
                }
                chunk.flip();
                long position = start * Double.BYTES;
                while (chunk.hasRemaining()) {
                    position += channel.write(chunk, position);
                }
            }
        }
    }

    /** Reads {@code file} chunk by chunk, checking the first and last element of each. */
    void read(Path file, long elements) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            int chunkElements = chunk.capacity() / Double.BYTES;
            for (long start = 0; start < elements; start += chunkElements) {
                chunk.clear();
                long position = start * Double.BYTES;
                while (chunk.hasRemaining()) {
                    int read = channel.read(chunk, position);
                    if (read < 0) {
                        throw new IOException(file + " ends at byte " + position + ", expected "
                                + elements * Double.BYTES);
                    }
                    position += read;
                }
                if (chunk.getDouble(0) != start || chunk.getDouble(chunk.capacity() - Double.BYTES)
                        != start + chunkElements - 1) {
                    throw new IOException("read elements " + start + ".. of " + file + " wrong");
                }
            }
        }
    }
}
