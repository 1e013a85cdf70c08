package org.quire.format.versioned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.NoSuchElementException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.Attribute;

/**
 * What a commit returns and what the next version inherits: the committed version's info, and
 * the user attributes of the parent's groups and datasets, read through {@code attributes}.
 */
class CommitResultTest {

    @TempDir
    Path dir;

    @Test
    void aCommitReturnsTheVersionItMade() throws Exception {
        try (VersionedFile vf = VersionedFile.create(dir.resolve("v.h5"))) {
            VersionInfo first = vf.commit("v1", "", VersionedFileTest.DAY, v -> { });
            assertEquals(new VersionInfo("v1", "__first_version__", VersionedFileTest.DAY), first);
            assertTrue(first.isFirst());
            VersionInfo second = vf.commit("v2", "v1", VersionedFileTest.DAY.plusSeconds(1), v -> { });
            assertEquals(new VersionInfo("v2", "v1", VersionedFileTest.DAY.plusSeconds(1)), second);
            assertFalse(second.isFirst());
            assertEquals(vf.version("v2"), second);
        }
    }

    /** Attributes set in v1 on a group and on a dataset inside it are v2's too, unless changed. */
    @Test
    void userAttributesOfGroupsAndDatasetsCarryOverToTheNextVersion() throws Exception {
        Attribute units = Attribute.of("units", "m");
        Attribute note = Attribute.of("note", "from v1");
        try (VersionedFile vf = VersionedFile.create(dir.resolve("v.h5"))) {
            vf.commit("v1", "", VersionedFileTest.DAY, v -> {
                v.createGroup("g");
                v.setGroupAttribute("g", note);
                v.createDataset("g/x", VersionedFileTest.x10(), null).setAttribute(units);
            });
            vf.commit("v2", "v1", VersionedFileTest.DAY.plusSeconds(1),
                    v -> v.dataset("g/x").write(new long[] {0}, new long[] {1}, new long[] {5}));
            for (String version : new String[] {"v1", "v2"}) {
                assertEquals(Map.of("units", units), vf.attributes(version, "g/x"), version);
                assertEquals(Map.of("note", note), vf.attributes(version, "g"), version);
                assertEquals(Map.of(), vf.attributes(version, ""), version);
            }
            assertEquals(dir.resolve("v.h5") + ": version \"v2\" has no g/y",
                    assertThrows(NoSuchElementException.class, () -> vf.attributes("v2", "g/y")).getMessage());
        }
    }
}
