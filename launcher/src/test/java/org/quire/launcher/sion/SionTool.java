package org.quire.launcher.sion;

import org.quire.launcher.QuireCommand;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Runs {@code quire sion ...} as a real process. */
final class SionTool {

    static final Duration LIMIT = Duration.ofSeconds(120);

    private SionTool() {
    }

    /** {@code quire sion ARGS...}, its output captured as text. */
    static QuireCommand.Result run(String... args) throws IOException, InterruptedException {
        return QuireCommand.run(LIMIT, sion(args));
    }

    /** {@code quire sion ARGS...} with {@code extraEnv}, e.g. a small heap in QUIRE_JAVA_OPTS. */
    static QuireCommand.Result run(Map<String, String> extraEnv, String... args) throws IOException, InterruptedException {
        return QuireCommand.start(extraEnv, sion(args)).await(LIMIT);
    }

    /** {@code quire sion ARGS... > stdout}: raw bytes on standard output go to a file. */
    static QuireCommand.Result runToFile(Path stdout, Map<String, String> extraEnv, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(QuireCommand.repositoryRoot().resolve("quire").toString());
        command.addAll(List.of(sion(args)));
        ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(stdout.toFile());
        builder.environment().putAll(extraEnv);
        return QuireCommand.runProcess(builder, LIMIT);
    }

    private static String[] sion(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "sion";
        System.arraycopy(args, 0, all, 1, args.length);
        return all;
    }
}
