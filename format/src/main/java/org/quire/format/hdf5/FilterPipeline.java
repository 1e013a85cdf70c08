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
     * The most bytes a chunk of {@code chunkBytes} can be stored in with the filters
     * {@code filterMask} does not skip: more is damage, refused before the bytes are read.
     */
    long maxStoredSize(int filterMask, int chunkBytes) {
        return stageSizes(filterMask, chunkBytes)[1][filters.size()];
    }

    /**
     * The chunk {@code record} of {@code file} points at, named {@code chunk} in errors, from
     * its {@code stored} bytes: the filters its mask does not skip undone, last to first. Each
     * must give back the chunk as the filters before it left it: {@code chunkBytes} plus 4 per
     * Fletcher-32 applied before it, exactly, or after deflate or LZF a size known only up to
     * their {@link Filter#maxEncodedSize}; a filter is stopped as soon as it passes that size,
     * so damaged or hostile data (a deflate bomb) never take more memory than the chunk.
     */
    byte[] decode(Path file, String chunk, ChunkRecord record, byte[] stored, int chunkBytes)
            throws CorruptFileException {
        long[][] sizes = stageSizes(record.filterMask(), chunkBytes);
        byte[] bytes = stored;
        for (int i = filters.size() - 1; i >= 0; i--) {
            if ((record.filterMask() & (1 << i)) != 0) {
                continue;
            }
            Filter filter = filters.get(i);
            long exact = sizes[0][i];
            int limit = (int) Math.min(sizes[1][i], DatasetSpec.MAX_CHUNK_BYTES);
            String field = "size after undoing filter " + filter.getClass().getSimpleName();
            try {
                bytes = filter.decode(bytes, elementSize, limit);
            } catch (Filter.OutputPastLimitException e) {
                throw new CorruptFileException(file, record.address(), chunk, field,
                        (exact == Filter.UNKNOWN_SIZE ? "at most " : "") + limit + " bytes",
                        e.found());
            } catch (IllegalArgumentException e) {
                throw new CorruptFileException(file, record.address(), chunk,
                        "filter " + filter.getClass().getSimpleName(),
                        "data the filter wrote", e.getMessage());
            }
            if (exact != Filter.UNKNOWN_SIZE && bytes.length != exact) {
                throw new CorruptFileException(file, record.address(), chunk, field,
                        exact + " bytes", bytes.length + " bytes");
            }
        }
        return bytes;
    }

    /**
     * For each filter {@code i}, the size of a chunk of {@code chunkBytes} before it is applied
     * (what undoing it gives): {@code [0][i]} exactly ({@link Filter#UNKNOWN_SIZE} after a
     * compressing filter), {@code [1][i]} at most; index {@code filters.size()} is the stored
     * size. Filters {@code filterMask} skips change neither.
     */
    private long[][] stageSizes(int filterMask, int chunkBytes) {
        long[][] sizes = new long[2][filters.size() + 1];
        sizes[0][0] = chunkBytes;
        sizes[1][0] = chunkBytes;
        for (int i = 0; i < filters.size(); i++) {
            boolean skipped = (filterMask & (1 << i)) != 0;
            sizes[0][i + 1] = skipped ? sizes[0][i] : filters.get(i).encodedSize(sizes[0][i]);
            sizes[1][i + 1] = skipped ? sizes[1][i] : filters.get(i).maxEncodedSize(sizes[1][i]);
        }
        return sizes;
    }
}
