package org.quire.format.hdf5;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.FilterPipelineMessage;

/**
 * A dataset's filters in pipeline order: applied first to last when a chunk is stored, last to
 * first (skipping those the chunk's filter mask marks) when it is read; and their coding in the
 * filter pipeline message (filter identification values of specification section IV.A.2.l).
 */
final class FilterPipeline {

    private final List<Filter> filters;
    private final int elementSize;

    FilterPipeline(List<Filter> filters, int elementSize) {
        this.filters = List.copyOf(filters);
        this.elementSize = elementSize;
    }

    /** Whether there are no filters: a chunk's stored bytes are its elements. */
    boolean isEmpty() {
        return filters.isEmpty();
    }

    /** The filters {@code message} of the dataset at {@code address} names. */
    static List<Filter> filters(Path name, long address, FilterPipelineMessage message)
            throws UnsupportedFormatException {
        List<Filter> filters = new ArrayList<>();
        for (FilterPipelineMessage.Entry entry : message.filters()) {
            filters.add(switch (entry.id()) {
                case 1 -> Filter.deflate(entry.clientData().length > 0
                        ? Math.min(9, Math.max(0, entry.clientData()[0])) : 6);
                case 2 -> Filter.shuffle();
                case 3 -> Filter.fletcher32();
                case Filter.Lzf.ID -> Filter.lzf();
                default -> throw new UnsupportedFormatException(name, "filter pipeline message",
                        address, "filter " + entry.id(), "filters 1 (deflate), 2 (shuffle), "
                        + "3 (Fletcher-32), 32000 (LZF)");
            });
        }
        return List.copyOf(filters);
    }

    /** The filter pipeline message naming these filters, for chunks of {@code chunkBytes}. */
    FilterPipelineMessage message(int chunkBytes) {
        List<FilterPipelineMessage.Entry> entries = new ArrayList<>();
        for (Filter filter : filters) {
            entries.add(new FilterPipelineMessage.Entry(filter.id(), filter.flags(), filter.name(),
                    filter.clientData(elementSize, chunkBytes)));
        }
        return new FilterPipelineMessage(entries);
    }

    /** A chunk's bytes as stored: every filter applied, first to last. */
    byte[] encode(byte[] chunk) {
        byte[] stored = chunk;
        for (Filter filter : filters) {
            stored = filter.encode(stored, elementSize);
        }
        return stored;
    }

    /**
     * The chunk {@code record} of {@code file} points at, from its {@code stored} bytes: the
     * filters its mask does not skip undone, last to first. Each gives back the chunk as the
     * filters before it left it: {@code chunkBytes} plus 4 per Fletcher-32 applied before it,
     * which it is told exactly, or, after deflate or LZF, a size it cannot be told.
     */
    byte[] decode(Path file, ChunkRecord record, byte[] stored, int chunkBytes)
            throws CorruptFileException {
        long[] decodedSizes = new long[filters.size()];
        long size = chunkBytes;
        for (int i = 0; i < filters.size(); i++) {
            decodedSizes[i] = size;
            if ((record.filterMask() & (1 << i)) == 0) {
                size = filters.get(i).encodedSize(size);
            }
        }
        byte[] bytes = stored;
        for (int i = filters.size() - 1; i >= 0; i--) {
            if ((record.filterMask() & (1 << i)) != 0) {
                continue;
            }
            Filter filter = filters.get(i);
            try {
                bytes = decodedSizes[i] == Filter.UNKNOWN_SIZE
                        || decodedSizes[i] > DatasetSpec.MAX_CHUNK_BYTES
                        ? filter.decode(bytes, elementSize)
                        : filter.decode(bytes, elementSize, (int) decodedSizes[i]);
            } catch (IllegalArgumentException e) {
                throw new CorruptFileException(file, record.address(), "chunk",
                        "filter " + filter.getClass().getSimpleName(),
                        "data the filter wrote", e.getMessage());
            }
        }
        return bytes;
    }
}
