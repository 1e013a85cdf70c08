package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * Data layout message (header message type 0x0008) of any layout class, specification section
 * IV.A.2.i; the chunked class is {@link DataLayoutMessage}.
 *
 * <pre>
 * versions 3 and 4:
 * +---------+--------------+-----------------------------------------------------------+
 * | version | layout class | class 0 (compact):    size (2) | raw data (size bytes)    |
 * | (3, 4)  |              | class 1 (contiguous): address (O) | size (L)              |
 * |         |              | class 2 (chunked), version 4: see DataLayoutMessage       |
 * |         |              | class 2, version 3: dimensionality (1), v1 B-tree address |
 * |         |              |   (O), chunk sizes (4 each), the last the element size   |
 * |         |              | class 3 (virtual), version 4: global heap collection      |
 * |         |              |   address (O) | object index (4): the mappings           |
 * +---------+--------------+-----------------------------------------------------------+
 * </pre>
 */
public sealed interface DataLayout permits DataLayout.Compact, DataLayout.Contiguous,
        DataLayout.Virtual, DataLayoutMessage {

    int CLASS_COMPACT = 0;
    int CLASS_CONTIGUOUS = 1;
    int CLASS_VIRTUAL = 3;
    /**
     * Header message type of the external data files message (IV.A.2.h): its presence means a
     * contiguous dataset's elements are in other files, which Quire does not read.
     */
    int EXTERNAL_DATA_FILES_MESSAGE_TYPE = 0x0007;

    /** The elements themselves, row-major. */
    record Compact(byte[] data) implements DataLayout {
    }

    /** The elements, row-major, in {@code size} bytes at {@code address} (undefined: unwritten). */
    record Contiguous(long address, long size) implements DataLayout {
        /** The version-3 message body, as libhdf5 writes it for a contiguous dataset. */
        public byte[] encode() {
            return new LittleEndianWriter().putByte(3).putByte(CLASS_CONTIGUOUS)
                    .putAddress(address).putLength(size).toByteArray();
        }
    }

    /**
     * Elements found through {@link VirtualMapping}s, stored as the global heap object
     * {@code index} of the collection at {@code heapAddress} (undefined, index 0: no mappings).
     */
    record Virtual(long heapAddress, int index) implements DataLayout {
        public byte[] encode() {
            return new LittleEndianWriter().putByte(4).putByte(CLASS_VIRTUAL)
                    .putAddress(heapAddress).putInt(index).toByteArray();
        }
    }

    static DataLayout decode(LittleEndianReader in)
            throws CorruptFileException, UnsupportedFormatException {
        long at = in.absolutePosition();
        int version = in.getUnsignedByte("version");
        int layoutClass = in.getUnsignedByte("layout class");
        if (layoutClass == DataLayoutMessage.CLASS_CHUNKED && version == 4) {
            return DataLayoutMessage.decodeChunked(in, at);
        }
        if (layoutClass == DataLayoutMessage.CLASS_CHUNKED && version == 3) {
            return DataLayoutMessage.decodeVersion3Chunked(in, at);
        }
        if ((version == 3 || version == 4) && layoutClass == CLASS_COMPACT) {
            int size = in.getUnsignedShort("compact data size");
            return new Compact(in.getBytes(size, "compact data"));
        }
        if ((version == 3 || version == 4) && layoutClass == CLASS_CONTIGUOUS) {
            return new Contiguous(in.getAddress("address"), in.getLength("size"));
        }
        if (version == 4 && layoutClass == CLASS_VIRTUAL) {
            return new Virtual(in.getAddress("global heap collection address"),
                    in.getInt("global heap object index"));
        }
        throw new UnsupportedFormatException(in.file(), "data layout message", at,
                "version " + version + ", class " + layoutClass,
                "versions 3 and 4 of classes 0 (compact), 1 (contiguous) and 2 (chunked), "
                        + "version 4 of class 3 (virtual)");
    }
}
