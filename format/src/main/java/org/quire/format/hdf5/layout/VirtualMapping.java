package org.quire.format.hdf5.layout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.quire.format.ChecksumMismatchException;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * One mapping of a virtual dataset: the elements {@code source} selects in dataset
 * {@code sourceDataset} of file {@code sourceFile} ({@code "."}: the virtual dataset's own file)
 * appear where {@code virtual} selects in the virtual dataset. The mappings of a dataset are one
 * global heap object, specification section IV.A.2.i ("Global Heap Block for Virtual Dataset"),
 * version 0:
 *
 * <pre>
 * +-------------+------------------------------+
 * | version (0) | number of entries (L)        |
 * +-------------+------------------------------+
 * | per entry: source file name (NUL-terminated) | source dataset name (NUL-terminated)
 * |            source selection | virtual selection ({@link DataspaceSelection})
 * +--------------------------------------------------------------------------------------+
 * | checksum (4): lookup3 of every byte before it                                       |
 * +--------------------------------------------------------------------------------------+
 * </pre>
 */
public record VirtualMapping(String sourceFile, String sourceDataset, DataspaceSelection source,
                             DataspaceSelection virtual) {

    /** The source file name meaning "the file holding the virtual dataset". */
    public static final String SAME_FILE = ".";

    private static final int VERSION = 0;

    /** A mapping from dataset {@code sourceDataset} (an absolute path) of the same file. */
    public static VirtualMapping sameFile(String sourceDataset, DataspaceSelection source,
                                          DataspaceSelection virtual) {
        return new VirtualMapping(SAME_FILE, sourceDataset, source, virtual);
    }

    /**
     * Whether every "%" in {@code name} is written "%%", as libhdf5 requires of the names of a
     * mapping whose selections are bounded: it reads a lone "%" as a printf-style specifier
     * ("%b" of unlimited mappings) and refuses to open the dataset.
     */
    public static boolean percentsEscaped(String name) {
        for (int at = name.indexOf('%'); at >= 0; at = name.indexOf('%', at + 2)) {
            if (!name.startsWith("%%", at)) {
                return false;
            }
        }
        return true;
    }

    /** The heap object holding {@code mappings}. */
    public static byte[] encode(List<VirtualMapping> mappings) {
        LittleEndianWriter out = new LittleEndianWriter();
        out.putByte(VERSION).putLength(mappings.size());
        for (VirtualMapping mapping : mappings) {
            out.putBytes(mapping.sourceFile.getBytes(StandardCharsets.UTF_8)).putByte(0);
            out.putBytes(mapping.sourceDataset.getBytes(StandardCharsets.UTF_8)).putByte(0);
            out.putBytes(mapping.source.encode()).putBytes(mapping.virtual.encode());
        }
        return out.putChecksumFrom(0).toByteArray();
    }

    /**
     * The mappings in the heap object {@code object} of {@code file}; errors name the offset of
     * the field in the file, counted from where the object's bytes start.
     */
    public static List<VirtualMapping> decode(Path file, GlobalHeapObject object)
            throws CorruptFileException, UnsupportedFormatException {
        String structure = "virtual dataset mappings";
        long address = object.address();
        byte[] bytes = object.bytes();
        if (bytes.length < 13) {
            throw new CorruptFileException(file, address, structure, "size",
                    "at least 13 bytes", bytes.length + " bytes");
        }
        int checksumAt = bytes.length - MetadataValidator.CHECKSUM_SIZE;
        int stored = new LittleEndianReader(file, address, structure, bytes, checksumAt,
                MetadataValidator.CHECKSUM_SIZE).getInt("checksum");
        int computed = JenkinsLookup3.checksum(bytes, 0, checksumAt);
        if (stored != computed) {
            throw new ChecksumMismatchException(file, address + checksumAt, structure, stored,
                    computed);
        }
        LittleEndianReader in = new LittleEndianReader(file, address, structure, bytes, 0,
                checksumAt);
        int version = in.getUnsignedByte("version");
        if (version != VERSION) {
            throw new UnsupportedFormatException(file, structure, address, "version " + version,
                    "version 0 (libhdf5 1.10 to 1.14)");
        }
        int entries = in.getCount(8, in.remaining() / 34, "number of entries");
        List<VirtualMapping> mappings = new ArrayList<>(entries);
        DataspaceSelection.Expansion expansion = new DataspaceSelection.Expansion();
        for (int i = 0; i < entries; i++) {
            String sourceFile = cString(in, "source file name");
            String sourceDataset = cString(in, "source dataset name");
            DataspaceSelection source = DataspaceSelection.decode(in, expansion);
            DataspaceSelection virtual = DataspaceSelection.decode(in, expansion);
            mappings.add(new VirtualMapping(sourceFile, sourceDataset, source, virtual));
        }
        if (in.remaining() != 0) {
            throw in.corrupt(in.absolutePosition(), "end of entries", "the checksum",
                    in.remaining() + " more bytes");
        }
        return mappings;
    }

    private static String cString(LittleEndianReader in, String field)
            throws CorruptFileException {
        LittleEndianReader probe = in.duplicate();
        int length = 0;
        while (probe.remaining() > 0 && probe.getUnsignedByte(field) != 0) {
            length++;
        }
        if (probe.remaining() == 0 && length == in.remaining()) {
            throw in.corrupt(in.absolutePosition(), field, "a NUL-terminated name",
                    "no NUL before the end");
        }
        String name = in.getString(length, field);
        in.skip(1);
        return name;
    }
}
