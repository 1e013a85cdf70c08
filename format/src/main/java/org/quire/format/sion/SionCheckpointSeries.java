package org.quire.format.sion;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.quire.format.Collectives;

/**
 * A series of checkpoints of one job, one SION file (or set) per checkpoint, named
 * {@code DIRECTORY/NAME-<step>.sion} ({@link #file}), and the choice a restart makes among them:
 * the latest <em>complete</em> one ({@link #latestComplete}).
 *
 * <p>From the newest step down, each file is tried until one is complete:
 * <ul>
 *   <li>closed by its writer and accepted by the caller's {@link Validator}: taken;</li>
 *   <li>not closed (its job died while writing it) with Quire's recovery journal beside it:
 *       closed in place by {@link SionRecovery#recover(Path)} and, if the validator accepts what
 *       was recovered, taken and marked {@link Checkpoint#recovered()};</li>
 *   <li>anything else (not closed and no journal, recovery refused or failed, damaged metadata,
 *       rejected by the validator): skipped for the previous step, with the reason in
 *       {@link Choice#skipped()}.</li>
 * </ul>
 * Recovery writes to the files it recovers: run the choice only when no job writes the series.
 * Names that do not match {@code NAME-<step>.sion}, the step written without leading zeros (other
 * members of a set, journals, other files), are ignored.
 */
public final class SionCheckpointSeries {

    /**
     * What a checkpoint must hold beyond being a readable SION file (all tasks present, their
     * headers agreeing, ...): the reason it is unusable, or empty when it is usable.
     */
    @FunctionalInterface
    public interface Validator {

        /** Accepts every readable file. */
        Validator ANY = (file, step) -> Optional.empty();

        /** @param step the step the file's name gives, which what it holds must be of */
        Optional<String> problem(SionFile file, long step) throws IOException;
    }

    /** A complete checkpoint: {@code recovered} when it was closed from its journal by this choice. */
    public record Checkpoint(long step, Path file, boolean recovered) {
    }

    /** A newer checkpoint that was passed over, and why. */
    public record Skipped(long step, Path file, String reason) {
    }

    /** The latest complete checkpoint, if any, and the newer ones skipped on the way (newest first). */
    public record Choice(Optional<Checkpoint> latest, List<Skipped> skipped) {

        public Choice {
            skipped = List.copyOf(skipped);
        }
    }

    private static final String SUFFIX = ".sion";
    /** Longer step numbers may not fit a long: such names are not of the series. */
    private static final int MAX_STEP_DIGITS = 18;

    private final Path directory;
    private final String name;
    private final Pattern member;

    /**
     * @param directory where the checkpoints lie
     * @param name      the series' name: non-empty, without '/'
     */
    public SionCheckpointSeries(Path directory, String name) {
        if (name.isEmpty() || name.contains("/")) {
            throw new IllegalArgumentException("a checkpoint series name must be non-empty and without '/', got \""
                    + name + "\"");
        }
        this.directory = directory;
        this.name = name;
        // No leading zeros: NAME-0900.sion would be step 900, whose file is NAME-900.sion.
        this.member = Pattern.compile(Pattern.quote(name) + "-(0|[1-9][0-9]*)" + Pattern.quote(SUFFIX));
    }

    public Path directory() {
        return directory;
    }

    /** The checkpoint of step {@code step}: {@code DIRECTORY/NAME-<step>.sion}. */
    public Path file(long step) {
        if (step < 0) {
            throw new IllegalArgumentException("negative step " + step);
        }
        return directory.resolve(name + "-" + step + SUFFIX);
    }

    /** The steps of the series' files present in the directory, ascending (none if it does not exist). */
    public long[] steps() throws IOException {
        if (!Files.isDirectory(directory)) {
            return new long[0];
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(file -> member.matcher(file.getFileName().toString())).filter(Matcher::matches)
                    .filter(matched -> matched.group(1).length() <= MAX_STEP_DIGITS)
                    .mapToLong(matched -> Long.parseLong(matched.group(1))).sorted().toArray();
        }
    }

    /** The latest complete checkpoint, as the class comment says, run by this process alone. */
    public Choice latestComplete(Validator validator) throws IOException {
        long[] steps = steps();
        List<Skipped> skipped = new ArrayList<>();
        for (int i = steps.length - 1; i >= 0; i--) {
            Path file = file(steps[i]);
            String reason;
            try {
                reason = problemOfClosed(file, steps[i], validator).orElse(null);
                if (reason == null) {
                    return new Choice(Optional.of(new Checkpoint(steps[i], file, false)), skipped);
                }
            } catch (SionNotClosedException notClosed) {
                reason = recover(file, steps[i], notClosed, validator);
                if (reason == null) {
                    return new Choice(Optional.of(new Checkpoint(steps[i], file, true)), skipped);
                }
            } catch (IOException unreadable) {
                reason = "unreadable: " + unreadable.getMessage();
            }
            skipped.add(new Skipped(steps[i], file, reason));
        }
        return new Choice(Optional.empty(), skipped);
    }

    /**
     * {@link #latestComplete(Validator)} for a job: rank 0 makes the choice (and any recovery)
     * and every rank returns it; a failure of rank 0 (the directory cannot be listed) is thrown
     * on every rank. Collective.
     */
    public Choice latestComplete(Collectives collectives, Validator validator) throws IOException {
        return decode(RootVerdict.decide(collectives, "choosing the latest checkpoint in " + directory,
                () -> RootVerdict.sameForAll(encode(latestComplete(validator)), collectives.size())));
    }

    /** Opens a file and asks the validator; throws what opening throws. */
    private static Optional<String> problemOfClosed(Path file, long step, Validator validator) throws IOException {
        try (SionFile sion = SionFile.open(file)) {
            return validator.problem(sion, step).map(problem -> "rejected: " + problem);
        }
    }

    /** Recovers a file its job left unclosed; null when it is now complete, else why not. */
    private static String recover(Path file, long step, SionNotClosedException notClosed, Validator validator) {
        if (notClosed.journal() == null) {
            return "not closed by its writer, and no recovery journal beside it";
        }
        try {
            SionRecovery.recover(file);
            return problemOfClosed(file, step, validator).map(problem -> "recovered from its journal, but " + problem)
                    .orElse(null);
        } catch (IOException e) {
            return "not closed by its writer, and recovery from its journal failed: " + e.getMessage();
        }
    }

    private static byte[] encode(Choice choice) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeBoolean(choice.latest().isPresent());
            if (choice.latest().isPresent()) {
                out.writeLong(choice.latest().get().step());
                out.writeBoolean(choice.latest().get().recovered());
            }
            out.writeInt(choice.skipped().size());
            for (Skipped skipped : choice.skipped()) {
                out.writeLong(skipped.step());
                out.writeUTF(skipped.reason().length() > 16_000 ? skipped.reason().substring(0, 16_000)
                        : skipped.reason());
            }
        }
        return bytes.toByteArray();
    }

    private Choice decode(byte[] encoded) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
            Optional<Checkpoint> latest = Optional.empty();
            if (in.readBoolean()) {
                long step = in.readLong();
                latest = Optional.of(new Checkpoint(step, file(step), in.readBoolean()));
            }
            List<Skipped> skipped = new ArrayList<>();
            for (int i = in.readInt(); i > 0; i--) {
                long step = in.readLong();
                skipped.add(new Skipped(step, file(step), in.readUTF()));
            }
            return new Choice(latest, skipped);
        }
    }
}
