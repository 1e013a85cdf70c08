package org.quire.format.catalog;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.quire.format.hdf5.Attribute;

/**
 * A checkpoint as the catalog holds it: its version's name and timestamp, step, rank count, SION
 * container (null if it has none), the user's metadata by name and its datasets' names.
 */
public record CatalogEntry(String version, Instant timestamp, long step, int ranks,
                           SionContainerIdentity sionContainer, Map<String, Attribute> metadata,
                           List<String> datasets) {

    public CatalogEntry {
        metadata = Map.copyOf(metadata);
        datasets = List.copyOf(datasets);
    }
}
