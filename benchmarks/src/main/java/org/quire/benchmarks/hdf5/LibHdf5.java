package org.quire.benchmarks.hdf5;

import hdf.hdf5lib.H5;
import hdf.hdf5lib.HDF5Constants;

import java.nio.file.Path;

/**
 * libhdf5 (Debian's 1.10.8, serial) through its own Java binding ({@code hdf.hdf5lib.H5}, JNI),
 * set up as Quire writes: {@code H5Pset_libver_bounds(LATEST, LATEST)}, the same chunk size, no
 * filters or deflate alone, default fill value; {@code H5Fclose} writes everything but never fsyncs. With
 * {@code chunkCache} false the dataset is opened with {@code H5Pset_chunk_cache(0, 0)}, so that
 * reads go to the file instead of loading whole chunks into the cache.
 *
 * <p>A selection's dataspaces are kept while consecutive calls use the same length (a lookup loop
 * creates none), as a C program would.
 */
final class LibHdf5 implements Hdf5Library {

    private final boolean chunkCache;

    LibHdf5(boolean chunkCache) {
        this.chunkCache = chunkCache;
    }

    @Override
    public String name() {
        return chunkCache ? "libhdf5" : "libhdf5-nocache";
    }

    @Override
    public Float64DatasetFile create(Path file, long length, int chunkElements, DatasetLayout layout) {
        boolean extensible = layout.extensible;
        long fileAccess = H5.H5Pcreate(HDF5Constants.H5P_FILE_ACCESS);
        long creation = H5.H5Pcreate(HDF5Constants.H5P_DATASET_CREATE);
        long space = -1;
        try {
            H5.H5Pset_libver_bounds(fileAccess, HDF5Constants.H5F_LIBVER_LATEST, HDF5Constants.H5F_LIBVER_LATEST);
            long fileId = H5.H5Fcreate(file.toString(), HDF5Constants.H5F_ACC_TRUNC, HDF5Constants.H5P_DEFAULT,
                    fileAccess);
            H5.H5Pset_chunk(creation, 1, new long[] {chunkElements});
            if (layout.deflate) {
                H5.H5Pset_deflate(creation, DatasetLayout.DEFLATE_LEVEL);
            }
            space = H5.H5Screate_simple(1, new long[] {extensible ? 0 : length},
                    new long[] {extensible ? HDF5Constants.H5S_UNLIMITED : length});
            long dataset = H5.H5Dcreate(fileId, Float64DatasetFile.DATASET, HDF5Constants.H5T_IEEE_F64LE, space,
                    HDF5Constants.H5P_DEFAULT, creation, HDF5Constants.H5P_DEFAULT);
            return new LibHdf5Dataset(fileId, dataset);
        } finally {
            if (space >= 0) {
                H5.H5Sclose(space);
            }
            H5.H5Pclose(creation);
            H5.H5Pclose(fileAccess);
        }
    }

    @Override
    public Float64DatasetFile open(Path file) {
        long fileId = H5.H5Fopen(file.toString(), HDF5Constants.H5F_ACC_RDONLY, HDF5Constants.H5P_DEFAULT);
        long access = H5.H5Pcreate(HDF5Constants.H5P_DATASET_ACCESS);
        try {
            if (!chunkCache) {
                H5.H5Pset_chunk_cache(access, 0, 0, 1.0);
            }
            return new LibHdf5Dataset(fileId, H5.H5Dopen(fileId, Float64DatasetFile.DATASET, access));
        } finally {
            H5.H5Pclose(access);
        }
    }

    private static final class LibHdf5Dataset implements Float64DatasetFile {

        private final long file;
        private final long dataset;
        private long fileSpace = -1;
        private long memorySpace = -1;
        private int memoryLength = -1;

        LibHdf5Dataset(long file, long dataset) {
            this.file = file;
            this.dataset = dataset;
        }

        @Override
        public long length() {
            long[] dims = new long[1];
            H5.H5Sget_simple_extent_dims(fileSpace(), dims, null);
            return dims[0];
        }

        @Override
        public void write(long start, double[] values) {
            long end = start + values.length;
            if (end > length()) {
                H5.H5Dset_extent(dataset, new long[] {end});
                dropFileSpace();
            }
            select(start, values.length);
            H5.H5Dwrite_double(dataset, HDF5Constants.H5T_NATIVE_DOUBLE, memorySpace, fileSpace,
                    HDF5Constants.H5P_DEFAULT, values);
        }

        @Override
        public void read(long start, double[] into) {
            select(start, into.length);
            H5.H5Dread_double(dataset, HDF5Constants.H5T_NATIVE_DOUBLE, memorySpace, fileSpace,
                    HDF5Constants.H5P_DEFAULT, into);
        }

        private void select(long start, int length) {
            H5.H5Sselect_hyperslab(fileSpace(), HDF5Constants.H5S_SELECT_SET, new long[] {start}, null,
                    new long[] {length}, null);
            if (length != memoryLength) {
                if (memorySpace >= 0) {
                    H5.H5Sclose(memorySpace);
                }
                memorySpace = H5.H5Screate_simple(1, new long[] {length}, null);
                memoryLength = length;
            }
        }

        private long fileSpace() {
            if (fileSpace < 0) {
                fileSpace = H5.H5Dget_space(dataset);
            }
            return fileSpace;
        }

        private void dropFileSpace() {
            if (fileSpace >= 0) {
                H5.H5Sclose(fileSpace);
                fileSpace = -1;
            }
        }

        @Override
        public void close() {
            dropFileSpace();
            if (memorySpace >= 0) {
                H5.H5Sclose(memorySpace);
            }
            H5.H5Dclose(dataset);
            H5.H5Fclose(file);
        }
    }
}
