package org.quire.format.hdf5;

import org.quire.format.CorruptFileException;

/**
 * An SWMR reader read a metadata block as many times as its {@link SwmrReadOptions} allow and
 * it failed its check every time: the block is damaged, not torn by a writer rewriting it. The
 * message names the file, the structure and offset of the last failure, and the attempts:
 *
 * <pre>x.h5: corrupt object header at offset 195: checksum expected 0x1a2b3c4d, found
 * 0x00000000 (20 reads in 0.98 s, SWMR reader)</pre>
 */
public class MetadataRetriesExhaustedException extends CorruptFileException {

    private final CorruptFileException last;
    private final int attempts;
    private final long nanos;

    MetadataRetriesExhaustedException(CorruptFileException last, int attempts, long nanos) {
        super(last.file(), last.offset(), last.structure(), last.field(), last.expected(),
                last.found() + String.format(java.util.Locale.ROOT,
                        " (%d reads in %.2f s, SWMR reader)", attempts, nanos / 1e9),
                last.object());
        this.last = last;
        this.attempts = attempts;
        this.nanos = nanos;
        initCause(last);
    }

    @Override
    public MetadataRetriesExhaustedException of(String object) {
        return object() != null ? this
                : new MetadataRetriesExhaustedException(last.of(object), attempts, nanos);
    }

    /** How many times the block was read. */
    public int attempts() {
        return attempts;
    }
}
