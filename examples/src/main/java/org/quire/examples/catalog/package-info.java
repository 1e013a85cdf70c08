/** A field checkpointed into a {@link org.quire.format.catalog.CheckpointCatalog} and restarted from a chosen version. */
package org.quire.examples.catalog;
