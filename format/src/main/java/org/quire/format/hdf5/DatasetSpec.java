package org.quire.format.hdf5;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import org.quire.format.hdf5.chunk.ChunkGrid;
import org.quire.format.hdf5.chunk.Shapes;

/**
 * What a new chunked dataset looks like: current and maximum shape, chunk shape, element type,
 * fill value and filters. Build one with {@link #builder(Datatype, long...)}.
 *
 * <p>The chunk index follows from the shapes, as libhdf5 chooses it: a single chunk when shape,
 * maximum shape and chunk shape are equal; a fixed array when no dimension is unlimited; an
 * extensible array when exactly one is; a version-2 B-tree when more than one is. Only on
 * request ({@link Builder#quireOnlySkipListIndex()}) does a dataset with one unlimited
 * dimension get Quire's skip list index instead, which h5py and libhdf5 cannot read.
 */
public final class DatasetSpec {

    /** A maximum size meaning "can grow without bound". */
    public static final long UNLIMITED = -1L;

    /** Largest chunk, in bytes, Quire handles (one Java array). */
    public static final long MAX_CHUNK_BYTES = Integer.MAX_VALUE - 64;

    private final Datatype type;
    private final long[] shape;
    private final long[] maxShape;
    private final long[] chunkShape;
    private final byte[] fillValue;
    private final List<Filter> filters;
    private final boolean quireOnlySkipListIndex;

    private DatasetSpec(Builder builder) {
        this.type = builder.type;
        this.shape = builder.shape.clone();
        this.maxShape = builder.maxShape == null ? shape.clone() : builder.maxShape.clone();
        this.chunkShape = builder.chunkShape == null ? defaultChunk(shape) : builder.chunkShape.clone();
        this.fillValue = builder.fillValue == null ? null : builder.fillValue.clone();
        this.filters = List.copyOf(builder.filters);
        this.quireOnlySkipListIndex = builder.quireOnlySkipListIndex;
        validate();
    }

    public static Builder builder(Datatype type, long... shape) {
        return new Builder(type, shape);
    }

    public Datatype type() {
        return type;
    }

    public long[] shape() {
        return shape.clone();
    }

    public long[] maxShape() {
        return maxShape.clone();
    }

    public long[] chunkShape() {
        return chunkShape.clone();
    }

    /** The fill value's bytes in the type's encoding, or null for all-zero bytes. */
    public byte[] fillValue() {
        return fillValue == null ? null : fillValue.clone();
    }

    public List<Filter> filters() {
        return filters;
    }

    /** Whether the dataset gets Quire's skip list chunk index, which only Quire reads. */
    public boolean quireOnlySkipListIndex() {
        return quireOnlySkipListIndex;
    }

    /** Bytes of one chunk before filtering. */
    public long chunkBytes() {
        return Shapes.elementCount(chunkShape) * type.size();
    }

    /** Number of dimensions with an unlimited maximum. */
    int unlimitedDimensions() {
        int count = 0;
        for (long max : maxShape) {
            count += max == UNLIMITED ? 1 : 0;
        }
        return count;
    }

    /** A whole-dataset chunk, or 1 in dimensions of size 0. */
    private static long[] defaultChunk(long[] shape) {
        long[] chunk = new long[shape.length];
        for (int i = 0; i < shape.length; i++) {
            chunk[i] = Math.max(1, shape[i]);
        }
        return chunk;
    }

    private void validate() {
        int rank = shape.length;
        if (type instanceof Datatype.VariableLengthStringType) {
            throw new IllegalArgumentException("chunked datasets of variable-length strings are "
                    + "not written; Group.createStringDataset writes them whole");
        }
        if (rank < 1 || rank > 32) {
            throw new IllegalArgumentException("a chunked dataset has 1 to 32 dimensions: " + rank);
        }
        if (maxShape.length != rank || chunkShape.length != rank) {
            throw new IllegalArgumentException("shape " + Arrays.toString(shape)
                    + ", maximum shape " + Arrays.toString(maxShape) + " and chunk shape "
                    + Arrays.toString(chunkShape) + " must have the same rank");
        }
        for (int d = 0; d < rank; d++) {
            if (shape[d] < 0) {
                throw new IllegalArgumentException("negative size in shape " + Arrays.toString(shape));
            }
            if (maxShape[d] != UNLIMITED && maxShape[d] < shape[d]) {
                throw new IllegalArgumentException("maximum shape " + Arrays.toString(maxShape)
                        + " is smaller than shape " + Arrays.toString(shape));
            }
            if (chunkShape[d] < 1 || chunkShape[d] > 0xffffffffL) {
                throw new IllegalArgumentException("chunk sizes must be 1..2^32-1: "
                        + Arrays.toString(chunkShape));
            }
            if (maxShape[d] == 0) {
                throw new IllegalArgumentException("a dimension with maximum size 0 can hold no "
                        + "chunk; give it a larger or unlimited maximum");
            }
        }
        long chunkBytes;
        try {
            chunkBytes = chunkBytes();
            if (unlimitedDimensions() == 0) {
                new ChunkGrid(chunkShape, maxShape).maxChunkCount();
            }
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("shape " + Arrays.toString(maxShape)
                    + " in chunks " + Arrays.toString(chunkShape) + " overflows 64 bits", e);
        }
        if (chunkBytes > MAX_CHUNK_BYTES) {
            throw new IllegalArgumentException("chunks of " + chunkBytes + " bytes exceed "
                    + MAX_CHUNK_BYTES);
        }
        if (quireOnlySkipListIndex && unlimitedDimensions() != 1) {
            throw new IllegalArgumentException("the skip list index needs exactly one unlimited"
                    + " dimension; maximum shape " + Arrays.toString(maxShape) + " has "
                    + unlimitedDimensions());
        }
        if (fillValue != null && fillValue.length != type.size()) {
            throw new IllegalArgumentException("fill value has " + fillValue.length
                    + " bytes; the type has " + type.size());
        }
    }

    public static final class Builder {
        private final Datatype type;
        private final long[] shape;
        private long[] maxShape;
        private long[] chunkShape;
        private byte[] fillValue;
        private final List<Filter> filters = new ArrayList<>();
        private boolean quireOnlySkipListIndex;

        private Builder(Datatype type, long[] shape) {
            this.type = Objects.requireNonNull(type, "type");
            this.shape = shape.clone();
        }

        /** Maximum sizes, {@link #UNLIMITED} for a dimension that may grow without bound. */
        public Builder maxShape(long... maxShape) {
            this.maxShape = maxShape.clone();
            return this;
        }

        public Builder chunkShape(long... chunkShape) {
            this.chunkShape = chunkShape.clone();
            return this;
        }

        /** The value unwritten elements read as, in the type's encoding. */
        public Builder fillValue(byte[] fillValue) {
            this.fillValue = fillValue.clone();
            return this;
        }

        public Builder fillValue(long value) {
            return fillValue(ElementCodec.encodeOne(type, value));
        }

        public Builder fillValue(double value) {
            return fillValue(ElementCodec.encodeOne(type, value));
        }

        /** Appends a filter; chunks pass the filters in the order they were added. */
        public Builder filter(Filter filter) {
            filters.add(Objects.requireNonNull(filter, "filter"));
            return this;
        }

        /**
         * Indexes the chunks with Quire's deterministic reverse skip list (docs/hdf5.md, "The
         * skip list chunk index") instead of an extensible array: an append writes two index
         * blocks. Quire-only: h5py and libhdf5 refuse the dataset with an error (the rest of
         * the file stays readable to them). Needs exactly one unlimited dimension.
         */
        public Builder quireOnlySkipListIndex() {
            this.quireOnlySkipListIndex = true;
            return this;
        }

        public DatasetSpec build() {
            return new DatasetSpec(this);
        }
    }
}
