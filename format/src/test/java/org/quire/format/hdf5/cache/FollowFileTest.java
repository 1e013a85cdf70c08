package org.quire.format.hdf5.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.quire.format.storage.Durability;

/**
 * An SWMR reader's cache after {@link MetadataCache#followFile}: an entry the file still holds
 * byte for byte is used again without loading it, one the writer changed is loaded again.
 */
class FollowFileTest {

    private static final long AT = 64;
    private static final int LONGS = 4;

    private final RecordingStorage storage = new RecordingStorage();
    private final MetadataCache cache = new MetadataCache(storage, 1 << 20, Durability.NONE);
    private final AtomicInteger loads = new AtomicInteger();
    private final EntryLoader<LongBlock> loader = (address, file) -> {
        loads.incrementAndGet();
        return LongBlock.loader(FlushStage.METADATA, LONGS).load(address, file);
    };

    /** The writer puts {@code first} and three more longs at {@link #AT}. */
    private void writerWrites(long first) {
        ByteBuffer image = ByteBuffer.allocate(LONGS * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        image.putLong(first).putLong(2).putLong(3).putLong(4).flip();
        storage.write(image, AT);
    }

    private LongBlock use() throws IOException {
        LongBlock block = cache.protect(AT, LongBlock.class, loader);
        cache.unprotect(block);
        return block;
    }

    @Test
    void anEntryTheFileStillHoldsIsKeptAndAChangedOneIsLoadedAgain() throws IOException {
        writerWrites(1);
        LongBlock first = use();
        assertEquals(1, loads.get());

        cache.followFile();
        assertSame(first, use(), "the file holds the same bytes: kept");
        assertEquals(1, loads.get());

        writerWrites(5);
        assertSame(first, use(), "not compared again before the next followFile");
        cache.followFile();
        LongBlock changed = use();
        assertEquals(2, loads.get(), "changed in place: loaded again");
        assertEquals(5, changed.get(0));
        assertSame(changed, use(), "compared once per round");
        assertEquals(2, loads.get());
    }

    @Test
    void anEntryAnEarlierViewHeldForItsLifeIsComparedToo() throws IOException {
        writerWrites(1);
        cache.protect(AT, LongBlock.class, loader); // never unprotected, as an index block
        writerWrites(7);
        cache.followFile();
        assertEquals(7, use().get(0));
        assertEquals(2, loads.get());
    }

    @Test
    void aCacheWithChangesOfItsOwnCannotFollowTheFile() throws IOException {
        cache.insert(new LongBlock(AT, FlushStage.METADATA, LONGS));
        assertThrows(IllegalStateException.class, cache::followFile);
    }
}
