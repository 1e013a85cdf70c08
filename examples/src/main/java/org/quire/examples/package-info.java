/** Programs that run on N ranks with Quire; each class with a {@code main} is one example. */
package org.quire.examples;
