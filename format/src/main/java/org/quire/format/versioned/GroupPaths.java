package org.quire.format.versioned;

import java.io.IOException;

import org.quire.format.hdf5.Group;
import org.quire.format.hdf5.Hdf5Object;

/** Walking and making nested groups by a relative path such as {@code grp/t}. */
final class GroupPaths {

    private GroupPaths() {
    }

    /** The group at {@code relative} below {@code from}, made (with its parents) if missing. */
    static Group ensure(Group from, String relative) throws IOException {
        Group group = from;
        if (relative.isEmpty()) {
            return group;
        }
        for (String name : relative.split("/")) {
            group = group.contains(name) ? group.group(name) : group.createGroup(name);
        }
        return group;
    }

    /** The object at {@code relative} below {@code from}, or null when a link is missing. */
    static Hdf5Object find(Group from, String relative) throws IOException {
        Hdf5Object object = from;
        if (relative.isEmpty()) {
            return object;
        }
        for (String name : relative.split("/")) {
            if (!(object instanceof Group group) || !group.contains(name)) {
                return null;
            }
            object = group.get(name);
        }
        return object;
    }

    /** The part of {@code path} before its last '/', or "" when it has none. */
    static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash);
    }

    /** The part of {@code path} after its last '/'. */
    static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
