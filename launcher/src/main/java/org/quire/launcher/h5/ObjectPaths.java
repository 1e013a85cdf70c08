package org.quire.launcher.h5;

import java.io.IOException;
import java.util.NoSuchElementException;

import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.Group;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.Hdf5Object;
import org.quire.launcher.UsageException;

/** Finds the group, dataset or committed datatype an absolute path such as {@code /fields/temperature} names. */
final class ObjectPaths {

    private ObjectPaths() {
    }

    /** @throws UsageException nothing in {@code file} is at {@code path} */
    static Hdf5Object find(Hdf5File file, String path) throws IOException, UsageException {
        Hdf5Object object = file.root();
        for (String name : path.split("/")) {
            if (name.isEmpty()) {
                continue;
            }
            if (!(object instanceof Group group)) {
                throw new UsageException(object.path() + " is " + kind(object) + ", not a group: no "
                        + path + " in " + file.path());
            }
            try {
                object = group.get(name);
            } catch (NoSuchElementException e) {
                throw new UsageException("no object " + path + " in " + file.path());
            }
        }
        return object;
    }

    /** @throws UsageException {@code path} is not a dataset of {@code file} */
    static Dataset findDataset(Hdf5File file, String path) throws IOException, UsageException {
        if (find(file, path) instanceof Dataset dataset) {
            return dataset;
        }
        throw new UsageException(path + " is " + kind(find(file, path)) + ", not a dataset, in "
                + file.path());
    }

    /** "a group", "a dataset" or "a committed datatype". */
    static String kind(Hdf5Object object) {
        if (object instanceof Group) {
            return "a group";
        }
        return object instanceof Dataset ? "a dataset" : "a committed datatype";
    }
}
