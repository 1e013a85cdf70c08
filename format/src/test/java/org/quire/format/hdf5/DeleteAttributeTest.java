package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.NoSuchElementException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;

/** {@link Hdf5Object#deleteAttribute}: gone for Quire and h5py, the name free again. */
@StartsOutsideProgram
class DeleteAttributeTest {

    @TempDir
    Path dir;

    @Test
    void deletedAttributeIsGoneAndItsNameCanBeSetAgain() throws IOException {
        Path path = dir.resolve("a.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            file.root().setAttribute(Attribute.of("current", "v1"));
            file.root().setAttribute(Attribute.of("kept", 7L));
        }
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            file.root().deleteAttribute("current");
            assertThrows(NoSuchElementException.class, () -> file.root().deleteAttribute("current"));
            file.root().setAttribute(Attribute.of("current", "v2"));
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertEquals(List.of("kept", "current"), file.root().attributeNames());
            assertEquals("v2", file.root().attribute("current").string());
        }
        ExternalTools.requireH5py();
        ExternalTools.Result h5py = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(), "-c",
                "import h5py, sys; f = h5py.File(sys.argv[1], 'r'); "
                        + "print(sorted(f.attrs.keys()), f.attrs['current'], f.attrs['kept'][0])",
                path.toString()), 60);
        assertEquals("['current', 'kept'] v2 7\n", h5py.stdout(), h5py.output());
    }
}
