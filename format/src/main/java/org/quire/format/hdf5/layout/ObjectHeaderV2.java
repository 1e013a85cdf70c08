package org.quire.format.hdf5.layout;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * Version-2 object header (specification section IV.A.1.b) and its continuation blocks.
 *
 * <pre>
 * chunk 0:
 * +--------+---------+-------+---------------------------+----------------------+
 * | "OHDR" | version | flags | times (16, if flags b5)   | max compact, min     |
 * |        |   (2)   |       | access/mod/change/birth   | dense (2+2, flags b4)|
 * +--------+---------+-------+---------------------------+----------------------+
 * | size of chunk 0 (1/2/4/8 bytes: flags b0-1) | messages ... gap | checksum  |
 * +---------------------------------------------+------------------+-----------+
 * continuation block (at the address a continuation message gives):
 * +--------+------------------------------+----------+
 * | "OCHK" | messages ... gap             | checksum |
 * +--------+------------------------------+----------+
 * message: type (1), body size (2), flags (1), creation order (2, if flags b2), body
 * </pre>
 *
 * "Size of chunk 0" counts the message bytes, gap included. Unused room is a null message
 * (type 0) or, when fewer than a message header's bytes remain, a gap.
 */
public final class ObjectHeaderV2 {

    public static final int MESSAGE_HEADER_SIZE = 4;
    public static final int NULL_MESSAGE = 0x0000;

    /** Bytes a continuation message takes in a chunk. */
    public static final int CONTINUATION_STORED_SIZE = MESSAGE_HEADER_SIZE + ContinuationMessage.SIZE;

    static final BlockIdentity CHUNK_ZERO = BlockIdentity.signed("object header", "OHDR", 2);
    static final BlockIdentity CONTINUATION = new BlockIdentity("object header continuation block",
            "OCHK".getBytes(java.nio.charset.StandardCharsets.US_ASCII), BlockIdentity.NO_VERSION);

    private static final int FLAG_CREATION_ORDER_TRACKED = 0x04;
    private static final int FLAG_PHASE_CHANGE_STORED = 0x10;
    private static final int FLAG_TIMES_STORED = 0x20;
    /** More chunks than this in one header is taken as a corrupt chain. */
    private static final int MAX_CHUNKS = 4096;

    private ObjectHeaderV2() {
    }

    /** Width of the "size of chunk 0" field Quire uses for a message area of {@code size}. */
    private static int sizeFieldCode(int size) {
        return size <= 0xff ? 0 : size <= 0xffff ? 1 : 2;
    }

    /** Bytes before the first message of chunk 0 with a message area of {@code capacity}. */
    public static int chunkZeroPrefixSize(int capacity) {
        return CHUNK_ZERO.prefixLength() + 1 + (1 << sizeFieldCode(capacity));
    }

    /** Total bytes of chunk 0 with a message area of {@code capacity}. */
    public static int chunkZeroSize(int capacity) {
        return chunkZeroPrefixSize(capacity) + capacity + MetadataValidator.CHECKSUM_SIZE;
    }

    /** Bytes before the first message of a continuation block. */
    public static int continuationPrefixSize() {
        return CONTINUATION.prefixLength();
    }

    /** Total bytes of a continuation block with a message area of {@code capacity}. */
    public static int continuationSize(int capacity) {
        return continuationPrefixSize() + capacity + MetadataValidator.CHECKSUM_SIZE;
    }

    /** The bytes before the first message of a new chunk 0 with {@code capacity} message bytes. */
    public static byte[] chunkZeroPrefix(int capacity) {
        int code = sizeFieldCode(capacity);
        LittleEndianWriter out = new LittleEndianWriter(chunkZeroPrefixSize(capacity));
        out.putBytes(CHUNK_ZERO.signature()).putByte(CHUNK_ZERO.version()).putByte(code)
                .putUnsigned(capacity, 1 << code);
        return out.toByteArray();
    }

    /** The bytes before the first message of a continuation block. */
    public static byte[] continuationPrefix() {
        return CONTINUATION.signature().clone();
    }

    /** Chunk 0 holding {@code messages}, padded to {@code capacity} message bytes. */
    public static byte[] encodeChunkZero(List<HeaderMessage> messages, int capacity) {
        return encodeChunk(chunkZeroPrefix(capacity), messages, capacity);
    }

    /** A continuation block holding {@code messages}, padded to {@code capacity} message bytes. */
    public static byte[] encodeContinuation(List<HeaderMessage> messages, int capacity) {
        return encodeChunk(continuationPrefix(), messages, capacity);
    }

    /**
     * A chunk (0 or a continuation block) whose bytes before the messages are {@code prefix}
     * (for chunk 0 of a header read from a file: kept as they were, times and all), holding
     * {@code messages} (without creation order fields), padded to {@code capacity} message bytes.
     */
    public static byte[] encodeChunk(byte[] prefix, List<HeaderMessage> messages, int capacity) {
        LittleEndianWriter out = new LittleEndianWriter(prefix.length + capacity
                + MetadataValidator.CHECKSUM_SIZE);
        out.putBytes(prefix);
        putMessages(out, messages, capacity);
        return out.putChecksumFrom(0).toByteArray();
    }

    private static void putMessages(LittleEndianWriter out, List<HeaderMessage> messages,
                                    int capacity) {
        int end = out.position() + capacity;
        for (HeaderMessage message : messages) {
            out.putByte(message.type()).putShort(message.body().length).putByte(message.flags())
                    .putBytes(message.body());
        }
        int room = end - out.position();
        if (room < 0) {
            throw new IllegalArgumentException("messages need " + (capacity - room)
                    + " bytes; the chunk holds " + capacity);
        }
        if (room >= MESSAGE_HEADER_SIZE) {
            out.putByte(NULL_MESSAGE).putShort(room - MESSAGE_HEADER_SIZE).putByte(0);
            room -= MESSAGE_HEADER_SIZE;
        }
        out.putZeros(room);
    }

    /**
     * One chunk of a stored header: its address, the bytes before its messages, the size of its
     * message area, its messages other than null messages (continuation messages included), in
     * order, and the whole block as read and verified.
     */
    public record StoredChunk(long address, byte[] prefix, int capacity,
                              List<HeaderMessage> messages, byte[] image) {

        public int size() {
            return prefix.length + capacity + MetadataValidator.CHECKSUM_SIZE;
        }
    }

    /**
     * Whether {@code chunk}'s first message is a null message of {@code bodySize} body bytes
     * (headers without creation order fields): the room a writer keeps at the start of a
     * continuation block for the continuation message to the next one.
     */
    public static boolean startsWithNullMessage(StoredChunk chunk, int bodySize) {
        byte[] image = chunk.image();
        int at = chunk.prefix().length;
        return chunk.capacity() >= MESSAGE_HEADER_SIZE + bodySize
                && (image[at] & 0xff) == NULL_MESSAGE
                && ((image[at + 1] & 0xff) | (image[at + 2] & 0xff) << 8) == bodySize;
    }

    /**
     * A stored header's chunks in the order they are read (chunk 0, then continuation blocks
     * as their messages are met), and whether its messages carry creation order fields.
     */
    public record StoredHeader(boolean creationOrderTracked, List<StoredChunk> chunks) {
    }

    /**
     * Reads the object header at {@code address} with all its continuation blocks, verifying
     * each, and returns its messages other than null and continuation messages, in order.
     */
    public static List<HeaderMessage> read(BlockFile file, long address) throws IOException {
        return messages(readChunks(file, address));
    }

    /** The messages of {@code header} other than null and continuation messages, in order. */
    public static List<HeaderMessage> messages(StoredHeader header) {
        List<HeaderMessage> messages = new ArrayList<>();
        for (StoredChunk chunk : header.chunks()) {
            for (HeaderMessage message : chunk.messages()) {
                if (message.type() != ContinuationMessage.TYPE) {
                    messages.add(message);
                }
            }
        }
        return messages;
    }

    /**
     * Reads the object header at {@code address} chunk by chunk, verifying each (what a writer
     * that reopens a file changes in place).
     */
    public static StoredHeader readChunks(BlockFile file, long address) throws IOException {
        List<StoredChunk> chunks = new ArrayList<>();
        Deque<ContinuationMessage> pending = new ArrayDeque<>();
        Set<Long> visited = new HashSet<>();
        visited.add(address);

        byte[] prefix = file.read(address, CHUNK_ZERO.prefixLength() + 1, CHUNK_ZERO.structure());
        MetadataValidator.verifyPrefix(file.path(), address, prefix, CHUNK_ZERO);
        int flags = prefix[CHUNK_ZERO.prefixLength()] & 0xff;
        int optional = ((flags & FLAG_TIMES_STORED) != 0 ? 16 : 0)
                + ((flags & FLAG_PHASE_CHANGE_STORED) != 0 ? 4 : 0);
        int sizeWidth = 1 << (flags & 3);
        int headerSize = prefix.length + optional + sizeWidth;
        byte[] header = file.read(address, headerSize, CHUNK_ZERO.structure());
        LittleEndianReader sizeField = file.reader(address, CHUNK_ZERO.structure(), header);
        sizeField.skip(headerSize - sizeWidth);
        long capacity = sizeField.getUnsigned(sizeWidth, "size of chunk 0");
        if (capacity > Integer.MAX_VALUE - headerSize - MetadataValidator.CHECKSUM_SIZE) {
            throw sizeField.corrupt(address + headerSize - sizeWidth, "size of chunk 0",
                    "a chunk that fits in memory", Long.toUnsignedString(capacity));
        }
        int total = headerSize + (int) capacity + MetadataValidator.CHECKSUM_SIZE;
        byte[] chunk = file.readVerified(address, total, CHUNK_ZERO);
        boolean creationOrder = (flags & FLAG_CREATION_ORDER_TRACKED) != 0;
        chunks.add(new StoredChunk(address, Arrays.copyOf(chunk, headerSize), (int) capacity,
                parseMessages(file, address, CHUNK_ZERO.structure(), chunk, headerSize,
                        creationOrder, pending), chunk));

        while (!pending.isEmpty()) {
            ContinuationMessage next = pending.removeFirst();
            if (!visited.add(next.address()) || visited.size() > MAX_CHUNKS) {
                throw new CorruptFileException(file.path(), next.address(),
                        CONTINUATION.structure(), "continuation offset",
                        "a block not yet part of the object header at " + address,
                        visited.size() > MAX_CHUNKS ? "more than " + MAX_CHUNKS + " blocks"
                                : "a cycle back to " + next.address());
            }
            int minimum = CONTINUATION.prefixLength() + MetadataValidator.CHECKSUM_SIZE;
            if (next.length() < minimum || next.length() > Integer.MAX_VALUE) {
                throw new CorruptFileException(file.path(), next.address(),
                        CONTINUATION.structure(), "length", "at least " + minimum + " bytes",
                        Long.toUnsignedString(next.length()));
            }
            byte[] block = file.readVerified(next.address(), (int) next.length(), CONTINUATION);
            chunks.add(new StoredChunk(next.address(), continuationPrefix(),
                    block.length - minimum, parseMessages(file, next.address(),
                            CONTINUATION.structure(), block, CONTINUATION.prefixLength(),
                            creationOrder, pending), block));
        }
        return new StoredHeader(creationOrder, chunks);
    }

    private static List<HeaderMessage> parseMessages(BlockFile file, long blockAddress,
                                                     String structure, byte[] block, int start,
                                                     boolean creationOrder,
                                                     Deque<ContinuationMessage> pending)
            throws CorruptFileException, UnsupportedFormatException {
        List<HeaderMessage> messages = new ArrayList<>();
        int headerSize = MESSAGE_HEADER_SIZE + (creationOrder ? 2 : 0);
        LittleEndianReader in = new LittleEndianReader(file.path(), blockAddress, structure, block,
                start, block.length - start - MetadataValidator.CHECKSUM_SIZE);
        while (in.remaining() >= headerSize) {
            int type = in.getUnsignedByte("message type");
            int size = in.getUnsignedShort("message size");
            int flags = in.getUnsignedByte("message flags");
            if (creationOrder) {
                in.getUnsignedShort("message creation order");
            }
            long bodyAddress = in.absolutePosition();
            byte[] body = in.getBytes(size, "message body");
            // A shared datatype names a committed datatype (a SharedMessage); the
            // readers of datatype messages resolve it. Other shared messages are not read.
            if ((flags & HeaderMessage.FLAG_SHARED) != 0 && type != DatatypeMessage.TYPE) {
                throw new UnsupportedFormatException(file.path(), "header message", bodyAddress,
                        "message of type " + type + " shared (flag set)",
                        "unshared messages and shared datatypes");
            }
            if (type == ContinuationMessage.TYPE) {
                pending.addLast(ContinuationMessage.decode(new LittleEndianReader(file.path(),
                        bodyAddress, structure, body)));
            }
            if (type != NULL_MESSAGE) {
                messages.add(new HeaderMessage(type, flags, body, bodyAddress));
            }
        }
        return messages;
    }
}
