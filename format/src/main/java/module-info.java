/**
 * Quire's on-disk formats: SIONlib containers, HDF5 files, versioned HDF5 datasets and Hangar
 * locator records, on the JDK alone. Exports the API packages; the HDF5 byte layouts
 * ({@code org.quire.format.hdf5.layout}) and chunked storage ({@code org.quire.format.hdf5.chunk})
 * are internal.
 */
module org.quire.format {

    exports org.quire.format;
    exports org.quire.format.hangar;
    exports org.quire.format.hdf5;
    exports org.quire.format.sion;
    exports org.quire.format.storage;
    exports org.quire.format.versioned;
}
