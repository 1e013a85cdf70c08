package org.quire.benchmarks.swmr;

import org.quire.examples.swmr.SwmrRecord;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.WriteOptions;
import org.quire.format.storage.Durability;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Quire's SWMR writer and reader ({@code Hdf5File.startSwmrWrite}, {@code Hdf5File.openSwmr}). The writer runs
 * with durability {@code NONE}, as libhdf5 writes (it never forces the file), through a {@link
 * CountingStorageOpener}; each append is {@code extend}, {@code write}, {@code flush}.
 */
final class QuireSwmr implements SwmrLibrary {

    @Override
    public String name() {
        return "quire";
    }

    @Override
    public boolean supports(RecordIndex index) {
        return true;
    }

    @Override
    public Writer createSwmr(Path file, RecordIndex index) throws IOException {
        Files.deleteIfExists(file);
        CountingStorageOpener opener = new CountingStorageOpener();
        Hdf5File hdf5 = Hdf5File.create(file, opener, WriteOptions.DEFAULT.withDurability(Durability.NONE));
        DatasetSpec.Builder spec = DatasetSpec.builder(SwmrRecord.TYPE, index.shape(0)).maxShape(index.maxShape())
                .chunkShape(index.chunk());
        if (index == RecordIndex.SKIP_LIST) {
            spec.quireOnlySkipListIndex();
        }
        Dataset dataset = hdf5.root().createDataset(DATASET, spec.build());
        hdf5.startSwmrWrite();
        return new QuireWriter(hdf5, dataset, index, opener);
    }

    @Override
    public Reader openSwmr(Path file, RecordIndex index) throws IOException {
        return reader(Hdf5File.openSwmr(file), index);
    }

    @Override
    public Reader open(Path file, RecordIndex index) throws IOException {
        return reader(Hdf5File.open(file), index);
    }

    private static Reader reader(Hdf5File file, RecordIndex index) throws IOException {
        Dataset dataset = file.root().dataset(DATASET);
        return new Reader() {
            @Override
            public long refresh() throws IOException {
                if (file.isSwmrReader()) {
                    dataset.refresh();
                }
                return dataset.shape()[0];
            }

            @Override
            public void read(long start, int count, ByteBuffer into) throws IOException {
                into.clear().limit(count * SwmrRecord.SIZE);
                dataset.read(index.start(start), index.shape(count), into);
            }

            @Override
            public void close() throws IOException {
                file.close();
            }
        };
    }

    private static final class QuireWriter implements Writer {

        private final Hdf5File file;
        private final Dataset dataset;
        private final RecordIndex index;
        private final CountingStorageOpener opener;
        private long length;

        QuireWriter(Hdf5File file, Dataset dataset, RecordIndex index, CountingStorageOpener opener) {
            this.file = file;
            this.dataset = dataset;
            this.index = index;
            this.opener = opener;
        }

        @Override
        public void append(ByteBuffer records, int count) throws IOException {
            records.clear().limit(count * SwmrRecord.SIZE);
            dataset.extend(index.shape(length + count));
            dataset.write(index.start(length), index.shape(count), records);
            file.flush();
            length += count;
        }

        @Override
        public long storageBytes() {
            return opener.written();
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }
}
