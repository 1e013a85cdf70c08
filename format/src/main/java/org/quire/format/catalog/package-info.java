/**
 * A catalog of a job's checkpoints: each checkpoint (the job's SION container, or its HDF5
 * datasets; its rank count, step and the user's metadata) is one version of a versioned HDF5 file
 * ({@link org.quire.format.versioned}), and a restart picks one by name, {@code latest}, {@code ~N}
 * or {@code @TIME}. Layout of a checkpoint inside its version: {@link CatalogLayout}.
 */
package org.quire.format.catalog;
