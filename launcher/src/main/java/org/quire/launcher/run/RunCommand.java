package org.quire.launcher.run;

import org.quire.runtime.JobSecret;
import org.quire.runtime.LaunchContract;
import org.quire.runtime.LaunchContractException;
import org.quire.runtime.LauncherLinkAgent;
import org.quire.runtime.Transport;
import org.quire.runtime.WaitWatchdog;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;

/** {@code quire run -n N MAIN_CLASS [ARGS...]}: one job of N ranked worker JVMs on this machine. */
@Command(name = "run",
        sortOptions = false,
        description = "Starts N worker JVMs running MAIN_CLASS, each told its rank, the world size and how to"
                + " reach its peers (see docs/launcher.md). Output lines are prefixed with the rank. The job ends"
                + " when every rank has exited; as soon as one rank fails the others are stopped, and quire exits"
                + " with that rank's status.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:every rank exited 0",
            "2:bad arguments",
            "1-255:status of the first rank that failed (128+n: killed by signal n)",
            "130, 143, 129:quire received SIGINT, SIGTERM or SIGHUP and stopped every rank (it says so)",
            "70:the job could not be started"})
public final class RunCommand implements Callable<Integer> {

    /** Exit status when the job cannot be started (EX_SOFTWARE). */
    static final int CANNOT_START = 70;

    @Spec
    private CommandSpec spec;

    @Option(names = {"-n", "--ranks"}, required = true, paramLabel = "N", description = "number of ranks (>= 1)")
    private int ranks;

    @Option(names = "--transport", paramLabel = "ENGINE", defaultValue = "mpj", converter = TransportConverter.class,
            description = "mpj (MPJ Express niodev, default) or hazelcast")
    private Transport transport;

    @Option(names = {"-cp", "--class-path"}, paramLabel = "PATH", defaultValue = ".",
            description = "class path of the application, after Quire's own (default: .)")
    private String classPath;

    @Option(names = "--heap", paramLabel = "SIZE",
            description = "heap limit of each worker JVM, e.g. 512m or 2g (default: half of this machine's memory,"
                    + " ${sys:" + WorkerHeap.MACHINE_MEMORY_PROPERTY + "}, divided by N, at least 64 MiB and at most a"
                    + " quarter of it; none if a --jvm-opt sets -Xmx; when N times 64 MiB exceeds that half, quire"
                    + " refuses with status 2 and --heap must be given). A rank that runs out of memory ends with"
                    + " status 3 and quire says so")
    private String heap;

    @Option(names = "--jvm-opt", paramLabel = "OPT", description = "option for every worker JVM, e.g. --jvm-opt=-Xss4m")
    private List<String> jvmOptions = new ArrayList<>();

    @Option(names = "--grace", paramLabel = "SECONDS", defaultValue = "3",
            description = "how long ranks asked to stop (SIGTERM, a stop request: Job.stopRequested) get before SIGKILL (default: 3)")
    private int graceSeconds;

    @Option(names = "--show-pids", description = "print each rank's process id when it started (quire run: rank R"
            + " is process PID), e.g. for kill -QUIT PID: that rank prints its thread dump, prefixed with its rank")
    private boolean showPids;

    @Option(names = "--warn-after", paramLabel = "TIME", defaultValue = "60s", converter = WarnAfterConverter.class,
            description = "a rank that has waited this long in one communicator call says so once, naming the call,"
                    + " e.g. quire: rank 1 has waited 60 s in receive(source=0, tag=7) on the world communicator;"
                    + " a whole number of ms, s, m or h (default: 60s; 0: never)")
    private Duration warnAfter;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    private boolean help;

    @Parameters(index = "0", paramLabel = "MAIN_CLASS", description = "the worker's main class")
    private String mainClass;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "arguments of every worker's main")
    private List<String> arguments = new ArrayList<>();

    /** Puts this machine's memory where {@code --heap}'s description shows it. */
    public static void describeMachineForHelp() {
        System.setProperty(WorkerHeap.MACHINE_MEMORY_PROPERTY, WorkerHeap.describe(WorkerHeap.machineMemory()) + " here");
    }

    /** Converts {@code --transport} with the runtime's own names and error message. */
    static final class TransportConverter implements CommandLine.ITypeConverter<Transport> {
        @Override
        public Transport convert(String value) {
            try {
                return Transport.parse(value, "--transport");
            } catch (LaunchContractException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** Converts {@code --warn-after} with the runtime's own parser, so the workers accept what quire run does. */
    static final class WarnAfterConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return WaitWatchdog.parse(value, "--warn-after");
            } catch (LaunchContractException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    @Override
    public Integer call() {
        if (ranks < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "-n must be at least 1, got " + ranks);
        }
        if (graceSeconds < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--grace must be >= 0, got " + graceSeconds);
        }
        List<String> workerOptions;
        try {
            workerOptions = heapOptions();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        Map<String, String> env = System.getenv();
        String workerClassPath;
        MpjInstallation mpj = null;
        try {
            if (transport == Transport.MPJ) {
                mpj = MpjInstallation.locate(env);
            }
            workerClassPath = workerClassPath(mpj);
            workerOptions.add(linkAgentOption());
        } catch (LaunchException e) {
            return cannotStart(e);
        }
        String problem = MainClassCheck.problemWith(mainClass, workerClassPath, classPath);
        if (problem != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), problem);
        }
        String jobId = Long.toString(ProcessHandle.current().pid()) + "-"
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        JobSecret secret = JobSecret.generate();
        try (SecretFiles secretFiles = SecretFiles.create();
             LauncherLinkServer links = LauncherLinkServer.start(secret, ranks);
             JobCoordinator coordinator = JobCoordinator.start(transport, ranks, secret, jobId)) {
            List<ProcessBuilder> workers = new ArrayList<>(ranks);
            for (int rank = 0; rank < ranks; rank++) {
                ProcessBuilder worker = worker(rank, workerClassPath, mpj, coordinator, jobId, workerOptions);
                worker.environment().put(LaunchContract.SECRET_FILE, secretFiles.write(secret, rank).toString());
                worker.environment().put(LaunchContract.LAUNCHER_LINK, links.address());
                workers.add(worker);
            }
            return new RankProcesses(workers, Duration.ofSeconds(graceSeconds), System.out, System.err, showPids).run();
        } catch (IOException | RuntimeException e) {
            return cannotStart(e);
        }
    }

    private int cannotStart(Exception e) {
        System.err.println("quire run: cannot start the job: " + e.getMessage());
        return CANNOT_START;
    }

    /** Quire's own class path (the launcher's: runtime and engines), then MPJ's jar, then the application's. */
    private String workerClassPath(MpjInstallation mpj) {
        List<String> entries = new ArrayList<>(List.of(System.getProperty("java.class.path").split(File.pathSeparator)));
        if (mpj != null) {
            entries.add(mpj.jar().toString());
        }
        entries.add(classPath);
        return String.join(File.pathSeparator, entries);
    }

    /**
     * {@code -Xmx} from {@code --heap} or the default, unless a {@code --jvm-opt} sets the heap; and
     * an {@link OutOfMemoryError} ends the worker at once (status 3, with a line the launcher
     * recognises) instead of leaving it half-alive while its peers wait.
     */
    private List<String> heapOptions() {
        List<String> options = new ArrayList<>(List.of("-XX:+ExitOnOutOfMemoryError"));
        if (heap != null) {
            options.add(WorkerHeap.jvmOption(WorkerHeap.parse(heap)));
        } else if (!WorkerHeap.setBy(jvmOptions)) {
            options.add(WorkerHeap.jvmOption(WorkerHeap.defaultBytes(WorkerHeap.machineMemory(), ranks)));
        }
        return options;
    }

    /**
     * {@code -javaagent:} the runtime jar, whose {@link LauncherLinkAgent} links each worker to this
     * launcher before the worker's main runs: a worker that dies with its launcher only from
     * {@code Quire.init} on would outlive it while still in its own code.
     */
    private static String linkAgentOption() {
        Path runtime;
        try {
            runtime = Path.of(LauncherLinkAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException | RuntimeException e) {
            throw new LaunchException("cannot locate Quire's runtime jar for the workers' launcher link: " + e);
        }
        if (!Files.isRegularFile(runtime)) {
            throw new LaunchException("Quire's runtime is " + runtime + ", not a jar: the workers' launcher link"
                    + " needs it as a jar (-javaagent)");
        }
        return "-javaagent:" + runtime;
    }

    private ProcessBuilder worker(int rank, String workerClassPath, MpjInstallation mpj, JobCoordinator coordinator,
                                  String jobId, List<String> workerOptions) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // File channels immune to interrupts (docs/storage.md, "Interrupts").
        command.add("--add-exports=java.base/sun.nio.ch=ALL-UNNAMED");
        command.addAll(workerOptions);
        if (transport == Transport.HAZELCAST) {
            command.add("-Dhazelcast.logging.type=none");
        }
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(workerClassPath);
        command.add(mainClass);
        command.addAll(arguments);

        ProcessBuilder worker = new ProcessBuilder(command);
        Map<String, String> env = worker.environment();
        env.put(LaunchContract.RANK, Integer.toString(rank));
        env.put(LaunchContract.SIZE, Integer.toString(ranks));
        env.put(LaunchContract.TRANSPORT, transport.cliName());
        env.put(LaunchContract.COORDINATOR, coordinator.host() + ":" + coordinator.port());
        env.put(LaunchContract.JOB_ID, jobId);
        env.put(WaitWatchdog.VARIABLE, warnAfter.toMillis() + "ms");
        if (mpj != null) {
            env.put("MPJ_HOME", mpj.home().toString());
        }
        // Like mpirun: the job's standard input goes to rank 0.
        worker.redirectInput(rank == 0 ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.from(nullDevice()));
        return worker;
    }

    private static File nullDevice() {
        return new File("/dev/null");
    }
}
