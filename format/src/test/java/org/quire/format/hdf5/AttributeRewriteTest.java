package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;

/**
 * {@link Hdf5Object#rewriteAttribute}: new values of the same type and shape in place, while
 * SWMR writing too (as Hangar's {@code attrs.modify} of its cursor), read back by Quire and
 * h5py; anything that would change the message's size is refused.
 */
class AttributeRewriteTest {

    @TempDir
    Path dir;

    @Test
    @StartsOutsideProgram
    void rewritesValuesInPlaceWhileSwmrWriting() throws Exception {
        Path path = dir.resolve("cursor.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            file.root().setAttribute(Attribute.of("next_location", 0, 0));
            file.root().setAttribute(Attribute.scalar("remaining", Datatype.INT64, 100));
            file.root().setAttribute(Attribute.of("label", "first"));
            file.startSwmrWrite();
            file.root().rewriteAttribute(Attribute.of("next_location", 3, 249));
            file.root().rewriteAttribute(Attribute.scalar("remaining", Datatype.INT64, 97));
            assertArrayEquals(new long[] {3, 249},
                    file.root().attribute("next_location").longs());
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertArrayEquals(new long[] {3, 249},
                    file.root().attribute("next_location").longs());
            assertArrayEquals(new long[] {97}, file.root().attribute("remaining").longs());
            assertEquals("first", file.root().attribute("label").string());
        }
        ExternalTools.requireH5py();
        ExternalTools.Result read = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", "import sys, h5py; f = h5py.File(sys.argv[1], 'r'); "
                        + "print(list(f.attrs['next_location']), f.attrs['remaining'], "
                        + "f.attrs['label'])", path.toString()), 60);
        assertEquals("[3, 249] 97 first", read.stdout().strip(), read.output());
    }

    @Test
    void refusesWhatWouldChangeTheMessageSize() throws Exception {
        try (Hdf5File file = Hdf5File.create(dir.resolve("refused.h5"))) {
            Group root = file.root();
            root.setAttribute(Attribute.of("pair", 0, 0));
            root.setAttribute(Attribute.of("label", "first"));
            assertEquals(dir.resolve("refused.h5") + ": cannot rewrite attribute \"pair\" of /: "
                    + "IntegerType[size=8, "
                    + "signed=true, byteOrder=LITTLE_ENDIAN] [2] in place with IntegerType["
                    + "size=8, signed=true, byteOrder=LITTLE_ENDIAN] [3] (same fixed-size type "
                    + "and shape, or variable-length strings of the same shape, only)",
                    assertThrows(IllegalArgumentException.class,
                            () -> root.rewriteAttribute(Attribute.of("pair", 1, 2, 3)))
                            .getMessage());
            assertThrows(IllegalArgumentException.class,
                    () -> root.rewriteAttribute(Attribute.of("pair", 1.0, 2.0)));
            assertThrows(IllegalArgumentException.class,
                    () -> root.rewriteAttribute(Attribute.of("label", 1)));
            root.rewriteAttribute(Attribute.of("label", "second"));
            assertEquals("second", root.attribute("label").string());
            assertEquals("/ has no attribute \"none\" in its object header to rewrite",
                    assertThrows(NoSuchElementException.class,
                            () -> root.rewriteAttribute(Attribute.of("none", 1))).getMessage());
            assertArrayEquals(new long[] {0, 0}, root.attribute("pair").longs());
        }
    }
}
