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
 * Version-1 object header (specification section IV.A.1.a) and its continuation blocks, as
 * libhdf5 writes them by default. No signature and no checksum: the version, message sizes
 * (multiples of 8), bounds and the continuation chain are checked instead.
 *
 * <pre>
 * +---------+----------+---------------------+---------------------+-------------------+-----+
 * | version | reserved | total number of     | object reference    | object header     | pad |
 * |   (1)   |          | header messages (2) | count (4)           | size (4)          | (4) |
 * +---------+----------+---------------------+---------------------+-------------------+-----+
 * then "object header size" bytes of messages (chunk 0); a continuation block is messages only.
 * message: type (2), body size (2, a multiple of 8), flags (1), reserved (3), body
 * </pre>
 *
 * A writer changes such a header only in place, message bodies keeping their sizes ({@link
 * #patch}): it never grows nor gets a continuation block.
 */
public final class ObjectHeaderV1 {

    public static final int VERSION = 1;
    static final String STRUCTURE = "version 1 object header";
    static final String CONTINUATION_STRUCTURE = "version 1 object header continuation block";
    private static final int PREFIX_SIZE = 16;
    private static final int MESSAGE_HEADER_SIZE = 8;
    private static final int ALIGNMENT = 8;
    /** More chunks than this in one header is taken as a corrupt chain. */
    private static final int MAX_CHUNKS = 4096;

    private ObjectHeaderV1() {
    }

    /**
     * One block of a header as stored: chunk 0 (its 16-byte prefix included) or a continuation
     * block, its bytes, and its messages other than null and continuation messages.
     */
    public record StoredChunk(long address, byte[] image, List<HeaderMessage> messages) {
    }

    /**
     * Reads the header at {@code address} with all its continuation blocks and returns its
     * messages other than null and continuation messages, in order.
     */
    public static List<HeaderMessage> read(BlockFile file, long address) throws IOException {
        List<HeaderMessage> messages = new ArrayList<>();
        for (StoredChunk chunk : readChunks(file, address)) {
            messages.addAll(chunk.messages());
        }
        return messages;
    }

    /**
     * The image of {@code chunk} with the bodies of {@code messages}, each one of its messages
     * (by body address) with a new body of the same size.
     *
     * @throws IllegalArgumentException a message is not in the chunk, or changed size
     */
    public static byte[] patch(StoredChunk chunk, List<HeaderMessage> messages) {
        byte[] image = chunk.image().clone();
        for (HeaderMessage message : messages) {
            HeaderMessage stored = null;
            for (HeaderMessage candidate : chunk.messages()) {
                if (candidate.bodyAddress() == message.bodyAddress()) {
                    stored = candidate;
                }
            }
            if (stored == null || stored.type() != message.type()
                    || stored.body().length != message.body().length) {
                throw new IllegalArgumentException("message of type " + message.type() + " at "
                        + message.bodyAddress() + " (" + message.body().length + " bytes) is "
                        + "not one of the same type and size in the " + STRUCTURE + " block at "
                        + chunk.address());
            }
            System.arraycopy(message.body(), 0, image,
                    (int) (message.bodyAddress() - chunk.address()), message.body().length);
        }
        return image;
    }

    /** Reads the header at {@code address}: chunk 0, then its continuation blocks in order. */
    public static List<StoredChunk> readChunks(BlockFile file, long address) throws IOException {
        byte[] prefix = file.read(address, PREFIX_SIZE, STRUCTURE);
        LittleEndianReader in = file.reader(address, STRUCTURE, prefix);
        int version = in.getUnsignedByte("version");
        if (version != VERSION) {
            throw in.corrupt(address, "version", VERSION + " (or the signature \"OHDR\" of "
                    + "version 2)", Integer.toString(version));
        }
        in.skip(1);
        in.getUnsignedShort("total number of header messages");
        in.getInt("object reference count");
        long sizeAt = in.absolutePosition();
        long size = in.getInt("object header size") & 0xffffffffL;
        if (size % ALIGNMENT != 0 || size > Integer.MAX_VALUE - 8) {
            throw in.corrupt(sizeAt, "object header size", "a multiple of " + ALIGNMENT
                    + " that fits in memory", Long.toString(size));
        }
        List<StoredChunk> chunks = new ArrayList<>();
        Deque<ContinuationMessage> pending = new ArrayDeque<>();
        byte[] chunk = file.read(address, PREFIX_SIZE + (int) size, STRUCTURE);
        List<HeaderMessage> messages = new ArrayList<>();
        parseMessages(file, address + PREFIX_SIZE, STRUCTURE,
                Arrays.copyOfRange(chunk, PREFIX_SIZE, chunk.length), messages, pending);
        chunks.add(new StoredChunk(address, chunk, messages));
        file.countChecked(STRUCTURE);

        Set<Long> visited = new HashSet<>();
        visited.add(address);
        while (!pending.isEmpty()) {
            ContinuationMessage next = pending.removeFirst();
            if (!visited.add(next.address()) || visited.size() > MAX_CHUNKS) {
                throw new CorruptFileException(file.path(), next.address(),
                        CONTINUATION_STRUCTURE, "continuation offset",
                        "a block not yet part of the object header at " + address,
                        visited.size() > MAX_CHUNKS ? "more than " + MAX_CHUNKS + " blocks"
                                : "a cycle back to " + next.address());
            }
            if (next.length() > Integer.MAX_VALUE || next.length() % ALIGNMENT != 0) {
                throw new CorruptFileException(file.path(), next.address(),
                        CONTINUATION_STRUCTURE, "length", "a multiple of " + ALIGNMENT
                                + " that fits in memory", Long.toUnsignedString(next.length()));
            }
            byte[] block = file.read(next.address(), (int) next.length(), CONTINUATION_STRUCTURE);
            List<HeaderMessage> blockMessages = new ArrayList<>();
            parseMessages(file, next.address(), CONTINUATION_STRUCTURE, block, blockMessages,
                    pending);
            chunks.add(new StoredChunk(next.address(), block, blockMessages));
            file.countChecked(CONTINUATION_STRUCTURE);
        }
        return chunks;
    }

    private static void parseMessages(BlockFile file, long blockAddress, String structure,
                                      byte[] block, List<HeaderMessage> messages,
                                      Deque<ContinuationMessage> pending)
            throws CorruptFileException, UnsupportedFormatException {
        LittleEndianReader in = new LittleEndianReader(file.path(), blockAddress, structure,
                block);
        while (in.remaining() >= MESSAGE_HEADER_SIZE) {
            int type = in.getUnsignedShort("message type");
            long sizeAt = in.absolutePosition();
            int size = in.getUnsignedShort("message size");
            int flags = in.getUnsignedByte("message flags");
            in.skip(3);
            if (size % ALIGNMENT != 0) {
                throw in.corrupt(sizeAt, "message size", "a multiple of " + ALIGNMENT,
                        Integer.toString(size));
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
            } else if (type != ObjectHeaderV2.NULL_MESSAGE) {
                messages.add(new HeaderMessage(type, flags, body, bodyAddress));
            }
        }
        if (in.remaining() != 0) {
            throw in.corrupt(in.absolutePosition(), "messages", "messages filling the block",
                    in.remaining() + " bytes left over");
        }
    }
}
