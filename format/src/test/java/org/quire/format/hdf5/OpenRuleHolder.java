package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A child JVM of {@link OpenRulesTest}: opens FILE in one way, prints "held", and keeps it
 * open until its standard input ends (or it is killed).
 *
 * <pre>java -cp CLASSES:TEST_CLASSES org.quire.format.hdf5.OpenRuleHolder MODE FILE</pre>
 *
 * MODE: {@code write} (openForWriting), {@code swmr-write} (openForWriting, then
 * startSwmrWrite), {@code read} (open), {@code swmr-read} (openSwmr); or {@code probe}: calls
 * {@link Hdf5File#writerStatus} without pause (as an in-situ reader or {@code quire watch}
 * does every few milliseconds) until its standard input ends; or {@code glance}: opens the file
 * as an SWMR reader and closes it again without pause (as {@code quire watch} looks at a file
 * no writer holds) until its standard input ends.
 */
public final class OpenRuleHolder {

    private OpenRuleHolder() {
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[1]);
        if (args[0].equals("probe") || args[0].equals("glance")) {
            repeatUntilInputEnds(args[0], file);
            return;
        }
        Hdf5File opened;
        try {
            opened = open(args[0], file);
        } catch (org.quire.format.FormatException e) {
            System.out.println("refused " + e.getClass().getSimpleName() + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        try (Hdf5File held = opened) {
            System.out.println("held");
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold until the parent closes our standard input
            }
        }
    }

    private static void repeatUntilInputEnds(String mode, Path file) throws IOException {
        AtomicBoolean inputEnded = new AtomicBoolean();
        Thread input = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // repeat until the parent closes our standard input
                }
            } catch (IOException e) {
                // an unreadable input ends the repetition as its end does
            }
            inputEnded.set(true);
        });
        input.setDaemon(true);
        input.start();
        System.out.println(mode.equals("probe") ? "probing" : "glancing");
        System.out.flush();
        while (!inputEnded.get()) {
            if (mode.equals("probe")) {
                Hdf5File.writerStatus(file);
            } else {
                glance(file);
            }
        }
    }

    /** One brief SWMR look; refused while the test's writer has the file, as the watch would be. */
    private static void glance(Path file) throws IOException {
        try (Hdf5File look = Hdf5File.openSwmr(file)) {
            look.root();
        } catch (org.quire.format.FormatException e) {
            // the writer of the test has it: the next glance tries again
        }
    }

    private static Hdf5File open(String mode, Path file) throws IOException {
        return switch (mode) {
            case "write" -> Hdf5File.openForWriting(file);
            case "swmr-write" -> {
                Hdf5File writer = Hdf5File.openForWriting(file);
                writer.startSwmrWrite();
                yield writer;
            }
            case "read" -> Hdf5File.open(file);
            case "swmr-read" -> Hdf5File.openSwmr(file);
            default -> throw new IllegalArgumentException("mode " + mode);
        };
    }
}
