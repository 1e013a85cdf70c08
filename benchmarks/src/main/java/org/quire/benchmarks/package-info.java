/**
 * Measurements, never assertions: JMH benchmarks and end-to-end programs whose figures go to
 * {@code docs/benchmarks.md} as medians and ratios against a baseline measured in the same run.
 */
package org.quire.benchmarks;
