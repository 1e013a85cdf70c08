package org.quire.examples.heat;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.IntUnaryOperator;
import java.util.stream.Stream;

/**
 * The scaling test of {@link HeatDiffusion}: for each rank count N it runs the simulation as a
 * real job under {@code quire run} (a new run with checkpoints, then a restart from its last
 * checkpoint) and collects each run's {@link RunTiming}, for strong scaling (the same grid on
 * every N) and weak scaling (the same number of cells per rank: grid n·√N, rounded). It writes
 * {@code heat-scaling.csv} and {@code heat-scaling.png} ({@link ScalingPlot}) into the output
 * directory and prints a table. Rank counts above this machine's cores are marked
 * oversubscribed. scripts/scale.sh runs it; docs/heat.md shows a run.
 */
public final class HeatScaling {

    static final String CSV = "heat-scaling.csv";
    static final String PNG = "heat-scaling.png";
    static final String CSV_HEADER = "mode,ranks,grid,cores,oversubscribed,steps,step_s,speedup,efficiency,"
            + "checkpoints,checkpoint_bytes,checkpoint_s,checkpoint_bytes_per_s,restart_s";

    static final String USAGE = "usage: HeatScaling [--ranks 1,2,4,8] [--grid N] [--weak-grid N] [--steps S]"
            + " [--out DIR] [--quire PATH] [--cp CLASSPATH] [--help]";

    static final String HELP = String.join("\n",
            USAGE,
            "Runs HeatDiffusion under quire run for every rank count: a new run with 2 checkpoints,",
            "then a restart from the last one; writes DIR/" + CSV + ", DIR/" + PNG + " and prints a table.",
            "  --ranks LIST     rank counts, comma-separated (default 1,2,4,8)",
            "  --grid N         strong scaling: the n x n grid of every run (default 1024, at most "
                    + HeatOptions.MAX_GRID + ")",
            "  --weak-grid N    weak scaling: the grid on 1 rank; N ranks get round(N·sqrt(ranks)),",
            "                   the same cells per rank (default 512; at most " + HeatOptions.MAX_GRID + " on any N)",
            "  --steps S        steps per run, a checkpoint after S/2 and S (default 40)",
            "  --out DIR        where the CSV, the plot and the runs' checkpoints go (default heat-scaling)",
            "  --quire PATH     the quire script (default ./quire)",
            "  --cp CLASSPATH   the ranks' class path (default: where this class was loaded from)",
            "Exit 0 done, 1 a run failed, 2 bad usage.");

    /** One run of the scaling test. */
    record Row(String mode, int ranks, int cores, RunTiming run, RunTiming restart, double speedup,
               double efficiency) {

        boolean oversubscribed() {
            return ranks > cores;
        }

        String csv() {
            return String.format(Locale.ROOT, "%s,%d,%d,%d,%s,%d,%.6g,%.4f,%.4f,%d,%d,%.6g,%.6g,%.6g", mode, ranks,
                    run.grid(), cores, oversubscribed() ? "yes" : "no", run.steps(), run.stepSeconds(), speedup,
                    efficiency, run.checkpoints(), run.checkpointBytes(), run.checkpointSeconds(),
                    run.checkpointBytesPerSecond(), restart.restartSeconds());
        }
    }

    private HeatScaling() {
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(run(args, System.out, System.err));
    }

    /** The scaling test; its exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        int[] ranks = {1, 2, 4, 8};
        int grid = 1024;
        int weakGrid = 512;
        int steps = 40;
        Path directory = Path.of("heat-scaling");
        Path quire = Path.of("quire").toAbsolutePath();
        String classPath = null;
        try {
            for (int i = 0; i < args.length; i++) {
                String option = args[i];
                if (option.equals("--help") || option.equals("-h")) {
                    out.println(HELP);
                    return 0;
                }
                if (i + 1 == args.length) {
                    throw new IllegalArgumentException(option.startsWith("--") ? option + " needs a value"
                            : "unknown argument " + option);
                }
                String value = args[++i];
                switch (option) {
                    case "--ranks" -> ranks = rankList(value);
                    case "--grid" -> grid = number(option, value, HeatOptions.MIN_GRID, HeatOptions.MAX_GRID);
                    case "--weak-grid" -> weakGrid = number(option, value, HeatOptions.MIN_GRID,
                            HeatOptions.MAX_GRID);
                    case "--steps" -> steps = number(option, value, 2, 1_000_000);
                    case "--out" -> directory = Path.of(value);
                    case "--quire" -> quire = Path.of(value).toAbsolutePath();
                    case "--cp" -> classPath = value;
                    default -> throw new IllegalArgumentException("unknown option " + option);
                }
            }
            if (steps % 2 != 0) {
                throw new IllegalArgumentException("--steps must be even (a checkpoint after S/2 and S), got " + steps);
            }
            for (int n : ranks) {
                if (weakGrid(weakGrid, n) > HeatOptions.MAX_GRID) {
                    // Refused before any job: HeatDiffusion would refuse this run in the middle of the series.
                    throw new IllegalArgumentException("the weak-scaling grid on " + n + " ranks, " + weakGrid
                            + " x sqrt(" + n + ") = " + weakGrid(weakGrid, n) + ", is past HeatDiffusion's largest, "
                            + HeatOptions.MAX_GRID + ": give a smaller --weak-grid or fewer --ranks");
                }
                if (n > grid || weakGrid(weakGrid, n) < n) {
                    throw new IllegalArgumentException("a grid cannot be split over " + n + " ranks: it has fewer"
                            + " rows");
                }
            }
        } catch (IllegalArgumentException e) {
            err.println("HeatScaling: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (classPath == null) {
            classPath = ownClassPath();
        }
        int cores = Runtime.getRuntime().availableProcessors();
        try {
            Files.createDirectories(directory);
            Jobs jobs = new Jobs(quire, classPath, directory, steps, out);
            List<Row> rows = new ArrayList<>();
            int strong = grid;
            int weak = weakGrid;
            rows.addAll(series("strong", ranks, n -> strong, cores, jobs));
            rows.addAll(series("weak", ranks, n -> weakGrid(weak, n), cores, jobs));
            Path csv = directory.resolve(CSV);
            List<String> lines = new ArrayList<>(List.of(CSV_HEADER));
            rows.forEach(row -> lines.add(row.csv()));
            Files.write(csv, lines, StandardCharsets.UTF_8);
            Path png = directory.resolve(PNG);
            ScalingPlot.write(rows, png);
            out.print(table(rows, cores));
            out.println("wrote " + csv + " and " + png);
            return 0;
        } catch (JobFailed | IOException e) {
            err.println("HeatScaling: " + e.getMessage());
            return 1;
        }
    }

    /** The weak-scaling grid for {@code ranks}: {@code oneRank}² cells per rank, rounded. */
    static int weakGrid(int oneRank, int ranks) {
        return (int) Math.round(oneRank * Math.sqrt(ranks));
    }

    private static List<Row> series(String mode, int[] ranks, IntUnaryOperator grids, int cores, Jobs jobs)
            throws IOException, JobFailed {
        List<Row> rows = new ArrayList<>();
        RunTiming base = null;
        for (int n : ranks) {
            RunTiming[] runs = jobs.runAndRestart(mode, n, grids.applyAsInt(n));
            base = base == null ? runs[0] : base;
            // Strong: the same work on more ranks, ideally base/n per step. Weak: the same work per
            // rank, ideally base per step. Relative to the first rank count of the list.
            double speedup = base.stepSeconds() / runs[0].stepSeconds();
            double ideal = mode.equals("strong") ? (double) n / base.ranks() : 1;
            rows.add(new Row(mode, n, cores, runs[0], runs[1], speedup, speedup / ideal));
        }
        return rows;
    }

    /** The aligned table of every row, and a note on oversubscription. */
    static String table(List<Row> rows, int cores) {
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
                "%-6s %5s %5s %11s %8s %6s %13s %12s %10s %s%n", "mode", "ranks", "grid", "step ms", "speedup",
                "eff.", "ckpt MB/s", "ckpt s", "restart s", ""));
        for (Row row : rows) {
            text.append(String.format(Locale.ROOT, "%-6s %5d %5d %11.3f %8.2f %6.2f %13.1f %12.3f %10.3f %s%n",
                    row.mode(), row.ranks(), row.run().grid(), row.run().stepSeconds() * 1e3, row.speedup(),
                    row.efficiency(), row.run().checkpointBytesPerSecond() / 1e6, row.run().checkpointSeconds(),
                    row.restart().restartSeconds(), row.oversubscribed() ? "oversubscribed" : ""));
        }
        int[] over = rows.stream().filter(Row::oversubscribed).mapToInt(Row::ranks).distinct().sorted().toArray();
        if (over.length > 0) {
            text.append("oversubscribed: ").append(Arrays.toString(over).replaceAll("[\\[\\]]", ""))
                    .append(" ranks exceed the ").append(cores)
                    .append(" cores of this machine; their ranks share cores, so their times measure that too\n");
        }
        return text.toString();
    }

    private static int[] rankList(String value) {
        try {
            int[] list = Stream.of(value.split(",")).mapToInt(s -> Integer.parseInt(s.trim())).toArray();
            if (list.length == 0 || Arrays.stream(list).anyMatch(n -> n < 1 || n > 256)) {
                throw new NumberFormatException();
            }
            return list;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--ranks must be rank counts 1..256 separated by commas, got \""
                    + value + "\"");
        }
    }

    private static int number(String option, String value, int min, int max) {
        int number;
        try {
            number = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a whole number, got \"" + value + "\"");
        }
        if (number < min || number > max) {
            throw new IllegalArgumentException(option + " must be between " + min + " and " + max + ", got " + number);
        }
        return number;
    }

    private static String ownClassPath() {
        try {
            return Path.of(HeatScaling.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException("this class's location is not a path", e);
        }
    }

    /** A job that did not end with status 0 or printed no timing: its command and output. */
    static final class JobFailed extends Exception {
        JobFailed(String message) {
            super(message);
        }
    }

    /** Runs the jobs: {@code quire run -n N ... HeatDiffusion}, each in its own checkpoint directory. */
    private record Jobs(Path quire, String classPath, Path directory, int steps, PrintStream out) {

        /** A new run with checkpoints after steps/2 and steps, then a restart from the last one. */
        RunTiming[] runAndRestart(String mode, int ranks, int grid) throws IOException, JobFailed {
            Path checkpoints = directory.resolve("runs").resolve(mode + "-" + ranks);
            deleteTree(checkpoints);
            out.printf(Locale.ROOT, "%s scaling: %d ranks, %d x %d grid, %d steps ...%n", mode, ranks, grid, grid,
                    steps);
            RunTiming run = job(ranks, "--grid", Integer.toString(grid), "--steps", Integer.toString(steps),
                    "--checkpoint-every", Integer.toString(steps / 2), "--dir", checkpoints.toString());
            RunTiming restart = job(ranks, "--steps", Integer.toString(steps), "--checkpoint-every", "0", "--dir",
                    checkpoints.toString(), "--restart");
            deleteTree(checkpoints); // a 1024 x 1024 checkpoint is 8 MiB; keep only the results
            return new RunTiming[] {run, restart};
        }

        private RunTiming job(int ranks, String... arguments) throws IOException, JobFailed {
            List<String> command = new ArrayList<>(List.of(quire.toString(), "run", "-n", Integer.toString(ranks),
                    "-cp", classPath, HeatDiffusion.class.getName()));
            command.addAll(List.of(arguments));
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int status;
            try {
                status = process.waitFor();
            } catch (InterruptedException e) {
                process.destroy();
                Thread.currentThread().interrupt();
                throw new JobFailed("interrupted while waiting for " + String.join(" ", command));
            }
            if (status != 0) {
                throw new JobFailed(String.join(" ", command) + " exited with status " + status + ":\n" + output);
            }
            try {
                return RunTiming.find(output).orElseThrow(() -> new IllegalArgumentException("no \""
                        + RunTiming.PREFIX + "\" line"));
            } catch (IllegalArgumentException e) {
                throw new JobFailed(String.join(" ", command) + ": " + e.getMessage() + " in its output:\n" + output);
            }
        }

        private static void deleteTree(Path root) throws IOException {
            if (!Files.exists(root)) {
                return;
            }
            try (Stream<Path> paths = Files.walk(root)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }
}
