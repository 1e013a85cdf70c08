package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.chunk.BoxRuns;
import org.quire.format.hdf5.chunk.Shapes;
import org.quire.format.hdf5.layout.DataspaceSelection;
import org.quire.format.hdf5.layout.DataspaceSelection.Block;
import org.quire.format.hdf5.layout.VirtualMapping;

/**
 * The elements of a virtual dataset: each mapping's source elements, read from the source
 * dataset in the same file, where its virtual selection lies; the fill value elsewhere. As in
 * libhdf5, a source dataset that does not exist reads as the fill value, a source block beyond
 * the source's extent is refused, and "%%" in a source dataset name stands for "%" (any other
 * "%", such as the printf-style "%b" of unlimited mappings, is refused).
 *
 * <p>As in libhdf5, the n-th element of a mapping's virtual selection, in row-major order,
 * shows the n-th element of its source selection ("all" is the whole dataspace). A mapping of
 * one block onto one block of the same extents (extents of 1 aside: a 1-D source block may fill
 * a row of a 2-D dataset), what versioned-hdf5 and most of h5py's {@code VirtualLayout} write,
 * is read as one box per request, straight into the caller's memory when the box is one stretch
 * of the request; any other (a strided selection, several blocks) is walked row by row, one
 * source read per stretch of a row.
 *
 * <p>Mappings overlapping in the virtual dataset are read in order, so the later one shows (as
 * in libhdf5, which however leaves unmapped elements unfilled when the overlapping mappings'
 * element counts add up to the request's; Quire fills them). Sources are resolved and blocks
 * checked on the first read, and a {@link VirtualMappingIndex} finds the mappings a request
 * meets, so a read costs what it touches, not the number of mappings.
 */
final class VirtualData {

    /** Rows a selection the general case walks may have: their coordinates are held. */
    private static final int MAX_RUNS = 1 << 20;

    private final Hdf5File file;
    private final String path;
    private final Datatype type;
    private final List<VirtualMapping> mappings;
    /**
     * The mappings resolved and checked for a dataset of {@code shape}: kept while each source
     * path still leads to the same dataset (or still to none: a writer may delete or create
     * one), which a read checks once per distinct path.
     */
    private Plan plan;

    VirtualData(Hdf5File file, String path, Datatype type, List<VirtualMapping> mappings) {
        this.file = file;
        this.path = path;
        this.type = type;
        this.mappings = List.copyOf(mappings);
    }

    List<VirtualMapping> mappings() {
        return mappings;
    }

    /** A mapping resolved once: its source (null when missing) and its checked blocks. */
    private record Resolved(VirtualMapping mapping, Dataset source, List<Block> virtualBlocks,
                            List<Block> sourceBlocks, boolean box) {
    }

    private record Plan(long[] shape, List<Resolved> resolved, VirtualMappingIndex index,
                        Map<String, Dataset> sources) {
    }

    /**
     * Stores the hyperslab at {@code start} of {@code count} elements, of a dataset of
     * {@code shape}, in {@code target}. Only the mappings whose virtual blocks meet the request
     * are read, in mapping order (a later mapping shows over an earlier one, as libhdf5 does);
     * the fill value is written first unless disjoint single-block mappings cover the request.
     */
    void read(long[] shape, long[] start, long[] count, SelectionTarget target,
              byte[] fillElement) throws IOException {
        Plan current = plan(shape);
        int[] candidates = current.index().candidates(padded(start, 0), padded(count, 1));
        if (!covered(current, candidates, start, count)) {
            target.fill(0, Shapes.elementCount(count), fillElement);
        }
        for (int i : candidates) {
            Resolved r = current.resolved().get(i);
            if (r.source() == null) {
                continue;
            }
            // The source may have been resized since the plan was made.
            check(r.mapping(), r.sourceBlocks(), r.source().shape(), "source");
            if (r.box()) {
                copy(r.virtualBlocks().get(0), r.sourceBlocks().get(0), r.source(), start, count,
                        target);
            } else {
                copyRuns(r.mapping(), r.virtualBlocks(), r.sourceBlocks(), r.source(), start,
                        count, target);
            }
        }
    }

    private Plan plan(long[] shape) throws IOException {
        if (plan != null && Arrays.equals(plan.shape(), shape) && sameSources(plan)) {
            return plan;
        }
        Map<String, Dataset> sources = new HashMap<>();
        List<Resolved> resolved = new ArrayList<>(mappings.size());
        long[][] lows = new long[mappings.size()][];
        long[][] highs = new long[mappings.size()][];
        for (VirtualMapping mapping : mappings) {
            Dataset source = source(mapping);
            sources.put(mapping.sourceDataset(), source);
            List<Block> virtualBlocks = blocks(mapping.virtual(), shape);
            List<Block> sourceBlocks = List.of();
            boolean box = false;
            if (source != null) {
                check(mapping, virtualBlocks, shape, "virtual");
                sourceBlocks = blocks(mapping.source(), source.shape());
                check(mapping, sourceBlocks, source.shape(), "source");
                if (elements(virtualBlocks) != elements(sourceBlocks)) {
                    throw unsupported(mapping, elements(virtualBlocks) + " virtual and "
                            + elements(sourceBlocks) + " source elements");
                }
                box = virtualBlocks.size() == 1 && sourceBlocks.size() == 1
                        && sameBox(virtualBlocks.get(0), sourceBlocks.get(0));
                if (!virtualBlocks.isEmpty()) {
                    lows[resolved.size()] = padded(new long[shape.length], 0);
                    highs[resolved.size()] = padded(new long[shape.length], 1);
                    Arrays.fill(lows[resolved.size()], Long.MAX_VALUE);
                    Arrays.fill(highs[resolved.size()], Long.MIN_VALUE);
                    for (Block block : virtualBlocks) {
                        long[] low = padded(block.start(), 0);
                        long[] count = padded(block.count(), 1);
                        for (int d = 0; d < low.length; d++) {
                            lows[resolved.size()][d] = Math.min(lows[resolved.size()][d], low[d]);
                            highs[resolved.size()][d] = Math.max(highs[resolved.size()][d],
                                    low[d] + count[d]);
                        }
                    }
                }
            }
            resolved.add(new Resolved(mapping, source, virtualBlocks, sourceBlocks, box));
        }
        plan = new Plan(shape.clone(), resolved, new VirtualMappingIndex(lows, highs), sources);
        return plan;
    }

    private boolean sameSources(Plan plan) throws IOException {
        for (Map.Entry<String, Dataset> source : plan.sources().entrySet()) {
            if (find(source.getKey()) != source.getValue()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the candidates' virtual blocks cover every element of the request: when each is
     * one block and no two meet, the elements they share with the request add up to it.
     */
    private static boolean covered(Plan plan, int[] candidates, long[] start, long[] count) {
        if (!plan.index().disjoint()) {
            return false;
        }
        long covered = 0;
        for (int i : candidates) {
            Resolved r = plan.resolved().get(i);
            if (r.virtualBlocks().size() != 1) {
                return false;
            }
            Block block = r.virtualBlocks().get(0);
            long shared = 1;
            for (int d = 0; d < start.length; d++) {
                shared *= Math.max(0, Math.min(block.start()[d] + block.count()[d],
                        start[d] + count[d]) - Math.max(block.start()[d], start[d]));
            }
            covered += shared;
        }
        return covered == Shapes.elementCount(count);
    }

    /** {@code values} with a leading axis of {@code pad} for a scalar (rank 0), so every box has one. */
    private static long[] padded(long[] values, long pad) {
        return values.length > 0 ? values : new long[] {pad};
    }

    /** Every block of {@code blocks} must have the dataspace's rank and lie inside its shape. */
    private void check(VirtualMapping mapping, List<Block> blocks, long[] shape, String side)
            throws UnsupportedFormatException {
        for (Block block : blocks) {
            boolean inside = block.start().length == shape.length;
            for (int d = 0; inside && d < shape.length; d++) {
                inside = block.start()[d] + block.count()[d] <= shape[d];
            }
            if (!inside) {
                throw unsupported(mapping, side + " block " + block + " outside the shape "
                        + Arrays.toString(shape) + (side.equals("source")
                        ? " (libhdf5 refuses to read it too)" : ""));
            }
        }
    }

    private static long elements(List<Block> blocks) {
        long elements = 0;
        for (Block block : blocks) {
            elements += Shapes.elementCount(block.count());
        }
        return elements;
    }

    /**
     * Whether the two boxes hold the same extents once extents of 1 are dropped: then row-major
     * order pairs them box to box (a 1-D source block may fill a row of a 2-D dataset).
     */
    private static boolean sameBox(Block virtual, Block source) {
        long[] to = virtual.count();
        long[] from = source.count();
        return Arrays.equals(Arrays.stream(nonUnitAxes(to)).mapToLong(d -> to[d]).toArray(),
                Arrays.stream(nonUnitAxes(from)).mapToLong(d -> from[d]).toArray());
    }

    /** The source dataset of {@code mapping}, or null when it does not exist. */
    private Dataset source(VirtualMapping mapping) throws IOException {
        if (!mapping.sourceFile().equals(VirtualMapping.SAME_FILE)) {
            throw unsupported(mapping, "source file \"" + mapping.sourceFile() + "\"");
        }
        String name = mapping.sourceDataset();
        if (!VirtualMapping.percentsEscaped(name)) {
            throw unsupported(mapping, "source dataset name \"" + name + "\" (libhdf5 opens"
                    + " a bounded mapping's names with \"%\" only as \"%%\")");
        }
        Dataset dataset = find(name);
        if (dataset == null) {
            return null;
        }
        if (dataset.layout() == StorageLayout.VIRTUAL) {
            throw unsupported(mapping, "a virtual source dataset");
        }
        if (!dataset.type().equals(type)) {
            throw unsupported(mapping, "source type " + dataset.type() + " (no conversion)");
        }
        return dataset;
    }

    /**
     * The dataset at {@code sourcePath} in this file ("%%" in it standing for "%"), or null when
     * there is none.
     */
    private Dataset find(String sourcePath) throws IOException {
        Hdf5Object object = file.root();
        try {
            for (String part : sourcePath.replace("%%", "%").split("/")) {
                if (!part.isEmpty() && !part.equals(".")) {
                    object = ((Group) object).get(part);
                }
            }
        } catch (NoSuchElementException | ClassCastException e) {
            return null;
        }
        return object instanceof Dataset dataset ? dataset : null;
    }

    private static List<Block> blocks(DataspaceSelection selection, long[] shape) {
        if (selection instanceof DataspaceSelection.Hyperslab hyperslab) {
            return hyperslab.blocks();
        }
        List<Block> whole = new ArrayList<>();
        if (Shapes.elementCount(shape) > 0) {
            whole.add(new Block(new long[shape.length], shape));
        }
        return whole;
    }

    /**
     * Copies what the request ({@code start}, {@code count}) selects of the virtual block
     * {@code to} from the source block {@code from} of {@code source}.
     */
    private void copy(Block to, Block from, Dataset source, long[] start, long[] count,
                      SelectionTarget target) throws IOException {
        int rank = start.length;
        long[] lo = new long[rank];
        long[] extent = new long[rank];
        long[] inRequest = new long[rank];
        for (int d = 0; d < rank; d++) {
            lo[d] = Math.max(to.start()[d], start[d]);
            long hi = Math.min(to.start()[d] + to.count()[d], start[d] + count[d]);
            if (hi <= lo[d]) {
                return;
            }
            extent[d] = hi - lo[d];
            inRequest[d] = lo[d] - start[d];
        }
        // The source box: the block's start, moved along the axes the two blocks share.
        long[] sourceStart = from.start();
        long[] sourceCount = new long[sourceStart.length];
        Arrays.fill(sourceCount, 1);
        int[] virtualAxes = nonUnitAxes(to.count());
        int[] sourceAxes = nonUnitAxes(from.count());
        for (int i = 0; i < virtualAxes.length; i++) {
            int v = virtualAxes[i];
            sourceStart[sourceAxes[i]] += lo[v] - to.start()[v];
            sourceCount[sourceAxes[i]] = extent[v];
        }
        if (contiguousIn(extent, count)) {
            source.readInto(sourceStart, sourceCount,
                    target.from(BoxRuns.elementIndex(count, inRequest)));
            return;
        }
        ByteBuffer bytes = source.read(sourceStart, sourceCount);
        int size = type.size();
        BoxRuns.forEach(extent, new long[rank], count, inRequest, extent,
                (element, at, elements) -> target.put(at, bytes.slice((int) element * size,
                        (int) elements * size)));
    }

    /**
     * Whether a box of {@code extent} is one stretch of a request of {@code count} in row-major
     * order (extents of 1, then at most one partial axis, then whole axes): then its source
     * elements are read straight into the caller's memory.
     */
    private static boolean contiguousIn(long[] extent, long[] count) {
        int d = 0;
        while (d < extent.length && extent[d] == 1) {
            d++;
        }
        for (d++; d < extent.length; d++) {
            if (extent[d] != count[d]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The general case, as libhdf5 pairs selections: the n-th element of the virtual selection
     * in row-major order shows the n-th of the source selection. Both are cut into runs along
     * their last dimension, in row-major order, and walked side by side; each stretch both
     * runs share that the request overlaps is one read of the source.
     */
    private void copyRuns(VirtualMapping mapping, List<Block> virtualBlocks,
                          List<Block> sourceBlocks, Dataset source, long[] start, long[] count,
                          SelectionTarget target) throws IOException {
        List<long[]> to = runs(mapping, virtualBlocks);
        List<long[]> from = runs(mapping, sourceBlocks);
        int rank = start.length;
        int last = rank - 1;
        int sourceLast = source.shape().length - 1;
        int size = type.size();
        int i = 0;
        int j = 0;
        long doneTo = 0;
        long doneFrom = 0;
        while (i < to.size() && j < from.size()) {
            long[] v = to.get(i);
            long[] f = from.get(j);
            long length = Math.min(v[rank] - doneTo, f[sourceLast + 1] - doneFrom);
            long first = v[last] + doneTo;
            boolean rowInRequest = true;
            for (int d = 0; d < last; d++) {
                rowInRequest &= v[d] >= start[d] && v[d] < start[d] + count[d];
            }
            long lo = Math.max(first, start[last]);
            long hi = Math.min(first + length, start[last] + count[last]);
            if (rowInRequest && lo < hi) {
                long[] sourceStart = Arrays.copyOf(f, sourceLast + 1);
                sourceStart[sourceLast] += doneFrom + lo - first;
                long[] sourceCount = new long[sourceLast + 1];
                Arrays.fill(sourceCount, 1);
                sourceCount[sourceLast] = hi - lo;
                long[] at = new long[rank];
                for (int d = 0; d < rank; d++) {
                    at[d] = (d == last ? lo : v[d]) - start[d];
                }
                ByteBuffer bytes = source.read(sourceStart, sourceCount);
                target.put(BoxRuns.elementIndex(count, at), bytes.slice(0, (int) (hi - lo) * size));
            }
            doneTo += length;
            doneFrom += length;
            if (doneTo == v[rank]) {
                i++;
                doneTo = 0;
            }
            if (doneFrom == f[sourceLast + 1]) {
                j++;
                doneFrom = 0;
            }
        }
    }

    /**
     * The runs of {@code blocks} along their last dimension in row-major order: each its first
     * element's coordinates, then its length.
     */
    private List<long[]> runs(VirtualMapping mapping, List<Block> blocks)
            throws UnsupportedFormatException {
        List<long[]> runs = new ArrayList<>();
        for (Block block : blocks) {
            long[] blockStart = block.start();
            long[] blockCount = block.count();
            int rank = blockStart.length;
            long rows = Shapes.elementCount(blockCount) / blockCount[rank - 1];
            if (runs.size() + rows > MAX_RUNS) {
                throw unsupported(mapping, "a selection of more than " + MAX_RUNS + " rows");
            }
            long[] offset = new long[rank];
            for (long r = 0; r < rows; r++) {
                long[] run = new long[rank + 1];
                for (int d = 0; d < rank; d++) {
                    run[d] = blockStart[d] + offset[d];
                }
                run[rank] = blockCount[rank - 1];
                runs.add(run);
                for (int d = rank - 2; d >= 0 && ++offset[d] == blockCount[d]; d--) {
                    offset[d] = 0;
                }
            }
        }
        runs.sort((a, b) -> Arrays.compare(a, 0, a.length - 1, b, 0, b.length - 1));
        return runs;
    }

    private static int[] nonUnitAxes(long[] extents) {
        return java.util.stream.IntStream.range(0, extents.length)
                .filter(d -> extents[d] != 1).toArray();
    }

    private UnsupportedFormatException unsupported(VirtualMapping mapping, String found) {
        return new UnsupportedFormatException(file.path(), "virtual dataset mapping",
                UnsupportedFormatException.NO_OFFSET, found + " in the mapping from "
                + mapping.sourceFile() + " " + mapping.sourceDataset(),
                "selections of as many elements inside datasets of the same file and type")
                .within(path);
    }
}
