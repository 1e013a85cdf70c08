package org.quire.format.hangar;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/**
 * The test resources under {@code hangar/}: the h5py fixture {@code h5py_store/} written by
 * {@code make_hangar_fixture.py} (committed with it), {@code read_hangar_records.py}, which
 * reads records as Hangar does, and {@code follow_hangar_records.py}, which follows a live store.
 */
final class HangarFixtures {

    private HangarFixtures() {
    }

    /** The committed directory of collection files h5py wrote, with its records.txt. */
    static Path h5pyStore() {
        return resource("h5py_store/records.txt").getParent();
    }

    static Path readerScript() {
        return resource("read_hangar_records.py");
    }

    /** Follows a live store with h5py as Hangar's readers do. */
    static Path followerScript() {
        return resource("follow_hangar_records.py");
    }

    private static Path resource(String name) {
        URL url = HangarFixtures.class.getResource("/hangar/" + name);
        if (url == null) {
            throw new AssertionError("test resource hangar/" + name + " is missing: run "
                    + "/usr/bin/python3 format/src/test/resources/hangar/make_hangar_fixture.py");
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new AssertionError(url + " is not a path", e);
        }
    }
}
