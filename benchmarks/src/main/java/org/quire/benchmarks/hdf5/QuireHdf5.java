package org.quire.benchmarks.hdf5;

import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Filter;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.WriteOptions;
import org.quire.format.storage.Durability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Quire's own HDF5 ({@code org.quire.format.hdf5}), with its default chunk cache (libhdf5's size, 1 MiB in 521
 * slots): filtered chunks are cached decoded; reads of unfiltered chunks fetch only the bytes selected. Files are
 * written with durability {@code NONE}, as libhdf5 writes them (no fsync of its own).
 */
final class QuireHdf5 implements Hdf5Library {

    @Override
    public String name() {
        return "quire";
    }

    @Override
    public Float64DatasetFile create(Path file, long length, int chunkElements, DatasetLayout layout)
            throws IOException {
        Files.deleteIfExists(file);
        // libhdf5 never forces the file; Quire's default (ON_CLOSE) would fsync inside close().
        Hdf5File hdf5 = Hdf5File.create(file, WriteOptions.DEFAULT.withDurability(Durability.NONE));
        DatasetSpec.Builder spec = DatasetSpec.builder(Datatype.FLOAT64, layout.extensible ? 0 : length)
                .chunkShape(chunkElements);
        if (layout.extensible) {
            spec.maxShape(DatasetSpec.UNLIMITED);
        }
        if (layout.deflate) {
            spec.filter(Filter.deflate(DatasetLayout.DEFLATE_LEVEL));
        }
        return new QuireDataset(hdf5, hdf5.root().createDataset(Float64DatasetFile.DATASET, spec.build()));
    }

    @Override
    public Float64DatasetFile open(Path file) throws IOException {
        Hdf5File hdf5 = Hdf5File.open(file);
        return new QuireDataset(hdf5, hdf5.root().dataset(Float64DatasetFile.DATASET));
    }

    private record QuireDataset(Hdf5File file, Dataset dataset) implements Float64DatasetFile {

        @Override
        public long length() {
            return dataset.shape()[0];
        }

        @Override
        public void write(long start, double[] values) throws IOException {
            long end = start + values.length;
            if (end > length()) {
                dataset.extend(end);
            }
            dataset.write(new long[] {start}, new long[] {values.length}, values);
        }

        @Override
        public void read(long start, double[] into) throws IOException {
            dataset.read(new long[] {start}, new long[] {into.length}, into);
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }
}
