package org.quire.format.hdf5.cache;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The order in which a flush writes the dirty entries: by {@link FlushStage}, then by
 * generation (0 for an entry nothing unsettled hangs below, else one more than its highest
 * unsettled child, so children always come first, through clean entries in between too), then
 * by address. Entries of one stage and generation do not depend on each other; address order
 * makes their writes sequential where the file allows.
 */
final class FlushPlan {

    private FlushPlan() {
    }

    static List<CachedNode> order(Collection<CachedNode> dirty) {
        Map<CachedNode, Integer> generations = new HashMap<>();
        for (CachedNode node : dirty) {
            generation(node, generations);
        }
        List<CachedNode> order = new ArrayList<>(dirty);
        order.sort(Comparator.comparing((CachedNode node) -> node.entry.stage())
                .thenComparingInt(generations::get)
                .thenComparingLong(CachedNode::address));
        return order;
    }

    /** Recursion as deep as the dependency graph: the height of the file's structure tree. */
    private static int generation(CachedNode node, Map<CachedNode, Integer> generations) {
        Integer known = generations.get(node);
        if (known != null) {
            return known;
        }
        int generation = 0;
        if (node.unsettledChildren > 0) {
            for (CachedNode child : node.children()) {
                if (child.unsettled()) {
                    generation = Math.max(generation, generation(child, generations) + 1);
                }
            }
        }
        generations.put(node, generation);
        return generation;
    }
}
