/**
 * Single-writer/multiple-reader HDF5 examples (docs/swmr.md): {@link
 * org.quire.examples.swmr.SwmrRecord} is the record contract every SWMR stress and crash test
 * checks, {@link org.quire.examples.swmr.SwmrAppend} appends such records while readers follow
 * the file; {@code examples/src/main/python/swmr_follow.py} is an independent h5py follower.
 */
package org.quire.examples.swmr;
