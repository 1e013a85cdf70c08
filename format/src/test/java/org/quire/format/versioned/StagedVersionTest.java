package org.quire.format.versioned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.Attribute;

/** The tree a version is staged as: the paths it accepts, groups made with their parents, deletion. */
class StagedVersionTest {

    @TempDir
    Path dir;

    private interface Check {
        void on(StagedVersion v) throws IOException;
    }

    private void staging(Check check) throws IOException {
        try (VersionedFile vf = VersionedFile.create(dir.resolve("v.h5"))) {
            vf.commit("v1", "", VersionedFileTest.DAY, check::on);
        }
    }

    @Test
    void pathsAreRelativeAndAvoidTheReservedName() throws IOException {
        staging(v -> {
            for (String bad : List.of("", "/x", "x/", "a//b")) {
                String expected = "\"" + bad + "\": a dataset or group path is relative to the version,"
                        + " like x or grp/t";
                assertEquals(expected, assertThrows(IllegalArgumentException.class,
                        () -> v.createDataset(bad, VersionedFileTest.x10(), null)).getMessage(), bad);
                assertEquals(expected, assertThrows(IllegalArgumentException.class,
                        () -> v.createGroup(bad)).getMessage(), bad);
            }
            assertEquals("g/versions: the name \"versions\" is reserved for /_version_data/versions",
                    assertThrows(IllegalArgumentException.class, () -> v.createGroup("g/versions")).getMessage());
            assertEquals("versions/x: the name \"versions\" is reserved for /_version_data/versions",
                    assertThrows(IllegalArgumentException.class,
                            () -> v.createDataset("versions/x", VersionedFileTest.x10(), null)).getMessage());
            assertEquals(List.of(), v.groupNames());
        });
    }

    @Test
    void aGroupIsMadeWithItsParentsButNotInsideADataset() throws IOException {
        staging(v -> {
            v.createGroup("a/b/c");
            assertEquals(Set.of("a", "a/b", "a/b/c"), Set.copyOf(v.groupNames()));
            v.createDataset("x", VersionedFileTest.x10(), null);
            assertEquals("v1: x is a dataset",
                    assertThrows(IllegalArgumentException.class, () -> v.createGroup("x")).getMessage());
            assertEquals("v1: x is a dataset",
                    assertThrows(IllegalArgumentException.class, () -> v.createGroup("x/y")).getMessage());
        });
    }

    /** Deleting "a" takes "a/..." with it, not "ab", a sibling whose name only starts the same. */
    @Test
    void deletingAGroupTakesWhatIsBelowItOnly() throws IOException {
        staging(v -> {
            v.createGroup("a/b");
            v.createGroup("ab");
            v.createDataset("a/x", VersionedFileTest.x10(), null);
            v.createDataset("abx", VersionedFileTest.x10(), null);
            v.delete("a");
            assertEquals(List.of("ab"), v.groupNames());
            assertEquals(List.of("abx"), v.datasetNames());
            assertEquals("v1 has no dataset or group a",
                    assertThrows(NoSuchElementException.class, () -> v.delete("a")).getMessage());
        });
    }

    @Test
    void groupAttributesAreSetAndDeleted() throws IOException {
        staging(v -> {
            v.createGroup("g");
            Attribute note = Attribute.of("note", "n");
            v.setGroupAttribute("g", note);
            assertEquals(Map.of("note", note), v.groupAttributes("g"));
            v.deleteGroupAttribute("g", "note");
            assertEquals(Map.of(), v.groupAttributes("g"));
            assertEquals("g has no attribute \"note\"", assertThrows(NoSuchElementException.class,
                    () -> v.deleteGroupAttribute("g", "note")).getMessage());
        });
    }
}
