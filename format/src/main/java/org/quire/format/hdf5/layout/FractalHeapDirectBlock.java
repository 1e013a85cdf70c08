package org.quire.format.hdf5.layout;

import java.io.IOException;
import java.util.Arrays;

import org.quire.format.ChecksumMismatchException;
import org.quire.format.CorruptFileException;

/**
 * Fractal heap direct block, specification section III.G ("Fractal Heap Direct Block"): the
 * bytes of managed objects.
 *
 * <pre>
 * +--------+---------+-------------------------+--------------------------------------+
 * | "FHDB" | version | heap header address (O) | block offset (heap offset size bytes)|
 * |        |   (0)   |                         |                                      |
 * +--------+---------+-------------------------+--------------------------------------+
 * | checksum (4, if the header's flags b1) | object data ... to the block size        |
 * +----------------------------------------+------------------------------------------+
 * </pre>
 *
 * The checksum covers the whole block with the checksum field taken as zeros. Objects are
 * addressed by offsets from the start of the block, prefix included.
 *
 * @param bytes the whole block as read
 */
public record FractalHeapDirectBlock(long address, long blockOffset, byte[] bytes) {

    public static final BlockIdentity IDENTITY =
            BlockIdentity.signed("fractal heap direct block", "FHDB", 0);

    /** Bytes before the first object in blocks of the heap {@code header} describes. */
    public static int prefixSize(FractalHeapHeader header) {
        return IDENTITY.prefixLength() + Addresses.SIZE_OF_OFFSETS
                + header.table().heapOffsetSize()
                + (header.directBlocksChecksummed() ? MetadataValidator.CHECKSUM_SIZE : 0);
    }

    /**
     * Reads the block of {@code size} bytes at {@code address} that the heap at
     * {@code headerAddress} places at {@code expectedOffset} of its address space, and verifies
     * signature, version, back pointer, offset and (if the heap has them) checksum.
     */
    public static FractalHeapDirectBlock read(BlockFile file, long address, long size,
                                              long headerAddress, FractalHeapHeader header,
                                              long expectedOffset) throws IOException {
        if (size < prefixSize(header) || size > FractalHeapDoublingTable.MAX_DIRECT_BLOCK_SIZE) {
            throw new CorruptFileException(file.path(), address, IDENTITY.structure(), "size",
                    prefixSize(header) + ".." + FractalHeapDoublingTable.MAX_DIRECT_BLOCK_SIZE,
                    Long.toString(size));
        }
        byte[] block = file.read(address, (int) size, IDENTITY.structure());
        MetadataValidator.verifyPrefix(file.path(), address, block, IDENTITY);
        LittleEndianReader in = file.reader(address, IDENTITY.structure(), block);
        if (header.directBlocksChecksummed()) {
            int checksumAt = prefixSize(header) - MetadataValidator.CHECKSUM_SIZE;
            in.skip(checksumAt);
            int stored = in.getInt("checksum");
            byte[] zeroed = block.clone();
            Arrays.fill(zeroed, checksumAt, checksumAt + MetadataValidator.CHECKSUM_SIZE,
                    (byte) 0);
            int computed = JenkinsLookup3.checksum(zeroed, 0, zeroed.length);
            if (stored != computed) {
                throw new ChecksumMismatchException(file.path(), address + checksumAt,
                        IDENTITY.structure(), stored, computed);
            }
            file.countVerified(IDENTITY);
            in = file.reader(address, IDENTITY.structure(), block);
        }
        in.skip(IDENTITY.prefixLength());
        long offset = FractalHeapIndirectBlock.checkOwner(in, headerAddress, header,
                expectedOffset);
        return new FractalHeapDirectBlock(address, offset, block);
    }
}
