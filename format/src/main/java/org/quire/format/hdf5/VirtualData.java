package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * libhdf5, a source dataset that does not exist reads as the fill value, and a source block
 * beyond the source's extent is refused.
 *
 * <p>Quire pairs the blocks of a mapping's two selections in order ("all" is one block of the
 * whole dataspace): the i-th virtual block shows the i-th source block, so both must have the
 * same number of blocks and each pair the same extents once extents of 1 are dropped (a 1-D
 * source may fill a row of a 2-D virtual dataset). That covers what versioned-hdf5 and h5py's
 * {@code VirtualLayout} write (a block or "all" per mapping); other mappings (one strided
 * virtual selection onto one source block, say) are refused as unsupported when read.
 */
final class VirtualData {

    private final Hdf5File file;
    private final String path;
    private final Datatype type;
    private final List<VirtualMapping> mappings;

    VirtualData(Hdf5File file, String path, Datatype type, List<VirtualMapping> mappings) {
        this.file = file;
        this.path = path;
        this.type = type;
        this.mappings = List.copyOf(mappings);
    }

    List<VirtualMapping> mappings() {
        return mappings;
    }

    /**
     * Stores the hyperslab at {@code start} of {@code count} elements, of a dataset of
     * {@code shape}, in {@code target}.
     */
    void read(long[] shape, long[] start, long[] count, SelectionTarget target,
              byte[] fillElement) throws IOException {
        target.fill(0, Shapes.elementCount(count), fillElement);
        for (VirtualMapping mapping : mappings) {
            Dataset source = source(mapping);
            if (source == null) {
                continue;
            }
            List<Block> virtualBlocks = blocks(mapping.virtual(), shape);
            List<Block> sourceBlocks = blocks(mapping.source(), source.shape());
            if (!blocksPair(virtualBlocks, sourceBlocks)) {
                throw unsupported(mapping, "virtual blocks " + virtualBlocks
                        + " onto source blocks " + sourceBlocks);
            }
            for (int b = 0; b < virtualBlocks.size(); b++) {
                if (virtualBlocks.get(b).start().length != shape.length
                        || sourceBlocks.get(b).start().length != source.shape().length) {
                    throw unsupported(mapping, "a block of another rank than its dataspace's");
                }
                Block from = sourceBlocks.get(b);
                long[] sourceShape = source.shape();
                for (int d = 0; d < sourceShape.length; d++) {
                    if (from.start()[d] + from.count()[d] > sourceShape[d]) {
                        throw unsupported(mapping, "source block " + from + " beyond the "
                                + "source's shape " + Arrays.toString(sourceShape)
                                + " (libhdf5 refuses to read it too)");
                    }
                }
                copy(virtualBlocks.get(b), from, source, start, count, target);
            }
        }
    }

    /**
     * Whether each virtual block shows the source block at its place: as many blocks, and the
     * extents other than 1 of each pair equal, in order.
     */
    static boolean blocksPair(List<Block> virtual, List<Block> source) {
        if (virtual.size() != source.size()) {
            return false;
        }
        for (int b = 0; b < virtual.size(); b++) {
            long[] to = virtual.get(b).count();
            long[] from = source.get(b).count();
            if (!Arrays.equals(Arrays.stream(nonUnitAxes(to)).mapToLong(d -> to[d]).toArray(),
                    Arrays.stream(nonUnitAxes(from)).mapToLong(d -> from[d]).toArray())) {
                return false;
            }
        }
        return true;
    }

    /** The source dataset of {@code mapping}, or null when it does not exist. */
    private Dataset source(VirtualMapping mapping) throws IOException {
        if (!mapping.sourceFile().equals(VirtualMapping.SAME_FILE)) {
            throw unsupported(mapping, "source file \"" + mapping.sourceFile() + "\"");
        }
        Hdf5Object object = file.root();
        try {
            for (String part : mapping.sourceDataset().split("/")) {
                if (!part.isEmpty() && !part.equals(".")) {
                    object = ((Group) object).get(part);
                }
            }
        } catch (NoSuchElementException | ClassCastException e) {
            return null;
        }
        if (!(object instanceof Dataset dataset)) {
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
        ByteBuffer bytes = source.read(sourceStart, sourceCount);
        int size = type.size();
        BoxRuns.forEach(extent, new long[rank], count, inRequest, extent,
                (element, at, elements) -> target.put(at, bytes.slice((int) element * size,
                        (int) elements * size)));
    }

    private static int[] nonUnitAxes(long[] extents) {
        return java.util.stream.IntStream.range(0, extents.length)
                .filter(d -> extents[d] != 1).toArray();
    }

    private UnsupportedFormatException unsupported(VirtualMapping mapping, String found) {
        return new UnsupportedFormatException(file.path(), "virtual dataset mapping",
                UnsupportedFormatException.NO_OFFSET, found + " in the mapping from "
                + mapping.sourceFile() + " " + mapping.sourceDataset(),
                "blocks of the same file's datasets of the same type, paired in order with "
                        + "equal extents (extents of 1 aside)").within(path);
    }
}
