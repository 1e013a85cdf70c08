/**
 * Quire's on-disk formats, implemented with the JDK alone: the SIONlib container
 * ({@code org.quire.format.sion}), HDF5 files ({@code org.quire.format.hdf5}) and Hangar's
 * HDF5_00 locator records ({@code org.quire.format.hangar}).
 *
 * <p>This module owns byte layouts, readers, writers and their validation. It knows nothing of
 * engines or processes: parallel open and close go through {@link org.quire.format.Collectives},
 * which the runtime's communicator implements.
 */
package org.quire.format;
