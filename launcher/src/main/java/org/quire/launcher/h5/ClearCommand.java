package org.quire.launcher.h5;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.Recovery;
import org.quire.format.hdf5.WriterStatus;
import org.quire.launcher.CommandRun;
import org.quire.launcher.QuireVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code quire h5 clear FILE}: {@link Hdf5File#recover} from the command line, for a file whose
 * writer (Quire's or libhdf5's, SWMR or not) died with it open; in libhdf5's default format
 * (superblock 0 or 1) it lifts Quire's writing guard too (an end of file at or past 2^63-1;
 * libhdf5's {@code h5clear} cannot lift it, docs/hdf5.md). Unlike libhdf5's {@code h5clear
 * -s}, which cuts an SWMR writer's file to the stale end of file address in its superblock, it
 * never cuts: every flushed record stays. Refused while a Quire writer is alive (its lock, or its
 * heartbeat from another host) or readers hold the file.
 */
@Command(name = "clear",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        description = "Makes a file whose writer died with it open readable by plain readers (h5dump,"
                + " h5py, Quire): replays a committed Quire flush journal (FILE.qjnl) if there is one,"
                + " clears the superblock's open-for-writing flags, raises a stale end of file address to"
                + " the file's size (and in superblock 0 or 1 replaces Quire's writing guard, an end of file"
                + " at or past 2^63-1, with it; libhdf5's h5clear cannot) (never cuts: every flushed record stays; libhdf5's h5clear -s would cut"
                + " an SWMR writer's file there) and removes the dead writer's record FILE.qwriter. Refused"
                + " while a Quire writer is alive or readers have the file open. libhdf5's SWMR writer holds"
                + " no lock: run it only once that writer is gone.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:cleared, or nothing to clear",
            "1:refused (a writer is alive, readers have it open) or the file is damaged or not superblock 0, 1 or 3",
            "2:bad arguments (no such file, not a regular file)"})
public final class ClearCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private Hdf5Input input;

    @Override
    public Integer call() {
        return input.run(() -> {
            Path file = input.file();
            WriterStatus status = Hdf5File.writerStatus(file);
            if (status.state() == WriterStatus.State.ALIVE) {
                CommandRun.error(spec, file + ": " + status.summary() + "; not cleared: a live "
                        + "writer's file needs none (read it with SWMR, or wait for its close)");
                return CommandRun.FAILED;
            }
            Recovery recovery = Hdf5File.recover(file);
            PrintWriter out = StandardOutput.open();
            out.println(file + ": " + (recovery.changed() ? "cleared" : "nothing to clear")
                    + String.format(" (superblock flags 0x%02x -> 0x00", recovery.consistencyFlags())
                    + ", end of file address " + Long.toUnsignedString(recovery.endOfFileBefore())
                    + " -> " + Long.toUnsignedString(recovery.endOfFileAfter())
                    + ", flush journal blocks replayed " + recovery.journalBlocksReplayed() + ")");
            out.flush();
            return CommandRun.OK;
        });
    }
}
