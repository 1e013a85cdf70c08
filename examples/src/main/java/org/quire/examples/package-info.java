/**
 * Programs that run on N ranks with Quire; each class with a {@code main} is one example
 * ({@link org.quire.examples.CollectivesDemo}, {@link org.quire.examples.SionCheckpoint}), and
 * {@link org.quire.examples.CheckpointStream} is the data {@code SionCheckpoint} writes and checks.
 */
package org.quire.examples;
