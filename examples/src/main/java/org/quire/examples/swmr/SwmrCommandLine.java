package org.quire.examples.swmr;

import java.util.Optional;
import java.util.function.Function;

/**
 * What the command lines of {@link SwmrAppend} and {@link SwmrFollow} share: {@code --help},
 * bad arguments as one line and exit status 2, and DATASET naming a dataset of the root group.
 */
final class SwmrCommandLine {

    private SwmrCommandLine() {
    }

    /**
     * What {@code parse} makes of {@code args}, or empty once {@code --help} ({@code -h}) printed
     * {@code usage} and {@code help}. Arguments {@code parse} refuses (an {@link
     * IllegalArgumentException}) end the program with one line, {@code PROGRAM: why; usage}, and
     * status 2.
     */
    static <T> Optional<T> parse(String program, String usage, String help, String[] args,
                                 Function<String[], T> parse) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println(usage + "\n" + help);
            return Optional.empty();
        }
        try {
            return Optional.of(parse.apply(args));
        } catch (IllegalArgumentException e) {
            System.err.println(program + ": " + e.getMessage() + "; " + usage);
            System.exit(2);
            return Optional.empty(); // not reached: exit does not return
        }
    }

    /** The dataset of the root group {@code argument} names ("records" or "/records"), without "/". */
    static String rootDatasetName(String argument) {
        String name = argument.startsWith("/") ? argument.substring(1) : argument;
        if (name.isEmpty() || name.contains("/")) {
            throw new IllegalArgumentException("DATASET must name a dataset of the root "
                    + "group (\"records\" or \"/records\"), got \"" + argument + "\"");
        }
        return name;
    }
}
