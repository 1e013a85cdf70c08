package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.storage.CrashSimulator;
import org.quire.format.storage.Durability;

/**
 * A Quire writer appending to a file in libhdf5's default format (superblock 0), crashed at
 * every point ({@link CrashSimulator#processCrash}: a killed process, with each durability; and
 * a power failure at every fifth point): while the writing guard is on disk h5py refuses the file ("truncated
 * file"); after {@link Hdf5File#recover} h5py and Quire read the state before the writer, after
 * its flush or after its close, never a mix. Points where h5py opens the file without recovery
 * show a whole state too (before the guard, or after close lifted it).
 */
@StartsOutsideProgram
class OldFormatCrashTest {

    private static final Path FILE = Path.of("old.h5");

    @TempDir
    Path dir;

    /** The event count of the last {@link #append} when its close began. */
    private int closeBegins;

    /**
     * The states a reader may see: shape and sum of d, attributes n and current_version, the
     * members of the root group (an old-style group: a symbol table).
     */
    private static final String BEFORE = "6 15 3 v1 d";
    private static final String FLUSHED = "12 666 4 v1 d,g0";
    private static final String CLOSED = "280 " + (15 + 651 + sum(12, 280) * 2)
            + " 4 v2 d,g0,g1,g2,g3,g4,g5,g6,g7,g8,g9";
    private static final Set<String> STATES = Set.of(BEFORE, FLUSHED, CLOSED);

    private static long sum(long from, long to) {
        return (from + to - 1) * (to - from) / 2;
    }

    /** h5py's file: d = 0..5 (chunks of 4), n = 3, current_version = 'v1'. */
    private byte[] fixture() throws IOException {
        ExternalTools.requireH5py();
        Path file = dir.resolve("fixture.h5");
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", String.join("\n", "import sys, h5py, numpy",
                        "with h5py.File(sys.argv[1], 'w') as f:",
                        "    f.create_dataset('d', data=numpy.arange(6), chunks=(4,), "
                                + "maxshape=(None,))",
                        "    f.attrs['n'] = numpy.int64(3)",
                        "    f.attrs['current_version'] = 'v1'"), file.toString()), 60);
        assertEquals(0, result.exitCode(), result.output());
        return Files.readAllBytes(file);
    }

    /**
     * Flush 1: d grows to 12 (6..11 = 106..111), n = 4, group g0 is added to the root; close:
     * d to 280 (i*2 beyond 12), groups g1 to g9 (the root's symbol table node of 8 splits).
     */
    private CrashSimulator append(byte[] fixture, Durability durability) throws IOException {
        CrashSimulator simulator = new CrashSimulator(Map.of(FILE, fixture));
        try (Hdf5File file = Hdf5File.openForWriting(FILE, simulator,
                WriteOptions.DEFAULT.withDurability(durability))) {
            Dataset d = file.root().dataset("d");
            d.extend(12);
            d.write(new long[] {6}, new long[] {6}, new long[] {106, 107, 108, 109, 110, 111});
            file.root().rewriteAttribute(Attribute.scalar("n", Datatype.INT64, 4));
            file.root().createGroup("g0");
            file.flush();
            for (int g = 1; g <= 9; g++) {
                file.root().createGroup("g" + g);
            }
            d.extend(280);
            long[] tail = new long[268];
            for (int i = 0; i < tail.length; i++) {
                tail[i] = 2L * (12 + i);
            }
            d.write(new long[] {12}, new long[] {268}, tail);
            file.root().rewriteAttribute(Attribute.of("current_version", "v2"));
            closeBegins = simulator.eventCount();
        }
        return simulator;
    }

    private static String quireState(CrashSimulator disk) throws IOException {
        try (Hdf5File file = Hdf5File.open(FILE, disk)) {
            Dataset d = file.root().dataset("d");
            long sum = 0;
            for (long value : d.readLongs(new long[] {0}, d.shape())) {
                sum += value;
            }
            return d.shape()[0] + " " + sum + " "
                    + file.root().attribute("n").longs()[0] + " "
                    + file.root().attribute("current_version").string() + " "
                    + String.join(",", file.root().memberNames());
        }
    }

    /**
     * The first write of the writer is the guard, at 0 in the file, forced before any other
     * write (of the file or of its flush journal).
     */
    @Test
    void theGuardIsWrittenAndForcedBeforeAnythingElse() throws IOException {
        List<CrashSimulator.Event> events = append(fixture(), Durability.NONE).events();
        int first = 0;
        while (!(events.get(first) instanceof CrashSimulator.Write)) {
            first++;
        }
        CrashSimulator.Write guard = (CrashSimulator.Write) events.get(first);
        assertEquals(FILE, guard.path());
        assertEquals(0, guard.position());
        assertEquals(Long.MAX_VALUE, java.nio.ByteBuffer.wrap(guard.bytes(),
                OldFormatReopenTest.END_OF_FILE_V0, 8)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong());
        int next = first + 1;
        while (!(events.get(next) instanceof CrashSimulator.Force force
                && force.path().equals(FILE))) {
            assertTrue(!(events.get(next) instanceof CrashSimulator.Write),
                    "written before the guard was forced: " + events.get(next));
            next++;
        }
    }

    /**
     * Killed at every point with each durability; a power failure at every fifth point with
     * {@link Durability#EVERY_FLUSH}, and at every point of the close (the guard lifted last)
     * with {@link Durability#ON_CLOSE}: a completed close survives it. ({@link Durability#NONE}
     * promises nothing of the kind.)
     */
    @Test
    void h5pyRefusesAGuardedCrashImageAndReadsAWholeStateAfterRecovery() throws IOException {
        byte[] fixture = fixture();
        List<String> raw = new ArrayList<>();
        List<String> recovered = new ArrayList<>();
        List<String> expectedRecovered = new ArrayList<>();
        int guarded = 0;
        int images = 0;
        Set<String> seenStates = new java.util.HashSet<>();
        for (Durability durability : Durability.values()) {
            CrashSimulator run = append(fixture, durability);
            int events = run.eventCount();
            for (int point = 0; point <= events; point++) {
                boolean power = durability == Durability.EVERY_FLUSH ? point % 5 == 0
                        : durability == Durability.ON_CLOSE && point >= closeBegins;
                for (int seed = -1; seed < (power ? 1 : 0); seed++) {
                    Map<Path, byte[]> files = seed < 0 ? run.processCrash(point)
                            : run.crash(point, seed);
                    String name = durability + "-" + point + (seed < 0 ? "-killed" : "-power");
                    images++;
                    Path image = dir.resolve(name + ".h5");
                    Files.write(image, files.get(FILE));
                    raw.add(image.toString());
                    if (OldFormatReopenTest.storedEndOfFile(image) == Long.MAX_VALUE) {
                        guarded++;
                    }
                    CrashSimulator disk = new CrashSimulator(files);
                    Hdf5File.recover(FILE, disk);
                    Hdf5Verifier.verify(FILE, disk);
                    String state = quireState(disk);
                    assertTrue(STATES.contains(state), name + ": " + state);
                    if (point == events) {
                        assertEquals(CLOSED, state, name + ": the close completed");
                    }
                    seenStates.add(state);
                    Path after = dir.resolve(name + "-recovered.h5");
                    Files.write(after, disk.files().get(FILE));
                    recovered.add(after.toString());
                    expectedRecovered.add(after + " " + state);
                }
            }
        }
        assertTrue(guarded > images / 2, guarded + " guarded images of " + images);
        assertEquals(STATES, seenStates, "every state is left by some crash");
        String script = String.join("\n", "import sys, h5py",
                "for path in sys.argv[1:]:",
                "    try:",
                "        f = h5py.File(path, 'r')",
                "    except OSError as e:",
                "        print(path, 'truncated' if 'truncated file' in str(e) else str(e))",
                "        continue",
                "    d = f['d']",
                "    print(path, d.shape[0], int(d[:].sum()), int(f.attrs['n']), "
                        + "f.attrs['current_version'], ','.join(f))",
                "    f.close()");
        List<String> command = new ArrayList<>(List.of(ExternalTools.PYTHON.toString(), "-c",
                script));
        command.addAll(raw);
        ExternalTools.Result before = ExternalTools.run(command, 600);
        assertEquals(0, before.exitCode(), before.output());
        int refused = 0;
        for (String line : before.stdout().lines().toList()) {
            String path = line.substring(0, line.indexOf(' '));
            String seen = line.substring(path.length() + 1);
            boolean guard = OldFormatReopenTest.storedEndOfFile(Path.of(path)) == Long.MAX_VALUE;
            if (guard) {
                assertEquals("truncated", seen, path);
                refused++;
            } else {
                assertTrue(STATES.contains(seen), line);
            }
        }
        assertEquals(guarded, refused);
        command = new ArrayList<>(List.of(ExternalTools.PYTHON.toString(), "-c", script));
        command.addAll(recovered);
        ExternalTools.Result after = ExternalTools.run(command, 600);
        assertEquals(0, after.exitCode(), after.output());
        assertEquals(expectedRecovered, after.stdout().lines().toList());
    }
}
