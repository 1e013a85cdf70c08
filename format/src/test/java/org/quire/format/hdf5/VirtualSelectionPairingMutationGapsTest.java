package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.quire.format.hdf5.layout.DataspaceSelection;
import org.quire.format.hdf5.layout.DataspaceSelection.Block;
import org.quire.format.hdf5.layout.VirtualMapping;

/**
 * How {@link VirtualData} pairs a mapping's virtual and source selections (the n-th virtual
 * element in row-major order shows the n-th source element, as in libhdf5), for the shapes the
 * one-box fast path and the row-by-row walk each take: a block reshaped (2 x 3 from 3 x 2),
 * blocks stored out of row-major order, rows of one side split across rows of the other in
 * either direction, a box narrower than the request, a 1-D source filling a row and a column,
 * "all" from a block and onto a differently shaped "all", strided blocks, a 3-D box from a 2-D
 * one, overlapping mappings (the later shows) and unmapped gaps (the fill value), a missing
 * source, a scalar. Every box of each dataset is read into a long array and into heap and
 * direct buffers that held other bytes, and compared element by element with a model of the
 * mappings built here.
 */
class VirtualSelectionPairingMutationGapsTest {

    private static final long FILL = -7;
    /** Sources: name, shape, value of element 0 (element i holds base + i). */
    private static final Map<String, long[]> SHAPES = Map.of("/raw1", new long[] {48},
            "/raw2", new long[] {8, 6});
    private static final Map<String, Long> BASES = Map.of("/raw1", 5000L, "/raw2", 1000L);

    @TempDir
    static Path dir;
    private static Path file;

    /** One virtual dataset: its name, shape and mappings. */
    record Case(String name, long[] shape, List<VirtualMapping> mappings) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Block block(long[] start, long[] count) {
        return new Block(start, count);
    }

    private static DataspaceSelection blocks(Block... blocks) {
        return new DataspaceSelection.Hyperslab(List.of(blocks));
    }

    private static long[] at(long... values) {
        return values;
    }

    private static VirtualMapping map(String source, DataspaceSelection from,
                                      DataspaceSelection to) {
        return VirtualMapping.sameFile(source, from, to);
    }

    static Stream<Case> cases() {
        DataspaceSelection all = DataspaceSelection.all();
        return Stream.of(
                // 2 x 3 shown from 3 x 2: not one box, paired row by row.
                new Case("reshaped", at(4, 6), List.of(map("/raw2",
                        blocks(block(at(1, 0), at(3, 2))), blocks(block(at(0, 1), at(2, 3)))))),
                // The right-hand block stored first; one source row of 12 across four rows.
                new Case("sideBySide", at(4, 6), List.of(map("/raw1",
                        blocks(block(at(10), at(12))),
                        blocks(block(at(1, 3), at(2, 3)), block(at(1, 0), at(2, 3)))))),
                // Virtual rows of 4 and 2 from source rows of 1 and 5.
                new Case("virtualRowSplit", at(4, 6), List.of(map("/raw2",
                        blocks(block(at(4, 0), at(1, 1)), block(at(5, 0), at(1, 5))),
                        blocks(block(at(2, 0), at(1, 4)), block(at(3, 0), at(1, 2)))))),
                // Virtual rows of 1 and 5 from source rows of 4 and 2.
                new Case("sourceRowSplit", at(4, 6), List.of(map("/raw2",
                        blocks(block(at(0, 0), at(1, 4)), block(at(2, 2), at(1, 2))),
                        blocks(block(at(0, 5), at(1, 1)), block(at(1, 0), at(1, 5)))))),
                // One box of 2 x 3 inside a 4 x 6 dataset.
                new Case("narrowBox", at(4, 6), List.of(map("/raw2",
                        blocks(block(at(5, 2), at(2, 3))), blocks(block(at(1, 1), at(2, 3)))))),
                // A 1-D source as a row and as a column.
                new Case("rowAndColumn", at(4, 6), List.of(
                        map("/raw1", blocks(block(at(20), at(6))),
                                blocks(block(at(2, 0), at(1, 6)))),
                        map("/raw1", blocks(block(at(30), at(3))),
                                blocks(block(at(0, 2), at(3, 1)))))),
                new Case("allFromABlock", at(4, 6), List.of(map("/raw1",
                        blocks(block(at(24), at(24))), all))),
                // "all" of 8 x 6 onto "all" of 6 x 8.
                new Case("allOntoOtherShape", at(6, 8), List.of(map("/raw2", all, all))),
                new Case("strided", at(8), List.of(map("/raw1", blocks(block(at(3), at(4))),
                        blocks(block(at(0), at(1)), block(at(2), at(1)), block(at(4), at(1)),
                                block(at(6), at(1)))))),
                // [0, 6) then [4, 8) over it; [8, 10) unmapped: 6 + 4 elements, as many as 10.
                new Case("overlapping", at(10), List.of(
                        map("/raw1", blocks(block(at(0), at(6))), blocks(block(at(0), at(6)))),
                        map("/raw1", blocks(block(at(40), at(4))),
                                blocks(block(at(4), at(4)))))),
                new Case("gap", at(10), List.of(map("/raw1", blocks(block(at(7), at(3))),
                        blocks(block(at(2), at(3)))))),
                // A 3 x 2 box as 1 x 3 x 2 of a 3-D dataset, a 1-D row as 1 x 1 x 4.
                new Case("threeD", at(2, 3, 4), List.of(
                        map("/raw2", blocks(block(at(2, 1), at(3, 2))),
                                blocks(block(at(1, 0, 1), at(1, 3, 2)))),
                        map("/raw1", blocks(block(at(44), at(4))),
                                blocks(block(at(0, 1, 0), at(1, 1, 4)))))),
                // The missing source's elements read as the fill value.
                new Case("missingFirst", at(6), List.of(
                        map("/absent", all, blocks(block(at(0), at(3)))),
                        map("/raw1", blocks(block(at(0), at(3))), blocks(block(at(3), at(3)))))));
    }

    @BeforeAll
    static void write() throws IOException {
        file = dir.resolve("pairing.h5");
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            Group root = hdf5.root();
            root.createDataset("raw1", DatasetSpec.builder(Datatype.INT64, 48).chunkShape(5)
                    .build()).write(at(0), at(48), LongStream.range(5000, 5048).toArray());
            root.createDataset("raw2", DatasetSpec.builder(Datatype.INT64, 8, 6).chunkShape(3, 4)
                    .build()).write(at(0, 0), at(8, 6), LongStream.range(1000, 1048).toArray());
            root.createDataset("scalar", Datatype.INT64, new long[0],
                    ElementCodec.encodeOne(Datatype.INT64, 42L));
            for (Case c : cases().toList()) {
                root.createVirtualDataset(c.name(), Datatype.INT64, c.shape(),
                        ElementCodec.encodeOne(Datatype.INT64, FILL), c.mappings());
            }
            root.createVirtualDataset("scalarView", Datatype.INT64, new long[0],
                    ElementCodec.encodeOne(Datatype.INT64, FILL), List.of(map("/scalar",
                            DataspaceSelection.all(), DataspaceSelection.all())));
            root.createVirtualDataset("scalarMissing", Datatype.INT64, new long[0],
                    ElementCodec.encodeOne(Datatype.INT64, FILL), List.of(map("/absent",
                            DataspaceSelection.all(), DataspaceSelection.all())));
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void everyBoxReadsAsTheModelPairsTheSelections(Case c) throws IOException {
        long[] model = model(c);
        long[] shape = c.shape();
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            Dataset dataset = hdf5.root().dataset(c.name());
            for (long[][] box : boxes(shape)) {
                long[] start = box[0];
                long[] count = box[1];
                long[] expected = cut(model, shape, start, count);
                String where = c + " start " + Arrays.toString(start) + " count "
                        + Arrays.toString(count);
                assertArrayEquals(expected, dataset.readLongs(start, count), where);
                int bytes = expected.length * Long.BYTES;
                for (ByteBuffer buffer : List.of(ByteBuffer.allocate(bytes + 8),
                        ByteBuffer.allocateDirect(bytes + 8))) {
                    while (buffer.hasRemaining()) {
                        buffer.put((byte) 0x5a);
                    }
                    buffer.position(8);
                    dataset.read(start, count, buffer);
                    long[] got = new long[expected.length];
                    buffer.slice(8, bytes).order(Datatype.INT64.byteOrder()).asLongBuffer()
                            .get(got);
                    assertArrayEquals(expected, got,
                            where + (buffer.isDirect() ? " direct" : " heap"));
                }
            }
        }
    }

    @Test
    void aScalarShowsItsScalarSourceOrTheFillValue() throws IOException {
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            assertArrayEquals(new long[] {42}, hdf5.root().dataset("scalarView")
                    .readLongs(new long[0], new long[0]));
            assertArrayEquals(new long[] {FILL}, hdf5.root().dataset("scalarMissing")
                    .readLongs(new long[0], new long[0]));
        }
    }

    /** The dataset's elements: the fill value, then each mapping's pairs in mapping order. */
    private static long[] model(Case c) {
        long[] values = new long[(int) count(c.shape())];
        Arrays.fill(values, FILL);
        for (VirtualMapping m : c.mappings()) {
            long[] sourceShape = SHAPES.get(m.sourceDataset());
            if (sourceShape == null) {
                continue;
            }
            List<long[]> to = elements(m.virtual(), c.shape());
            List<long[]> from = elements(m.source(), sourceShape);
            assertEquals(to.size(), from.size(), c + ": the model's selections");
            for (int n = 0; n < to.size(); n++) {
                values[(int) flat(to.get(n), c.shape())] = BASES.get(m.sourceDataset())
                        + flat(from.get(n), sourceShape);
            }
        }
        return values;
    }

    /** The coordinates a selection holds, in row-major order. */
    private static List<long[]> elements(DataspaceSelection selection, long[] shape) {
        List<Block> blocks = selection instanceof DataspaceSelection.Hyperslab h ? h.blocks()
                : List.of(block(new long[shape.length], shape));
        List<long[]> coordinates = new ArrayList<>();
        for (Block b : blocks) {
            for (long i = 0; i < count(b.count()); i++) {
                long[] c = unflat(i, b.count());
                for (int d = 0; d < c.length; d++) {
                    c[d] += b.start()[d];
                }
                coordinates.add(c);
            }
        }
        coordinates.sort(Arrays::compare);
        return coordinates;
    }

    /** Every box (start, count) inside {@code shape}. */
    private static List<long[][]> boxes(long[] shape) {
        List<long[][]> boxes = new ArrayList<>();
        boxes.add(new long[][] {new long[0], new long[0]});
        for (int d = 0; d < shape.length; d++) {
            List<long[][]> longer = new ArrayList<>();
            for (long[][] box : boxes) {
                for (long s = 0; s < shape[d]; s++) {
                    for (long n = 1; s + n <= shape[d]; n++) {
                        long[] start = Arrays.copyOf(box[0], d + 1);
                        long[] count = Arrays.copyOf(box[1], d + 1);
                        start[d] = s;
                        count[d] = n;
                        longer.add(new long[][] {start, count});
                    }
                }
            }
            boxes = longer;
        }
        return boxes;
    }

    private static long[] cut(long[] values, long[] shape, long[] start, long[] count) {
        long[] cut = new long[(int) count(count)];
        for (int i = 0; i < cut.length; i++) {
            long[] c = unflat(i, count);
            for (int d = 0; d < c.length; d++) {
                c[d] += start[d];
            }
            cut[i] = values[(int) flat(c, shape)];
        }
        return cut;
    }

    private static long count(long[] shape) {
        return Arrays.stream(shape).reduce(1, (a, b) -> a * b);
    }

    private static long flat(long[] coordinates, long[] shape) {
        long index = 0;
        for (int d = 0; d < shape.length; d++) {
            index = index * shape[d] + coordinates[d];
        }
        return index;
    }

    private static long[] unflat(long index, long[] shape) {
        long[] coordinates = new long[shape.length];
        for (int d = shape.length - 1; d >= 0; d--) {
            coordinates[d] = index % shape[d];
            index /= shape[d];
        }
        return coordinates;
    }
}
