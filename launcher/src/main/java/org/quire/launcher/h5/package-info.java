/**
 * {@code quire h5}: command-line tools for HDF5 files, over the public API of
 * {@code org.quire.format.hdf5}. {@code ls} lists groups, datasets (shape, maximum shape, type,
 * chunks and chunk index or contiguous/compact layout, filters, fill value) and attributes,
 * compact or dense; {@code dump} prints a dataset or a
 * hyperslab of it ({@link org.quire.launcher.h5.Slice}), streaming large selections block by
 * block; {@code verify} runs {@link org.quire.format.hdf5.Hdf5Verifier}. Exit status 0 on
 * success, 1 for a file that cannot be read or is not valid, 2 for bad arguments; failures are
 * one line on standard error ({@link org.quire.launcher.CommandRun}). See the "Command line" section of {@code docs/hdf5.md}.
 *
 * <p>{@code quire watch} ({@link org.quire.launcher.h5.WatchCommand}, a top-level command) follows a
 * dataset another process appends to, as an SWMR reader: {@link org.quire.launcher.h5.WatchedTable}
 * reads it as a table, {@link org.quire.launcher.h5.WriterProbe} tells the writer's state,
 * {@link org.quire.launcher.h5.WatchReport} renders a look and {@link org.quire.launcher.h5.WatchScreen}
 * shows it. See {@code docs/watch.md}.
 *
 * <p>{@code quire versions ls|show|diff|delete} ({@link org.quire.launcher.h5.VersionsCommand}, a
 * top-level command) read and prune the versions of a versioned-hdf5 file through
 * {@code org.quire.format.versioned}; {@link org.quire.launcher.h5.VersionedInput} opens the file
 * and maps the API's refusals to statuses. See {@code docs/versions.md}.
 */
package org.quire.launcher.h5;
