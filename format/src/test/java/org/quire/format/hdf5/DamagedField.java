package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.quire.format.hdf5.layout.JenkinsLookup3;

/**
 * Damage that a checksum does not catch: a field of a metadata block changed and the block's
 * lookup3 checksum recomputed, as a writer with a bug (or a malicious file) would leave it.
 */
final class DamagedField {

    private DamagedField() {
    }

    /** The offset of the first occurrence of {@code pattern} in {@code bytes} from {@code from}. */
    static int indexOf(byte[] bytes, byte[] pattern, int from) {
        outer:
        for (int i = from; i + pattern.length <= bytes.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (bytes[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("pattern not found from offset " + from);
    }

    /**
     * A new {@code file} whose root has attributes "t" (the string "abc") and "n" (5), t's heap
     * ID then pointing at the root's own object header instead of its global heap collection;
     * returns the root's address.
     */
    static long stringAttributePointingAtTheRootHeader(Path file) throws IOException {
        long root;
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            root = hdf5.root().address();
            hdf5.root().setAttribute(Attribute.of("t", "abc"));
            hdf5.root().setAttribute(Attribute.of("n", 5));
        }
        byte[] bytes = Files.readAllBytes(file);
        int collection = indexOf(bytes, "GCOL".getBytes(StandardCharsets.US_ASCII), 0);
        byte[] id = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putInt(3)
                .putLong(collection).array();
        int at = indexOf(bytes, id, (int) root);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(at + 4, root);
        resealObjectHeader(bytes, (int) root);
        Files.write(file, bytes);
        return root;
    }

    /**
     * Recomputes the checksum of the version-2 object header chunk 0 at {@code address}
     * (specification section IV.A.1.b: signature, version, flags, optional times and phase
     * change values, the chunk size in 1, 2, 4 or 8 bytes, messages, checksum).
     */
    static void resealObjectHeader(byte[] bytes, int address) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int flags = bytes[address + 5] & 0xff;
        int at = address + 6 + ((flags & 0x20) != 0 ? 16 : 0) + ((flags & 0x10) != 0 ? 4 : 0);
        int width = 1 << (flags & 3);
        long size = 0;
        for (int i = width - 1; i >= 0; i--) {
            size = size << 8 | (bytes[at + i] & 0xff);
        }
        int checksumAt = at + width + (int) size;
        buffer.putInt(checksumAt, JenkinsLookup3.checksum(bytes, address, checksumAt - address));
    }
}
