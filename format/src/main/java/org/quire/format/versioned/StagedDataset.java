package org.quire.format.versioned;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Filter;

/**
 * A dataset of a version being staged. Until it is written or resized it is its parent's
 * chunks, unread; the first change reads the parent version's values into memory (the whole
 * dataset: at most 2^31 - 1 bytes), and every chunk a change touches is hashed and stored at
 * commit, the others keep their parent's slots. Chunks never written (a sparse dataset) stay
 * unmapped and read as the fill value.
 */
public final class StagedDataset {

    /** The largest byte array HotSpot allocates (2^31 - 9): the most a staged dataset holds. */
    static final long MAX_BYTES = Integer.MAX_VALUE - 8;

    private final String path;
    private final Datatype type;
    private final long[] chunks;
    private final byte[] fill;
    private final List<Filter> filters;
    private long[] shape;
    /** Chunk origin to the raw_data row its parent's slot starts at, for chunks not changed. */
    private final Map<List<Long>, Long> parentSlots;
    private final Set<List<Long>> changed = new HashSet<>();
    private final Map<String, Attribute> attributes = new LinkedHashMap<>();
    /** The parent version's dataset, read on the first change; null for a new dataset. */
    private final Dataset parentView;
    private byte[] values;

    StagedDataset(String path, Datatype type, long[] shape, long[] chunks, byte[] fill,
                  List<Filter> filters, Map<List<Long>, Long> parentSlots, Dataset parentView) {
        this.path = path;
        this.type = type;
        this.shape = shape.clone();
        this.chunks = chunks.clone();
        this.fill = fill.clone();
        this.filters = List.copyOf(filters);
        this.parentSlots = new HashMap<>(parentSlots);
        this.parentView = parentView;
    }

    public String path() {
        return path;
    }

    public Datatype type() {
        return type;
    }

    public long[] shape() {
        return shape.clone();
    }

    public long[] chunkShape() {
        return chunks.clone();
    }

    /** The fill value's bytes in the type's encoding. */
    public byte[] fillValue() {
        return fill.clone();
    }

    List<Filter> filters() {
        return filters;
    }

    /** The box {@code start}/{@code count}, as staged so far, in C order (the type's bytes). */
    public byte[] read(long[] start, long[] count) throws IOException {
        checkBox(start, count);
        load();
        return grid().copyOut(values, start, count);
    }

    /** Writes {@code elements} (C order, the type's bytes) into the box {@code start}/{@code count}. */
    public void write(long[] start, long[] count, byte[] elements) throws IOException {
        checkBox(start, count);
        if (elements.length != ChunkGrid.elements(count) * type.size()) {
            throw new IllegalArgumentException(path + ": " + elements.length + " bytes for "
                    + ChunkGrid.elements(count) + " elements of " + type.size());
        }
        load();
        grid().copyIn(values, start, count, elements);
        for (long[] origin : grid().origins()) {
            if (overlaps(origin, start, count)) {
                changed.add(ChunkGrid.key(origin));
            }
        }
    }

    /** Writes 8-byte integers (the dataset's type must be one). */
    public void write(long[] start, long[] count, long[] elements) throws IOException {
        requireEightBytes(Datatype.IntegerType.class);
        ByteBuffer bytes = ByteBuffer.allocate(elements.length * 8).order(type.byteOrder());
        bytes.asLongBuffer().put(elements);
        write(start, count, bytes.array());
    }

    /** Writes 8-byte floats (the dataset's type must be one). */
    public void write(long[] start, long[] count, double[] elements) throws IOException {
        requireEightBytes(Datatype.FloatType.class);
        ByteBuffer bytes = ByteBuffer.allocate(elements.length * 8).order(type.byteOrder());
        bytes.asDoubleBuffer().put(elements);
        write(start, count, bytes.array());
    }

    /** Writes the whole dataset. */
    public void writeAll(byte[] elements) throws IOException {
        write(new long[shape.length], shape, elements);
    }

    /**
     * Changes the shape, each size up or down (reference note §1.6): what is cut off is gone,
     * new elements read as the fill value; only chunks whose extent changed get new slots.
     */
    public void resize(long... newShape) throws IOException {
        if (newShape.length != shape.length) {
            throw new IllegalArgumentException(path + ": shape of rank " + newShape.length
                    + " for a dataset of rank " + shape.length);
        }
        for (long extent : newShape) {
            if (extent < 0) {
                throw new IllegalArgumentException(path + ": negative size in " + Arrays.toString(newShape));
            }
        }
        load();
        long[] overlap = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            overlap[d] = Math.min(shape[d], newShape[d]);
        }
        byte[] kept = grid().copyOut(values, new long[shape.length], overlap);
        ChunkGrid before = grid();
        shape = newShape.clone();
        values = filled(shape);
        grid().copyIn(values, new long[shape.length], overlap, kept);
        ChunkGrid after = grid();
        Set<List<Long>> inside = new HashSet<>();
        for (long[] origin : after.origins()) {
            inside.add(ChunkGrid.key(origin));
        }
        parentSlots.keySet().retainAll(inside);
        changed.retainAll(inside);
        for (List<Long> key : Set.copyOf(parentSlots.keySet())) {
            long[] origin = ChunkGrid.origin(key);
            if (!Arrays.equals(before.trimmed(origin), after.trimmed(origin))) {
                parentSlots.remove(key);
                changed.add(key);
            }
        }
    }

    public void setAttribute(Attribute attribute) {
        attributes.put(attribute.name(), attribute);
    }

    public void deleteAttribute(String name) {
        if (attributes.remove(name) == null) {
            throw new NoSuchElementException(path + " has no attribute \"" + name + "\"");
        }
    }

    public Map<String, Attribute> attributes() {
        return Map.copyOf(attributes);
    }

    Map<String, Attribute> orderedAttributes() {
        return attributes;
    }

    /** Chunks whose slots the parent's mappings give, unchanged. */
    Map<List<Long>, Long> parentSlots() {
        return parentSlots;
    }

    /** Chunks changed in this version: hashed and stored at commit. */
    Set<List<Long>> changed() {
        return changed;
    }

    /** The elements of the changed chunk at {@code origin}, trimmed, in C order. */
    byte[] chunk(long[] origin) {
        return grid().copyOut(values, origin, grid().trimmed(origin));
    }

    ChunkGrid grid() {
        return new ChunkGrid(shape, chunks, type.size());
    }

    private void load() throws IOException {
        if (values != null) {
            return;
        }
        values = filled(shape);
        if (parentView != null && !parentSlots.isEmpty()) {
            parentView.read(new long[shape.length], shape,
                    ByteBuffer.wrap(values).order(type.byteOrder()));
        }
    }

    private byte[] filled(long[] extent) {
        long bytes = ChunkGrid.elements(extent) * type.size();
        if (bytes > MAX_BYTES) {
            throw new IllegalArgumentException(path + ": " + bytes + " bytes staged in memory; "
                    + "a staged dataset holds at most 2^31 - 9 (" + MAX_BYTES + ")");
        }
        byte[] filled = new byte[(int) bytes];
        for (int at = 0; at < filled.length; at += fill.length) {
            System.arraycopy(fill, 0, filled, at, fill.length);
        }
        return filled;
    }

    private boolean overlaps(long[] origin, long[] start, long[] count) {
        for (int d = 0; d < shape.length; d++) {
            if (count[d] == 0 || origin[d] >= start[d] + count[d] || origin[d] + chunks[d] <= start[d]) {
                return false;
            }
        }
        return true;
    }

    private void checkBox(long[] start, long[] count) {
        boolean inside = start.length == shape.length && count.length == shape.length;
        for (int d = 0; inside && d < shape.length; d++) {
            inside = start[d] >= 0 && count[d] >= 0 && start[d] + count[d] <= shape[d];
        }
        if (!inside) {
            throw new IndexOutOfBoundsException(path + ": box start " + Arrays.toString(start)
                    + " count " + Arrays.toString(count) + " outside the shape " + Arrays.toString(shape));
        }
    }

    private void requireEightBytes(Class<? extends Datatype> kind) {
        if (!kind.isInstance(type) || type.size() != 8) {
            throw new IllegalArgumentException(path + ": a " + kind.getSimpleName()
                    + " array for a dataset of " + type);
        }
    }

    static byte[] orZeros(byte[] fill, Datatype type) {
        return fill == null ? new byte[type.size()] : fill;
    }
}
