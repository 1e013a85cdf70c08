package org.quire.format.versioned;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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
 * A dataset of a version being staged, held chunk by chunk: its parent's mapping of chunks to
 * raw_data slots, and the chunks a change touched, each read from its parent's slot (or made
 * of the fill value) when first touched. Memory is bounded by the touched chunks, not the
 * dataset. At commit the touched chunks are hashed and stored, the others keep their parent's
 * slots. Chunks never written (a sparse dataset) stay unmapped and read as the fill value.
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
    /**
     * Chunk origin to the chunks touched in this version, each a whole chunk of the chunk
     * shape in C order; elements past the dataset's edge are the fill value.
     */
    private final Map<List<Long>, byte[]> touched = new HashMap<>();
    private final Map<String, Attribute> attributes = new LinkedHashMap<>();
    /** The parent version's dataset, read a chunk at a time; null for a new dataset. */
    private final Dataset parentView;

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
        ChunkGrid box = new ChunkGrid(count, count, type.size());
        byte[] elements = filled(ChunkGrid.elements(count) * type.size());
        for (long[] origin : grid().origins(start, count)) {
            List<Long> key = ChunkGrid.key(origin);
            long[] from = new long[start.length];
            long[] common = new long[start.length];
            long[] inBox = new long[start.length];
            intersect(origin, start, count, from, common, inBox);
            byte[] part;
            if (touched.containsKey(key)) {
                part = chunkGrid().copyOut(touched.get(key), minus(from, origin), common);
            } else if (parentSlots.containsKey(key)) {
                part = readParent(from, common);
            } else {
                continue;
            }
            box.copyIn(elements, inBox, common, part);
        }
        return elements;
    }

    /** Writes {@code elements} (C order, the type's bytes) into the box {@code start}/{@code count}. */
    public void write(long[] start, long[] count, byte[] elements) throws IOException {
        checkBox(start, count);
        if (elements.length != ChunkGrid.elements(count) * type.size()) {
            throw new IllegalArgumentException(path + ": " + elements.length + " bytes for "
                    + ChunkGrid.elements(count) + " elements of " + type.size());
        }
        ChunkGrid box = new ChunkGrid(count, count, type.size());
        for (long[] origin : grid().origins(start, count)) {
            long[] from = new long[start.length];
            long[] common = new long[start.length];
            long[] inBox = new long[start.length];
            intersect(origin, start, count, from, common, inBox);
            boolean whole = Arrays.equals(common, grid().trimmed(origin));
            byte[] chunk = whole ? touchedFilled(origin) : touch(origin);
            // A box inside one chunk is its own part: no copy of it first.
            byte[] part = Arrays.equals(common, count) ? elements : box.copyOut(elements, inBox, common);
            chunkGrid().copyIn(chunk, minus(from, origin), common, part);
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
        ChunkGrid before = grid();
        ChunkGrid after = new ChunkGrid(newShape, chunks, type.size());
        List<List<Long>> keys = new ArrayList<>(parentSlots.keySet());
        keys.addAll(touched.keySet());
        for (List<Long> key : keys) {
            long[] origin = ChunkGrid.origin(key);
            if (!after.isOrigin(origin)) {
                parentSlots.remove(key);
                touched.remove(key);
            } else if (!Arrays.equals(before.trimmed(origin), after.trimmed(origin))) {
                // The edge moved through this chunk: what is cut off is gone for good, so the
                // chunk is stored again with the fill value past the new edge.
                fillPast(touch(origin), after.trimmed(origin));
            }
        }
        shape = newShape.clone();
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

    /**
     * The origins of the chunks this version maps, in C order: those kept from the parent and
     * those changed; never the chunks of a sparse dataset nobody wrote.
     */
    List<long[]> mappedOrigins() {
        List<List<Long>> keys = new ArrayList<>(parentSlots.keySet());
        keys.addAll(touched.keySet());
        keys.sort(StagedDataset::compareInCOrder);
        List<long[]> origins = new ArrayList<>(keys.size());
        for (List<Long> key : keys) {
            origins.add(ChunkGrid.origin(key));
        }
        return origins;
    }

    private static int compareInCOrder(List<Long> a, List<Long> b) {
        for (int d = 0; d < a.size(); d++) {
            int order = Long.compare(a.get(d), b.get(d));
            if (order != 0) {
                return order;
            }
        }
        return 0;
    }

    /** Chunks changed in this version: hashed and stored at commit. */
    Set<List<Long>> changed() {
        return touched.keySet();
    }

    /**
     * The elements of the changed chunk at {@code origin}, trimmed, in C order: the staged
     * buffer itself for a chunk inside the edge (not to be changed), a copy otherwise.
     */
    byte[] chunk(long[] origin) {
        byte[] whole = touched.get(ChunkGrid.key(origin));
        long[] trimmed = grid().trimmed(origin);
        return Arrays.equals(trimmed, chunks) ? whole
                : chunkGrid().copyOut(whole, new long[origin.length], trimmed);
    }

    ChunkGrid grid() {
        return new ChunkGrid(shape, chunks, type.size());
    }

    /** A whole chunk's buffer, laid out in the chunk shape. */
    private ChunkGrid chunkGrid() {
        return new ChunkGrid(chunks, chunks, type.size());
    }

    /**
     * The touched chunk at {@code origin}, touching it now if needed: its parent's elements
     * (one chunk read from the parent version) or the fill value.
     */
    private byte[] touch(long[] origin) throws IOException {
        List<Long> key = ChunkGrid.key(origin);
        byte[] chunk = touched.get(key);
        if (chunk != null) {
            return chunk;
        }
        boolean inParent = parentSlots.containsKey(key);
        chunk = touchedFilled(origin);
        if (inParent) {
            long[] trimmed = grid().trimmed(origin);
            chunkGrid().copyIn(chunk, new long[origin.length], trimmed,
                    readParent(origin, trimmed));
        }
        return chunk;
    }

    /** Touches the chunk at {@code origin} as the fill value alone (about to be overwritten). */
    private byte[] touchedFilled(long[] origin) {
        List<Long> key = ChunkGrid.key(origin);
        parentSlots.remove(key);
        byte[] chunk = filled(ChunkGrid.elements(chunks) * type.size());
        touched.put(key, chunk);
        return chunk;
    }

    private byte[] readParent(long[] start, long[] count) throws IOException {
        ByteBuffer read = parentView.read(start, count);
        byte[] bytes = new byte[read.remaining()];
        read.get(bytes);
        return bytes;
    }

    /** Sets the elements of {@code chunk} outside the box {@code kept} at its corner to the fill. */
    private void fillPast(byte[] chunk, long[] kept) {
        byte[] keptElements = chunkGrid().copyOut(chunk, new long[kept.length], kept);
        byte[] fresh = filled(chunk.length);
        chunkGrid().copyIn(fresh, new long[kept.length], kept, keptElements);
        System.arraycopy(fresh, 0, chunk, 0, chunk.length);
    }

    private byte[] filled(long bytes) {
        if (bytes > MAX_BYTES) {
            throw new IllegalArgumentException(path + ": " + bytes + " bytes in one box or chunk; "
                    + "a box read or a chunk holds at most 2^31 - 9 bytes");
        }
        byte[] filled = new byte[(int) bytes];
        ChunkGrid.fill(filled, fill);
        return filled;
    }

    /**
     * The part of the box {@code start}/{@code count} inside the chunk at {@code origin}:
     * its first element ({@code from}), extent ({@code common}) and offset in the box
     * ({@code inBox}).
     */
    private void intersect(long[] origin, long[] start, long[] count,
                           long[] from, long[] common, long[] inBox) {
        for (int d = 0; d < origin.length; d++) {
            from[d] = Math.max(origin[d], start[d]);
            long end = Math.min(origin[d] + chunks[d], start[d] + count[d]);
            common[d] = end - from[d];
            inBox[d] = from[d] - start[d];
        }
    }

    private static long[] minus(long[] a, long[] b) {
        long[] difference = new long[a.length];
        for (int d = 0; d < a.length; d++) {
            difference[d] = a[d] - b[d];
        }
        return difference;
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
