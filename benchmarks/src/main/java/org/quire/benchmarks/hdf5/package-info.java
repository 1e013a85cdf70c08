/**
 * HDF5 benchmarks: Quire's {@code org.quire.format.hdf5} against libhdf5 1.10.8 through its own
 * Java binding, behind one small interface ({@link org.quire.benchmarks.hdf5.Hdf5Library},
 * {@link org.quire.benchmarks.hdf5.Float64DatasetFile}) so that both run the same loops in the
 * same JVM: {@link org.quire.benchmarks.hdf5.Hdf5Throughput} (write and read of a large chunked
 * dataset, timed loops) and {@link org.quire.benchmarks.hdf5.Hdf5LookupBenchmark} (JMH,
 * single-element lookups).
 */
package org.quire.benchmarks.hdf5;
