package org.quire.format.hangar;

import java.util.Arrays;
import java.util.Objects;

/**
 * Where Hangar's local HDF5 backend ({@code HDF5_00}) stored one array: in file
 * {@code <uid>.hdf5}, collection dataset {@code "<collection>"}, row {@code index}, as the first
 * elements of that row, of shape {@code shape} (reference versioned-hdf5-layout.md §4).
 *
 * <p>{@link #parse} reads the three dialects Hangar wrote; {@link #format} writes v0.3's, the one
 * of Hangar's backend description, which has no checksum:
 * <pre>
 * v0.3  00:UID$DSET IDX*SHAPE            00:WzUtdu$3 199*20 2 3
 * v0.4  00:UID$XXH64$DSET IDX*SHAPE      00:rlUK3C$8067007c0f05c359$16 105*10 10
 * v0.5  00:UID:XXH64:DSET:IDX:SHAPE      00:rlUK3C:b89f873d3d153a9c:8:199:20 2 3
 * </pre>
 * SHAPE is the extents separated by single spaces, empty for a 0-d array.
 *
 * @param uid        the collection file's name without {@code .hdf5}: letters and digits
 * @param checksum   v0.4 and v0.5: the array's XXH64 (seed 0) as 16 lowercase hex digits;
 *                   null in v0.3 records
 * @param collection the collection dataset's number (its name in the file's root group)
 * @param index      the row of the collection dataset
 * @param shape      the array's shape (a copy is kept and handed out)
 */
public record LocatorRecord(String uid, String checksum, long collection, long index,
                            long[] shape) {

    /** The format code of the HDF5_00 backend, the text before the first ':' of a record. */
    public static final String FORMAT_CODE = "00";

    public LocatorRecord {
        if (uid.isEmpty() || !uid.chars().allMatch(LocatorRecordParser::isUidCharacter)) {
            throw new IllegalArgumentException("a UID is one or more ASCII letters and digits: '"
                    + uid + "'");
        }
        if (checksum != null && (checksum.length() != LocatorRecordParser.CHECKSUM_DIGITS
                || !checksum.chars().allMatch(LocatorRecordParser::isHexDigit))) {
            throw new IllegalArgumentException("a checksum is 16 lowercase hex digits: '"
                    + checksum + "'");
        }
        shape = shape.clone();
        if (collection < 0 || index < 0 || Arrays.stream(shape).anyMatch(extent -> extent < 0)) {
            throw new IllegalArgumentException("collection, index and extents must be >= 0: "
                    + collection + ", " + index + ", " + Arrays.toString(shape));
        }
    }

    /** A v0.3 record: no checksum. */
    public LocatorRecord(String uid, long collection, long index, long... shape) {
        this(uid, null, collection, index, shape);
    }

    /**
     * The record {@code text} holds, in any of Hangar's three dialects.
     *
     * @throws MalformedRecordException it is not a well-formed HDF5_00 record
     * @throws NullPointerException     {@code text} is null
     */
    public static LocatorRecord parse(String text) throws MalformedRecordException {
        return new LocatorRecordParser(text, null).parse();
    }

    /**
     * The record {@code text} holds, its shape checked against {@code schema}.
     *
     * @throws MalformedRecordException it is not a well-formed HDF5_00 record, or its shape has
     *                                  another rank than the schema's or an extent it does not admit
     */
    public static LocatorRecord parse(String text, SampleSchema schema)
            throws MalformedRecordException {
        return new LocatorRecordParser(text, schema).parse();
    }

    /** {@link #FORMAT_CODE}: the only backend these records address. */
    public String formatCode() {
        return FORMAT_CODE;
    }

    @Override public long[] shape() {
        return shape.clone();
    }

    /** This record in Hangar's v0.3 dialect, {@code 00:UID$DSET IDX*D0 D1 …} (no checksum). */
    public String format() {
        StringBuilder out = new StringBuilder(FORMAT_CODE).append(':').append(uid).append('$')
                .append(collection).append(' ').append(index).append('*');
        for (int i = 0; i < shape.length; i++) {
            out.append(i == 0 ? "" : " ").append(shape[i]);
        }
        return out.toString();
    }

    @Override public boolean equals(Object other) {
        return other instanceof LocatorRecord that && uid.equals(that.uid)
                && Objects.equals(checksum, that.checksum)
                && collection == that.collection && index == that.index
                && Arrays.equals(shape, that.shape);
    }

    @Override public int hashCode() {
        return Objects.hash(uid, checksum, collection, index, Arrays.hashCode(shape));
    }

    @Override public String toString() {
        return format() + (checksum == null ? "" : " (xxh64 " + checksum + ")");
    }
}
