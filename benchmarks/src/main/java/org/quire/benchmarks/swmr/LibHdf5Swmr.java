package org.quire.benchmarks.swmr;

import hdf.hdf5lib.H5;
import hdf.hdf5lib.HDF5Constants;
import org.quire.examples.swmr.SwmrRecord;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * libhdf5 1.10.8 (Debian's, serial) through its own Java binding, written as its SWMR documentation says: a
 * {@code H5Pset_libver_bounds(LATEST, LATEST)} file, the dataset created, {@code H5Fstart_swmr_write}, then per
 * append {@code H5Dset_extent}, a hyperslab {@code H5Dwrite} and {@code H5Dflush}; readers open with
 * {@code H5F_ACC_SWMR_READ} and call {@code H5Drefresh}. The record type is a compound of the eight uint64 members
 * of {@link SwmrRecord}, the same in memory and in the file (no conversion). Its writes are counted by the
 * benchmark from {@code /proc/self/io}, not here.
 */
final class LibHdf5Swmr implements SwmrLibrary {

    @Override
    public String name() {
        return "libhdf5";
    }

    @Override
    public boolean supports(RecordIndex index) {
        return index != RecordIndex.SKIP_LIST;
    }

    @Override
    public Writer createSwmr(Path file, RecordIndex index) throws IOException {
        Files.deleteIfExists(file);
        long access = H5.H5Pcreate(HDF5Constants.H5P_FILE_ACCESS);
        long creation = H5.H5Pcreate(HDF5Constants.H5P_DATASET_CREATE);
        long space = H5.H5Screate_simple(index.rank, index.shape(0), unlimited(index));
        long type = recordType();
        try {
            H5.H5Pset_libver_bounds(access, HDF5Constants.H5F_LIBVER_LATEST, HDF5Constants.H5F_LIBVER_LATEST);
            long fileId = H5.H5Fcreate(file.toString(), HDF5Constants.H5F_ACC_TRUNC, HDF5Constants.H5P_DEFAULT,
                    access);
            H5.H5Pset_chunk(creation, index.rank, index.chunk());
            long dataset = H5.H5Dcreate(fileId, DATASET, type, space, HDF5Constants.H5P_DEFAULT, creation,
                    HDF5Constants.H5P_DEFAULT);
            H5.H5Fstart_swmr_write(fileId);
            return new LibHdf5Writer(new Handles(fileId, dataset, recordType(), index));
        } finally {
            H5.H5Tclose(type);
            H5.H5Sclose(space);
            H5.H5Pclose(creation);
            H5.H5Pclose(access);
        }
    }

    @Override
    public Reader openSwmr(Path file, RecordIndex index) {
        return reader(file, index, HDF5Constants.H5F_ACC_RDONLY | HDF5Constants.H5F_ACC_SWMR_READ);
    }

    @Override
    public Reader open(Path file, RecordIndex index) {
        return reader(file, index, HDF5Constants.H5F_ACC_RDONLY);
    }

    private static Reader reader(Path file, RecordIndex index, int flags) {
        long fileId = H5.H5Fopen(file.toString(), flags, HDF5Constants.H5P_DEFAULT);
        Handles handles = new Handles(fileId, H5.H5Dopen(fileId, DATASET, HDF5Constants.H5P_DEFAULT), recordType(),
                index);
        boolean swmr = (flags & HDF5Constants.H5F_ACC_SWMR_READ) != 0;
        return new Reader() {
            @Override
            public long refresh() {
                if (swmr) {
                    H5.H5Drefresh(handles.dataset);
                }
                return handles.extent();
            }

            @Override
            public void read(long start, int count, ByteBuffer into) {
                handles.select(start, count);
                H5.H5Dread(handles.dataset, handles.type, handles.memorySpace, handles.fileSpace(),
                        HDF5Constants.H5P_DEFAULT, into.array());
            }

            @Override
            public void close() {
                handles.close();
            }
        };
    }

    private static long[] unlimited(RecordIndex index) {
        long[] max = new long[index.rank];
        Arrays.fill(max, HDF5Constants.H5S_UNLIMITED);
        return max;
    }

    /** The compound record type: eight little-endian uint64 members at offsets 0, 8, ..., 56. */
    private static long recordType() {
        long type = H5.H5Tcreate(HDF5Constants.H5T_COMPOUND, SwmrRecord.SIZE);
        for (int i = 0; i < SwmrRecord.MEMBER_NAMES.size(); i++) {
            H5.H5Tinsert(type, SwmrRecord.MEMBER_NAMES.get(i), i * Long.BYTES, HDF5Constants.H5T_STD_U64LE);
        }
        return type;
    }

    /**
     * A file and dataset open in libhdf5, with the selection's dataspaces: the file's is taken again after the
     * extent changed, the memory one kept while consecutive calls select as many records, as a C program would.
     */
    private static final class Handles {
        final long file;
        final long dataset;
        final long type;
        final RecordIndex index;
        long memorySpace = -1;
        private int memoryRecords = -1;
        private long fileSpace = -1;

        Handles(long file, long dataset, long type, RecordIndex index) {
            this.file = file;
            this.dataset = dataset;
            this.type = type;
            this.index = index;
        }

        long extent() {
            dropFileSpace();
            long[] dims = new long[index.rank];
            H5.H5Sget_simple_extent_dims(fileSpace(), dims, null);
            return dims[0];
        }

        void select(long start, int count) {
            H5.H5Sselect_hyperslab(fileSpace(), HDF5Constants.H5S_SELECT_SET, index.start(start), null,
                    index.shape(count), null);
            if (count != memoryRecords) {
                if (memorySpace >= 0) {
                    H5.H5Sclose(memorySpace);
                }
                memorySpace = H5.H5Screate_simple(index.rank, index.shape(count), null);
                memoryRecords = count;
            }
        }

        long fileSpace() {
            if (fileSpace < 0) {
                fileSpace = H5.H5Dget_space(dataset);
            }
            return fileSpace;
        }

        void dropFileSpace() {
            if (fileSpace >= 0) {
                H5.H5Sclose(fileSpace);
                fileSpace = -1;
            }
        }

        void close() {
            dropFileSpace();
            if (memorySpace >= 0) {
                H5.H5Sclose(memorySpace);
            }
            H5.H5Tclose(type);
            H5.H5Dclose(dataset);
            H5.H5Fclose(file);
        }
    }

    private static final class LibHdf5Writer implements Writer {

        private final Handles handles;
        private long length;

        LibHdf5Writer(Handles handles) {
            this.handles = handles;
        }

        @Override
        public void append(ByteBuffer records, int count) {
            H5.H5Dset_extent(handles.dataset, handles.index.shape(length + count));
            handles.dropFileSpace();
            handles.select(length, count);
            H5.H5Dwrite(handles.dataset, handles.type, handles.memorySpace, handles.fileSpace(),
                    HDF5Constants.H5P_DEFAULT, records.array());
            H5.H5Dflush(handles.dataset);
            length += count;
        }

        @Override
        public long storageBytes() {
            return -1;
        }

        @Override
        public void close() {
            handles.close();
        }
    }
}
