package org.quire.format.hdf5.layout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * Filter pipeline message (header message type 0x000B), specification section IV.A.2.l.
 *
 * <pre>
 * version 2:
 * +---------+-----------+
 * | version | # filters |  then per filter:
 * +---------+-----------+
 * +-----------+------------------------------+--------+------------------+----------+-------------------+
 * | id (2)    | name length (2, if id >= 256)| flags  | # client values  | name     | client values     |
 * |           |                              | (2)    | (2)              | (if any) | (4 each)          |
 * +-----------+------------------------------+--------+------------------+----------+-------------------+
 * version 1: version, # filters, 6 reserved; per filter id, name length, flags, # values (2 each),
 *            name padded to a multiple of 8, values, 4 bytes of padding if # values is odd
 * </pre>
 */
public record FilterPipelineMessage(List<Entry> filters) {

    public static final int TYPE = 0x000B;

    /** Identifiers below this are libhdf5's own filters, stored without a name in version 2. */
    private static final int FIRST_NAMED_ID = 256;

    /**
     * One filter of the pipeline, in application order.
     *
     * @param name the filter's name (ASCII), or null for none; written only for identifiers from
     *             256, as libhdf5 writes version 2
     */
    public record Entry(int id, int flags, String name, int[] clientData) {

        /** A filter without a name. */
        public Entry(int id, int flags, int[] clientData) {
            this(id, flags, null, clientData);
        }
    }

    public byte[] encode() {
        LittleEndianWriter out = new LittleEndianWriter();
        out.putByte(2).putByte(filters.size());
        for (Entry filter : filters) {
            // The name with its NUL terminator, unpadded in version 2.
            byte[] name = filter.name() == null || filter.id() < FIRST_NAMED_ID ? new byte[0]
                    : (filter.name() + "\0").getBytes(StandardCharsets.US_ASCII);
            out.putShort(filter.id());
            if (filter.id() >= FIRST_NAMED_ID) {
                out.putShort(name.length);
            }
            out.putShort(filter.flags()).putShort(filter.clientData().length);
            out.putBytes(name);
            for (int value : filter.clientData()) {
                out.putInt(value);
            }
        }
        return out.toByteArray();
    }

    public static FilterPipelineMessage decode(LittleEndianReader in)
            throws CorruptFileException, UnsupportedFormatException {
        long at = in.absolutePosition();
        int version = in.getUnsignedByte("version");
        if (version != 1 && version != 2) {
            throw new UnsupportedFormatException(in.file(), "filter pipeline message", at,
                    "version " + version, "versions 1 and 2");
        }
        int count = in.getCount(1, 32, "number of filters");
        if (version == 1) {
            in.skip(6);
        }
        List<Entry> filters = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int id = in.getUnsignedShort("filter identifier");
            int nameLength = version == 1 || id >= FIRST_NAMED_ID
                    ? in.getUnsignedShort("name length") : 0;
            int flags = in.getUnsignedShort("flags");
            int values = in.getUnsignedShort("number of client data values");
            String name = null;
            if (nameLength > 0) {
                int padded = version == 1 ? (nameLength + 7) / 8 * 8 : nameLength;
                name = nulTerminated(in.getBytes(padded, "filter name"));
            }
            int[] clientData = new int[values];
            for (int v = 0; v < values; v++) {
                clientData[v] = in.getInt("client data");
            }
            if (version == 1 && values % 2 != 0) {
                in.skip(4);
            }
            filters.add(new Entry(id, flags, name, clientData));
        }
        return new FilterPipelineMessage(filters);
    }

    /** The ASCII text before the first NUL (the whole field if there is none). */
    private static String nulTerminated(byte[] field) {
        int end = 0;
        while (end < field.length && field[end] != 0) {
            end++;
        }
        return new String(field, 0, end, StandardCharsets.US_ASCII);
    }
}
