package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import org.quire.format.hdf5.chunk.Shapes;

/**
 * The datasets, groups and attributes the interoperability tests write with Quire and check with
 * the oracles. Element values are a function of the element's row-major position in the
 * dataset's final shape ({@link #element}); elements outside every written box hold the fill
 * value. Expected bytes are computed element by element here, independently of Quire's chunk
 * copying.
 */
final class InteropCorpus {

    /** A hyperslab. */
    record Box(long[] start, long[] count) {
        static Box of(long[] start, long[] count) {
            return new Box(start, count);
        }

        static Box whole(long... shape) {
            return new Box(new long[shape.length], shape);
        }

        boolean contains(long[] coordinates) {
            for (int d = 0; d < start.length; d++) {
                if (coordinates[d] < start[d] || coordinates[d] >= start[d] + count[d]) {
                    return false;
                }
            }
            return true;
        }

        long[] end() {
            long[] end = new long[start.length];
            for (int d = 0; d < end.length; d++) {
                end[d] = start[d] + count[d];
            }
            return end;
        }
    }

    /**
     * One dataset: created from {@code spec}, extended as each write needs and finally to
     * {@code finalShape}; {@code check} is the part the oracles compare.
     */
    record Case(String path, DatasetSpec spec, long[] finalShape, List<Box> writes, Box check,
                ChunkIndexType index) {
        /** Whether the (non-overlapping) writes cover the whole final shape. */
        boolean fullyWritten() {
            long written = 0;
            for (Box box : writes) {
                written += Shapes.elementCount(box.count());
            }
            return written == Shapes.elementCount(finalShape);
        }
    }

    record AttributeCase(String objectPath, Attribute attribute) {
    }

    static final long U = DatasetSpec.UNLIMITED;
    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;

    private InteropCorpus() {
    }

    static List<String> groups() {
        List<String> groups = new ArrayList<>(List.of("/fixed", "/extensible", "/single",
                "/types", "/filters", "/nested", "/nested/a", "/nested/a/b", "/many", "/btree"));
        return groups;
    }

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        // Fixed array index, chunks that do not divide the shape, 1-D to 4-D.
        cases.add(whole("/fixed/int32_1d", DatasetSpec.builder(Datatype.INT32, 100)
                .chunkShape(7).build(), ChunkIndexType.FIXED_ARRAY));
        cases.add(partial("/fixed/uint16be_2d", DatasetSpec.builder(
                Datatype.UINT16.withByteOrder(BE), 13, 17).chunkShape(4, 5).fillValue(7).build(),
                List.of(Box.of(new long[] {2, 3}, new long[] {8, 12})), ChunkIndexType.FIXED_ARRAY));
        cases.add(whole("/fixed/float32_3d", DatasetSpec.builder(Datatype.FLOAT32, 5, 6, 7)
                .chunkShape(2, 3, 4).build(), ChunkIndexType.FIXED_ARRAY));
        cases.add(partial("/fixed/int8_4d", DatasetSpec.builder(Datatype.INT8, 3, 4, 5, 6)
                .chunkShape(2, 2, 3, 4).fillValue(-5).build(),
                List.of(Box.of(new long[] {0, 1, 1, 0}, new long[] {2, 3, 3, 6}),
                        Box.of(new long[] {2, 0, 0, 5}, new long[] {1, 1, 5, 1})),
                ChunkIndexType.FIXED_ARRAY));
        // 3,000 chunks: a paged data block, the middle page never written.
        cases.add(partial("/fixed/paged_int64", DatasetSpec.builder(Datatype.INT64, 3000)
                .chunkShape(1).fillValue(-1).build(),
                List.of(Box.of(new long[] {0}, new long[] {10}),
                        Box.of(new long[] {2500}, new long[] {300})), ChunkIndexType.FIXED_ARRAY));
        // Chunks of 64 KiB: each starts at a multiple of 64 KiB, the bytes before the first unused.
        cases.add(whole("/fixed/aligned_64k_chunks", DatasetSpec.builder(Datatype.FLOAT64, 3 * 8192)
                .chunkShape(8192).build(), ChunkIndexType.FIXED_ARRAY));
        // Maximum larger than the current shape: the array covers the maximum.
        cases.add(new Case("/fixed/growable_2d", DatasetSpec.builder(Datatype.INT32, 3, 4)
                .maxShape(10, 8).chunkShape(2, 3).build(), new long[] {7, 8},
                List.of(Box.whole(3, 4), Box.of(new long[] {3, 0}, new long[] {4, 8})),
                Box.whole(7, 8), ChunkIndexType.FIXED_ARRAY));

        // Extensible array index.
        cases.add(new Case("/extensible/float64_grown", DatasetSpec.builder(Datatype.FLOAT64, 0)
                .maxShape(U).chunkShape(2).fillValue(-1.5).build(), new long[] {1100},
                List.of(Box.of(new long[] {0}, new long[] {30}), Box.of(new long[] {30},
                        new long[] {400}), Box.of(new long[] {430}, new long[] {570})),
                Box.whole(1100), ChunkIndexType.EXTENSIBLE_ARRAY));
        cases.add(new Case("/extensible/int16_rows", DatasetSpec.builder(Datatype.INT16, 0, 5)
                .maxShape(U, 5).chunkShape(3, 2).build(), new long[] {20, 5},
                List.of(Box.of(new long[] {0, 0}, new long[] {11, 5}),
                        Box.of(new long[] {11, 0}, new long[] {8, 5})),
                Box.whole(20, 5), ChunkIndexType.EXTENSIBLE_ARRAY));
        cases.add(new Case("/extensible/middle_unlimited", DatasetSpec.builder(Datatype.UINT32,
                2, 0, 3).maxShape(4, U, 3).chunkShape(1, 4, 2).build(), new long[] {2, 10, 3},
                List.of(Box.of(new long[] {0, 0, 0}, new long[] {2, 9, 3})), Box.whole(2, 10, 3),
                ChunkIndexType.EXTENSIBLE_ARRAY));
        cases.add(new Case("/extensible/empty", DatasetSpec.builder(Datatype.INT32, 0)
                .maxShape(U).chunkShape(8).build(), new long[] {0}, List.of(), Box.whole(0),
                ChunkIndexType.EXTENSIBLE_ARRAY));
        cases.add(new Case("/extensible/empty_rows", DatasetSpec.builder(Datatype.FLOAT32, 0, 4)
                .maxShape(U, 4).chunkShape(16, 4).build(), new long[] {0, 4}, List.of(),
                Box.whole(0, 4), ChunkIndexType.EXTENSIBLE_ARRAY));

        cases.addAll(btreeCases());

        // Single chunk, plain and filtered.
        cases.add(whole("/single/int32", DatasetSpec.builder(Datatype.INT32, 4, 5).build(),
                ChunkIndexType.SINGLE_CHUNK));
        cases.add(whole("/single/deflated", DatasetSpec.builder(Datatype.FLOAT64, 6, 6)
                .filter(Filter.deflate(4)).build(), ChunkIndexType.SINGLE_CHUNK));

        // Every datatype.
        List<Datatype> numbers = List.of(Datatype.INT8, Datatype.UINT8, Datatype.INT16,
                Datatype.UINT16, Datatype.INT32, Datatype.UINT32, Datatype.INT64, Datatype.UINT64,
                Datatype.FLOAT32, Datatype.FLOAT64);
        for (Datatype type : numbers) {
            for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, BE)) {
                Datatype ordered = withOrder(type, order);
                cases.add(whole("/types/" + typeName(ordered), DatasetSpec.builder(ordered, 23)
                        .chunkShape(5).build(), ChunkIndexType.FIXED_ARRAY));
            }
        }
        cases.add(whole("/types/string_nullpad", DatasetSpec.builder(
                Datatype.StringType.ascii(6), 9).chunkShape(4).build(), ChunkIndexType.FIXED_ARRAY));
        cases.add(whole("/types/string_nullterm", DatasetSpec.builder(new Datatype.StringType(6,
                Datatype.StringPadding.NULL_TERMINATED, false), 9).chunkShape(4).build(),
                ChunkIndexType.FIXED_ARRAY));
        cases.add(whole("/types/string_spacepad_utf8", DatasetSpec.builder(new Datatype.StringType(
                6, Datatype.StringPadding.SPACE_PADDED, true), 9).chunkShape(4).build(),
                ChunkIndexType.FIXED_ARRAY));
        Datatype.CompoundType record = new Datatype.CompoundType(24, List.of(
                new Datatype.Member("id", 0, Datatype.INT32),
                new Datatype.Member("value", 8, Datatype.FLOAT64),
                new Datatype.Member("tag", 16, Datatype.StringType.ascii(3)),
                new Datatype.Member("big", 20, Datatype.UINT16.withByteOrder(BE))));
        cases.add(whole("/types/compound", DatasetSpec.builder(record, 11).chunkShape(4).build(),
                ChunkIndexType.FIXED_ARRAY));
        cases.add(new Case("/types/compound_rows", DatasetSpec.builder(record, 0)
                .maxShape(U).chunkShape(3).build(), new long[] {10},
                List.of(Box.of(new long[] {0}, new long[] {7})), Box.whole(10),
                ChunkIndexType.EXTENSIBLE_ARRAY));

        // Filters, on both array indexes.
        cases.add(whole("/filters/deflate", DatasetSpec.builder(Datatype.INT32, 300)
                .chunkShape(64).filter(Filter.deflate(6)).build(), ChunkIndexType.FIXED_ARRAY));
        cases.add(whole("/filters/shuffle_deflate", DatasetSpec.builder(Datatype.FLOAT64, 40, 30)
                .chunkShape(16, 16).filter(Filter.shuffle()).filter(Filter.deflate(9)).build(),
                ChunkIndexType.FIXED_ARRAY));
        cases.add(whole("/filters/fletcher32", DatasetSpec.builder(Datatype.INT16, 101)
                .chunkShape(10).filter(Filter.fletcher32()).build(), ChunkIndexType.FIXED_ARRAY));
        cases.add(whole("/filters/fletcher32_odd", DatasetSpec.builder(Datatype.INT8, 33)
                .chunkShape(11).filter(Filter.fletcher32()).build(), ChunkIndexType.FIXED_ARRAY));
        cases.add(new Case("/filters/all_extensible", DatasetSpec.builder(Datatype.UINT64, 0)
                .maxShape(U).chunkShape(5).fillValue(3).filter(Filter.shuffle())
                .filter(Filter.deflate(1)).filter(Filter.fletcher32()).build(), new long[] {400},
                List.of(Box.of(new long[] {0}, new long[] {250}),
                        Box.of(new long[] {300}, new long[] {90})), Box.whole(400),
                ChunkIndexType.EXTENSIBLE_ARRAY));
        cases.add(partial("/filters/paged_deflate", DatasetSpec.builder(Datatype.INT32, 2500)
                .chunkShape(1).filter(Filter.deflate(1)).fillValue(42).build(),
                List.of(Box.of(new long[] {1000}, new long[] {1100})), ChunkIndexType.FIXED_ARRAY));

        // Nested groups, and a group with more links than libhdf5 keeps compact by default.
        cases.add(whole("/nested/a/b/deep", DatasetSpec.builder(Datatype.INT64, 3).build(),
                ChunkIndexType.SINGLE_CHUNK));
        for (int i = 0; i < 12; i++) {
            cases.add(whole("/many/d" + i, DatasetSpec.builder(Datatype.UINT8, i + 1).build(),
                    ChunkIndexType.SINGLE_CHUNK));
        }
        return cases;
    }

    /**
     * Version-2 B-tree index: two or three unlimited dimensions, grown by the writes, chunks
     * that do not divide the shape, unwritten chunks. The "deep" datasets have enough chunks
     * (3,600 and 4,096 of one element) for libhdf5's 2,048-byte nodes to need a tree of depth
     * 2; "deflate_2d" (169 chunks) has depth 1 and rewrites every chunk of its first chunk row
     * with a new compressed size.
     */
    static List<Case> btreeCases() {
        return List.of(
                new Case("/btree/int32_2d", DatasetSpec.builder(Datatype.INT32, 0, 0)
                        .maxShape(U, U).chunkShape(3, 4).fillValue(-9).build(),
                        new long[] {20, 30},
                        List.of(Box.of(new long[] {0, 0}, new long[] {5, 7}),
                                Box.of(new long[] {7, 10}, new long[] {6, 10})),
                        Box.whole(20, 30), ChunkIndexType.VERSION_2_BTREE),
                new Case("/btree/float64_3d", DatasetSpec.builder(Datatype.FLOAT64, 0, 0, 0)
                        .maxShape(U, U, U).chunkShape(2, 3, 4).fillValue(2.5).build(),
                        new long[] {9, 10, 11},
                        List.of(Box.of(new long[] {0, 0, 0}, new long[] {9, 4, 11}),
                                Box.of(new long[] {3, 6, 2}, new long[] {4, 4, 5})),
                        Box.whole(9, 10, 11), ChunkIndexType.VERSION_2_BTREE),
                new Case("/btree/uint16_two_of_three", DatasetSpec.builder(
                        Datatype.UINT16.withByteOrder(BE), 3, 0, 0).maxShape(5, U, U)
                        .chunkShape(2, 5, 3).build(), new long[] {5, 12, 10},
                        List.of(Box.of(new long[] {0, 0, 0}, new long[] {3, 12, 10}),
                                Box.of(new long[] {3, 0, 0}, new long[] {2, 4, 10})),
                        Box.whole(5, 12, 10), ChunkIndexType.VERSION_2_BTREE),
                new Case("/btree/deflate_2d", DatasetSpec.builder(Datatype.INT64, 0, 0)
                        .maxShape(U, U).chunkShape(4, 4).filter(Filter.shuffle())
                        .filter(Filter.deflate(6)).build(), new long[] {50, 50},
                        List.of(Box.of(new long[] {0, 0}, new long[] {2, 50}),
                                Box.of(new long[] {2, 0}, new long[] {48, 50})),
                        Box.whole(50, 50), ChunkIndexType.VERSION_2_BTREE),
                new Case("/btree/deep_int8", DatasetSpec.builder(Datatype.INT8, 0, 0)
                        .maxShape(U, U).chunkShape(1, 1).build(), new long[] {60, 60},
                        List.of(Box.of(new long[] {30, 0}, new long[] {30, 60}),
                                Box.of(new long[] {0, 0}, new long[] {30, 60})),
                        Box.whole(60, 60), ChunkIndexType.VERSION_2_BTREE),
                new Case("/btree/deep_filtered_3d", DatasetSpec.builder(Datatype.INT16, 0, 0, 0)
                        .maxShape(U, U, U).chunkShape(1, 1, 1).fillValue(5)
                        .filter(Filter.fletcher32()).build(), new long[] {16, 16, 16},
                        List.of(Box.of(new long[] {0, 0, 0}, new long[] {16, 16, 8}),
                                Box.of(new long[] {0, 0, 8}, new long[] {10, 16, 8})),
                        Box.whole(16, 16, 16), ChunkIndexType.VERSION_2_BTREE));
    }

    /** Datasets too large to dump or read whole: only {@code check} is compared. */
    static List<Case> sparseCases() {
        return List.of(
                new Case("/huge_fixed", DatasetSpec.builder(Datatype.INT32, 1_000_000, 1_000_000)
                        .chunkShape(1000, 1000).fillValue(-7).build(),
                        new long[] {1_000_000, 1_000_000},
                        List.of(Box.of(new long[] {0, 0}, new long[] {3, 1000}),
                                Box.of(new long[] {999_998, 999_000}, new long[] {2, 1000})),
                        Box.of(new long[] {999_990, 998_990}, new long[] {10, 1010}),
                        ChunkIndexType.FIXED_ARRAY),
                // Chunk 1,000,000 lands in super block 15, whose data blocks are paged.
                new Case("/huge_extensible", DatasetSpec.builder(Datatype.FLOAT64, 0)
                        .maxShape(U).chunkShape(1000).fillValue(2.5).build(),
                        new long[] {1_000_000_000L},
                        List.of(Box.of(new long[] {0}, new long[] {1500}),
                                Box.of(new long[] {999_999_000L}, new long[] {1000})),
                        Box.of(new long[] {999_998_000L}, new long[] {2000}),
                        ChunkIndexType.EXTENSIBLE_ARRAY),
                // 10^6 x 10^6 possible chunks in a B-tree that holds 4 of them.
                new Case("/huge_btree", DatasetSpec.builder(Datatype.INT32, 0, 0)
                        .maxShape(U, U).chunkShape(1000, 1000).fillValue(11).build(),
                        new long[] {1_000_000_000L, 1_000_000_000L},
                        List.of(Box.of(new long[] {0, 0}, new long[] {2, 1500}),
                                Box.of(new long[] {999_999_999L, 999_998_500L},
                                        new long[] {1, 1500})),
                        Box.of(new long[] {999_999_990L, 999_998_000L}, new long[] {10, 2000}),
                        ChunkIndexType.VERSION_2_BTREE));
    }

    /**
     * LZF datasets (filter 32000), in a file of their own: h5dump has no LZF filter. Pseudo-random
     * integers (incompressible: stored as literal runs), floats of a smooth ramp with Hangar's
     * filter set when blosc is absent (shuffle, LZF, Fletcher-32), odd sizes with edge chunks and
     * unwritten chunks of a growing dataset.
     */
    static List<Case> lzfCases() {
        return List.of(
                whole("/lzf_int32", DatasetSpec.builder(Datatype.INT32, 300).chunkShape(64)
                        .filter(Filter.lzf()).build(), ChunkIndexType.FIXED_ARRAY),
                whole("/hangar_set", DatasetSpec.builder(Datatype.FLOAT64, 40, 30)
                        .chunkShape(16, 16).filter(Filter.shuffle()).filter(Filter.lzf())
                        .filter(Filter.fletcher32()).build(), ChunkIndexType.FIXED_ARRAY),
                whole("/odd_int16", DatasetSpec.builder(Datatype.INT16.withByteOrder(BE), 1001)
                        .chunkShape(77).filter(Filter.lzf()).build(), ChunkIndexType.FIXED_ARRAY),
                new Case("/lzf_extensible", DatasetSpec.builder(Datatype.FLOAT32, 0).maxShape(U)
                        .chunkShape(33).fillValue(1.5).filter(Filter.shuffle())
                        .filter(Filter.lzf()).build(), new long[] {500},
                        List.of(Box.of(new long[] {0}, new long[] {100}),
                                Box.of(new long[] {400}, new long[] {99})), Box.whole(500),
                        ChunkIndexType.EXTENSIBLE_ARRAY),
                whole("/lzf_single", DatasetSpec.builder(Datatype.UINT8, 7, 9).chunkShape(7, 9)
                        .filter(Filter.lzf()).build(), ChunkIndexType.SINGLE_CHUNK),
                // LZF decodes to the chunk plus a checksum: 4 bytes more than the chunk.
                whole("/fletcher_then_lzf", DatasetSpec.builder(Datatype.INT32, 1000)
                        .chunkShape(100).filter(Filter.fletcher32()).filter(Filter.lzf())
                        .build(), ChunkIndexType.FIXED_ARRAY),
                // LZF decodes to a deflate stream, whose size nothing stores.
                whole("/deflate_then_lzf", DatasetSpec.builder(Datatype.INT16, 900)
                        .chunkShape(300).filter(Filter.deflate(6)).filter(Filter.lzf())
                        .filter(Filter.fletcher32()).build(), ChunkIndexType.FIXED_ARRAY));
    }

    static List<AttributeCase> attributes() {
        List<AttributeCase> attributes = new ArrayList<>(List.of(
                new AttributeCase("/", Attribute.of("title", "Quire interop corpus")),
                new AttributeCase("/", Attribute.of("version", 1, 2, 3)),
                new AttributeCase("/fixed", Attribute.of("scale", 0.5, -2.25)),
                new AttributeCase("/fixed/int32_1d", Attribute.of("units", "m")),
                new AttributeCase("/extensible/float64_grown", new Attribute("matrix",
                        Datatype.UINT16.withByteOrder(BE), new long[] {2, 3},
                        new byte[] {0, 1, 0, 2, 0, 3, 1, 0, 2, 0, 3, 0})),
                new AttributeCase("/extensible/float64_grown", new Attribute("scalar",
                        Datatype.FLOAT32, new long[0], new byte[] {0, 0, (byte) 0x80, 0x3f})),
                // What h5py writes for str, a list of str, bool, numpy scalars.
                new AttributeCase("/nested", Attribute.of("text", "caf\u00e9 \u03b2")),
                new AttributeCase("/nested", Attribute.ofStrings("texts",
                        Datatype.VariableLengthStringType.UTF8, new long[] {3}, List.of(
                                "alpha".getBytes(StandardCharsets.UTF_8), new byte[0],
                                "x".repeat(5000).getBytes(StandardCharsets.UTF_8)))),
                new AttributeCase("/nested", Attribute.of("flags", true, false, true)),
                new AttributeCase("/nested", new Attribute("flag", Datatype.EnumType.BOOLEAN,
                        new long[0], new byte[] {1})),
                new AttributeCase("/nested", Attribute.scalar("count", Datatype.INT32, -7)),
                new AttributeCase("/nested", Attribute.scalar("ratio", Datatype.FLOAT64, 0.25))));
        // More attributes than fit in the header's first chunk: continuation blocks.
        for (int i = 0; i < 12; i++) {
            attributes.add(new AttributeCase("/nested/a", Attribute.of("attr" + i, (long) i * i)));
        }
        return attributes;
    }

    // ---- writing with Quire

    /** Writes {@code cases} (after the groups and before the attributes) to a new file. */
    static void write(Path file, List<String> groups, List<Case> cases,
                      List<AttributeCase> attributes) throws IOException {
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            for (String group : groups) {
                parent(hdf5, group).createGroup(leaf(group));
            }
            for (Case c : cases) {
                Dataset dataset = parent(hdf5, c.path()).createDataset(leaf(c.path()), c.spec());
                for (Box box : c.writes()) {
                    long[] shape = dataset.shape();
                    long[] end = box.end();
                    boolean grow = false;
                    for (int d = 0; d < shape.length; d++) {
                        grow |= end[d] > shape[d];
                        shape[d] = Math.max(shape[d], end[d]);
                    }
                    if (grow) {
                        dataset.extend(shape);
                    }
                    dataset.write(box.start(), box.count(), ByteBuffer.wrap(values(c, box)));
                }
                if (!Arrays.equals(dataset.shape(), c.finalShape())) {
                    dataset.extend(c.finalShape());
                }
            }
            for (AttributeCase a : attributes) {
                object(hdf5, a.objectPath()).setAttribute(a.attribute());
            }
        }
    }

    static Group parent(Hdf5File file, String path) throws IOException {
        return (Group) object(file, path.substring(0, Math.max(1, path.lastIndexOf('/'))));
    }

    static String leaf(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    static Hdf5Object object(Hdf5File file, String path) throws IOException {
        Hdf5Object object = file.root();
        for (String part : path.split("/")) {
            if (!part.isEmpty()) {
                object = ((Group) object).get(part);
            }
        }
        return object;
    }

    // ---- expected values

    /** The values of the elements of {@code box}, as Quire should write them. */
    static byte[] values(Case c, Box box) {
        return elements(c, box, false);
    }

    /** What the dataset must hold in {@code c.check()}. */
    static byte[] expected(Case c) {
        return elements(c, c.check(), true);
    }

    private static byte[] elements(Case c, Box box, boolean applyFill) {
        Datatype type = c.spec().type();
        int rank = box.start().length;
        long count = 1;
        for (long n : box.count()) {
            count *= n;
        }
        byte[] out = new byte[(int) count * type.size()];
        byte[] fill = c.spec().fillValue() != null ? c.spec().fillValue() : new byte[type.size()];
        long[] position = new long[rank];
        long[] coordinates = new long[rank];
        for (long i = 0; i < count; i++) {
            long rest = i;
            for (int d = rank - 1; d >= 0; d--) {
                position[d] = rest % box.count()[d];
                rest /= box.count()[d];
                coordinates[d] = box.start()[d] + position[d];
            }
            boolean written = !applyFill;
            for (Box w : c.writes()) {
                written |= w.contains(coordinates);
            }
            long linear = 0;
            for (int d = 0; d < rank; d++) {
                linear = linear * c.finalShape()[d] + coordinates[d];
            }
            byte[] value = written ? element(type, linear) : fill;
            System.arraycopy(value, 0, out, (int) i * type.size(), type.size());
        }
        return out;
    }

    /** The bytes of element number {@code linear} of a dataset of {@code type}. */
    static byte[] element(Datatype type, long linear) {
        ByteBuffer out = ByteBuffer.allocate(type.size()).order(type.byteOrder());
        if (type instanceof Datatype.IntegerType integer) {
            long value = linear * 0x9E3779B97F4A7C15L + 12345;
            switch (integer.size()) {
                case 1 -> out.put((byte) value);
                case 2 -> out.putShort((short) value);
                case 4 -> out.putInt((int) value);
                default -> out.putLong(value);
            }
        } else if (type instanceof Datatype.FloatType real) {
            double value = linear * 0.5 - 7.25;
            if (real.size() == 4) {
                out.putFloat((float) value);
            } else {
                out.putDouble(value);
            }
        } else if (type instanceof Datatype.StringType string) {
            byte[] text = ("s" + linear).getBytes(StandardCharsets.US_ASCII);
            int room = string.padding() == Datatype.StringPadding.NULL_TERMINATED
                    ? string.size() - 1 : string.size();
            out.put(text, 0, Math.min(room, text.length));
            while (out.hasRemaining()) {
                out.put(string.padding() == Datatype.StringPadding.SPACE_PADDED ? (byte) ' ' : 0);
            }
        } else {
            Datatype.CompoundType compound = (Datatype.CompoundType) type;
            for (int m = 0; m < compound.members().size(); m++) {
                Datatype.Member member = compound.members().get(m);
                out.put(member.offset(), element(member.type(), linear * 3 + m));
            }
        }
        return out.array();
    }

    static Datatype withOrder(Datatype type, ByteOrder order) {
        return type instanceof Datatype.IntegerType integer ? integer.withByteOrder(order)
                : ((Datatype.FloatType) type).withByteOrder(order);
    }

    static String typeName(Datatype type) {
        String order = type.byteOrder() == BE ? "be" : "le";
        if (type instanceof Datatype.IntegerType integer) {
            return (integer.signed() ? "int" : "uint") + 8 * integer.size() + order;
        }
        return "float" + 8 * type.size() + order;
    }

    private static Case whole(String path, DatasetSpec spec, ChunkIndexType index) {
        return new Case(path, spec, spec.shape(), List.of(Box.whole(spec.shape())),
                Box.whole(spec.shape()), index);
    }

    private static Case partial(String path, DatasetSpec spec, List<Box> writes,
                                ChunkIndexType index) {
        return new Case(path, spec, spec.shape(), writes, Box.whole(spec.shape()), index);
    }

    // ---- the manifest the Python checker reads

    /** Writes {@code manifest.json} and one {@code .bin} of expected bytes per case to {@code dir}. */
    static Path writeManifest(Path dir, String name, List<String> groups, List<Case> cases,
                              List<AttributeCase> attributes) throws IOException {
        StringBuilder json = new StringBuilder("{\"groups\": [");
        for (int i = 0; i < groups.size(); i++) {
            json.append(i == 0 ? "" : ", ").append('"').append(groups.get(i)).append('"');
        }
        json.append("],\n\"datasets\": [\n");
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            Path bin = dir.resolve(name + "-" + i + ".bin");
            Files.write(bin, expected(c));
            DatasetSpec spec = c.spec();
            String compression = spec.filters().stream().anyMatch(f -> f instanceof Filter.Deflate)
                    ? "\"gzip\"" : spec.filters().contains(Filter.lzf()) ? "\"lzf\"" : "null";
            json.append(i == 0 ? "" : ",\n").append("{\"path\": \"").append(c.path())
                    .append("\", \"dtype\": ").append(numpyType(spec.type()))
                    .append(", \"strpad\": ").append(spec.type() instanceof Datatype.StringType s
                            ? s.padding().ordinal() : -1)
                    .append(", \"shape\": ").append(list(c.finalShape()))
                    .append(", \"maxshape\": ").append(list(spec.maxShape()))
                    .append(", \"chunks\": ").append(list(spec.chunkShape()))
                    .append(", \"compression\": ").append(compression)
                    .append(", \"shuffle\": ").append(spec.filters().contains(Filter.shuffle()))
                    .append(", \"fletcher32\": ").append(spec.filters().contains(Filter.fletcher32()))
                    .append(", \"fill\": \"").append(HexFormat.of().formatHex(
                            spec.fillValue() != null ? spec.fillValue() : new byte[spec.type().size()]))
                    .append("\", \"index\": \"").append(libhdf5IndexName(c.index()))
                    .append("\", \"start\": ").append(list(c.check().start()))
                    .append(", \"count\": ").append(list(c.check().count()))
                    .append(", \"expected\": \"").append(bin.getFileName()).append("\"}");
        }
        json.append("],\n\"attributes\": [\n");
        for (int i = 0; i < attributes.size(); i++) {
            Attribute a = attributes.get(i).attribute();
            json.append(i == 0 ? "" : ",\n").append("{\"object\": \"")
                    .append(attributes.get(i).objectPath()).append("\", \"name\": \"")
                    .append(a.name()).append("\", \"dtype\": ").append(numpyType(a.type()))
                    .append(", \"shape\": ").append(list(a.shape()))
                    .append(", \"hex\": \"").append(HexFormat.of().formatHex(a.data()))
                    .append("\", \"strings\": [");
            List<byte[]> strings = a.strings();
            for (int j = 0; j < strings.size(); j++) {
                json.append(j == 0 ? "\"" : ", \"").append(HexFormat.of().formatHex(strings.get(j)))
                        .append('"');
            }
            json.append("]}");
        }
        json.append("]}\n");
        Path manifest = dir.resolve(name + "-manifest.json");
        Files.writeString(manifest, json);
        return manifest;
    }

    /** What {@code h5debug} prints after "Index Type:" for this index. */
    static String libhdf5IndexName(ChunkIndexType index) {
        return switch (index) {
            case SINGLE_CHUNK -> "Single Chunk";
            case IMPLICIT -> "Implicit";
            case FIXED_ARRAY -> "Fixed Array";
            case EXTENSIBLE_ARRAY -> "Extensible Array";
            case VERSION_2_BTREE -> "v2 B-tree";
            case VERSION_1_BTREE -> "v1 B-tree";
            case QUIRE_SKIP_LIST -> throw new IllegalArgumentException(
                    "libhdf5 reads no skip list index: it is Quire's own");
        };
    }

    private static String list(long[] values) {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < values.length; i++) {
            out.append(i == 0 ? "" : ", ").append(values[i] == U ? "null" : Long.toString(values[i]));
        }
        return out.append(']').toString();
    }

    /** The numpy dtype as JSON: a string, or a dict for compound types. */
    static String numpyType(Datatype type) {
        if (type instanceof Datatype.CompoundType compound) {
            StringBuilder names = new StringBuilder();
            StringBuilder formats = new StringBuilder();
            StringBuilder offsets = new StringBuilder();
            for (Datatype.Member m : compound.members()) {
                String sep = names.length() == 0 ? "" : ", ";
                names.append(sep).append('"').append(m.name()).append('"');
                formats.append(sep).append(numpyType(m.type()));
                offsets.append(sep).append(m.offset());
            }
            return "{\"names\": [" + names + "], \"formats\": [" + formats + "], \"offsets\": ["
                    + offsets + "], \"itemsize\": " + compound.size() + "}";
        }
        if (type instanceof Datatype.StringType) {
            return "\"|S" + type.size() + "\"";
        }
        if (type instanceof Datatype.VariableLengthStringType string) {
            return string.utf8() ? "\"vlen-utf8\"" : "\"vlen-ascii\"";
        }
        if (type.equals(Datatype.EnumType.BOOLEAN)) {
            return "\"|b1\"";
        }
        String order = type.size() == 1 ? "|" : type.byteOrder() == BE ? ">" : "<";
        String kind = type instanceof Datatype.FloatType ? "f"
                : ((Datatype.IntegerType) type).signed() ? "i" : "u";
        return "\"" + order + kind + type.size() + "\"";
    }
}
