/**
 * Programs that run on N ranks with Quire; each class with a {@code main} is one example
 * ({@link org.quire.examples.CollectivesDemo}, {@link org.quire.examples.SionCheckpoint}), and
 * {@link org.quire.examples.CheckpointStream} is the data {@code SionCheckpoint} writes and checks;
 * single-writer/multiple-reader HDF5 examples are in {@code org.quire.examples.swmr}.
 */
package org.quire.examples;
