/**
 * SWMR append benchmark (issue 10, item 9): Quire's SWMR writer against libhdf5 1.10.8's
 * ({@code H5Fstart_swmr_write} through Debian's Java binding) appending the same 64-byte records
 * of the record contract ({@link org.quire.examples.swmr.SwmrRecord}) behind one small interface
 * ({@link org.quire.benchmarks.swmr.SwmrLibrary}), in the same JVM and the same run:
 * {@link org.quire.benchmarks.swmr.SwmrAppendBenchmark} times appends, counts bytes written,
 * looks records up, and starts {@link org.quire.benchmarks.swmr.VisibilityReader} processes
 * that measure how soon a flushed record is visible.
 */
package org.quire.benchmarks.swmr;
