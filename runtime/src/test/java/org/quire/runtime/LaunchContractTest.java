package org.quire.runtime;

import com.sun.security.auth.module.UnixSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LaunchContractTest {

    @TempDir
    static Path directory;

    /** A secret file as quire run writes it; each read deletes it, so each call makes a new one. */
    private static String secretFile() {
        try {
            Path file = Files.createTempFile(directory, "secret-", "");
            Files.delete(file);
            JobSecret.generate().writeTo(file);
            return file.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, String> validEnvironment() {
        Map<String, String> env = new HashMap<>();
        env.put("QUIRE_SECRET_FILE", secretFile());
        env.put("QUIRE_RANK", "2");
        env.put("QUIRE_SIZE", "4");
        env.put("QUIRE_TRANSPORT", "hazelcast");
        env.put("QUIRE_COORDINATOR", "127.0.0.1:41234");
        env.put("QUIRE_JOB_ID", "j1");
        return env;
    }

    @Test
    void readsTheWorldQuireRunDescribes() {
        Map<String, String> env = validEnvironment();
        WorldSpec spec = LaunchContract.read(env);
        assertEquals(List.of(2, 4, Transport.HAZELCAST, "127.0.0.1", 41234, "j1", false), List.of(spec.rank(),
                spec.size(), spec.transport(), spec.coordinatorHost(), spec.coordinatorPort(), spec.jobId(),
                spec.rankZeroRunsCoordinator()));
        assertFalse(Files.exists(Path.of(env.get("QUIRE_SECRET_FILE"))), "the worker deletes its secret file");
    }

    @Test
    void refusesASecretFileOthersMayRead() throws IOException {
        Map<String, String> env = validEnvironment();
        Path file = Path.of(env.get("QUIRE_SECRET_FILE"));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        LaunchContractException e = assertThrows(LaunchContractException.class, () -> LaunchContract.read(env));
        assertEquals("job secret file " + file + " has mode rw-r--r--; expected rw------- (only its owner may read it)",
                e.getMessage());
    }

    /**
     * As root the test gives a fresh secret file to nobody; any other user cannot, and points the
     * rank at /etc/passwd, which root owns on every Linux system.
     */
    @Test
    void refusesASecretFileAnotherUserOwns() throws IOException {
        Map<String, String> env = validEnvironment();
        long self = new UnixSystem().getUid();
        Path file = Path.of("/etc/passwd");
        if (self == 0) {
            file = Path.of(env.get("QUIRE_SECRET_FILE"));
            Files.setOwner(file, file.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
        } else {
            env.put("QUIRE_SECRET_FILE", file.toString());
        }
        int owner = (Integer) Files.getAttribute(file, "unix:uid");
        assertNotEquals(self, owner);
        LaunchContractException e = assertThrows(LaunchContractException.class, () -> LaunchContract.read(env));
        assertEquals("job secret file " + file + " is owned by uid " + owner
                + "; expected uid " + self + ", the user running this rank", e.getMessage());
    }

    /** A link the user made to a secret file that passes every check is refused all the same: its target may be anyone's. */
    @Test
    void refusesASymbolicLinkToASecretFile() throws IOException {
        Map<String, String> env = validEnvironment();
        Path target = Path.of(env.get("QUIRE_SECRET_FILE"));
        Path link = target.resolveSibling(target.getFileName() + ".link");
        Files.createSymbolicLink(link, target);
        env.put("QUIRE_SECRET_FILE", link.toString());
        LaunchContractException e = assertThrows(LaunchContractException.class, () -> LaunchContract.read(env));
        assertEquals("job secret file " + link + " is a symbolic link; expected the regular file the launcher wrote",
                e.getMessage());
    }

    @Test
    void secretsOfTwoJobsDifferAndNeverShow() {
        JobSecret one = JobSecret.generate();
        JobSecret two = JobSecret.generate();
        assertEquals("JobSecret[not shown]", one.toString());
        assertFalse(Arrays.equals(one.mac("p"), two.mac("p")));
        assertTrue(one.verify(one.mac("p", new byte[] {1}), "p", new byte[] {1}));
        assertFalse(one.verify(two.mac("p", new byte[] {1}), "p", new byte[] {1}));
        // Length prefixes keep different splits of the same bytes apart.
        assertFalse(Arrays.equals(one.mac("p", new byte[] {1, 2}), one.mac("p", new byte[] {1}, new byte[] {2})));
    }

    @Test
    void namesTheVariableAndValueOfEveryMalformedEntry() {
        assertMalformed("QUIRE_RANK", "two", "QUIRE_RANK is 'two'; expected a decimal integer");
        assertMalformed("QUIRE_RANK", "4", "rank is 4; expected 0..3 for a world of 4");
        assertMalformed("QUIRE_SIZE", "0", "world size is 0; expected at least 1");
        assertMalformed("QUIRE_TRANSPORT", "pvm", "QUIRE_TRANSPORT is 'pvm'; expected one of mpj, hazelcast");
        assertMalformed("QUIRE_COORDINATOR", "localhost", "QUIRE_COORDINATOR is 'localhost'; expected host:port");
        assertMalformed("QUIRE_COORDINATOR", "h:99999", "coordinator port is 99999; expected 1..65535");
        assertMalformed("QUIRE_JOB_ID", null, "QUIRE_JOB_ID is not set");
        assertMalformed("QUIRE_SECRET_FILE", null, "QUIRE_SECRET_FILE is not set");
    }

    private static void assertMalformed(String variable, String value, String expectedMessage) {
        Map<String, String> env = validEnvironment();
        env.put(variable, value);
        if (value == null) {
            env.remove(variable);
        }
        LaunchContractException e = assertThrows(LaunchContractException.class, () -> LaunchContract.read(env));
        assertTrue(e.getMessage().contains(expectedMessage), e.getMessage());
    }

    @Test
    void slurmStepGivesRankSizeFirstNodeAndADerivedPort() {
        Map<String, String> env = Map.of(
                "SLURM_PROCID", "3", "SLURM_STEP_NUM_TASKS", "8", "SLURM_NTASKS", "16",
                "SLURM_STEP_NODELIST", "node[07-09,12],gpu1", "SLURM_JOB_ID", "1234", "SLURM_STEP_ID", "2",
                "QUIRE_SECRET_FILE", secretFile());
        WorldSpec spec = SlurmEnvironment.read(env);
        assertEquals(3, spec.rank());
        assertEquals(8, spec.size());
        assertEquals("node07", spec.coordinatorHost());
        assertEquals(30000 + (1234 * 31 + 2) % 20000, spec.coordinatorPort());
        assertEquals(Transport.MPJ, spec.transport());
        assertTrue(spec.rankZeroRunsCoordinator());
    }

    @Test
    void aOneNodeSlurmStepHasItsCoordinatorOnLoopback() {
        Map<String, String> env = Map.of("SLURM_PROCID", "1", "SLURM_STEP_NUM_TASKS", "4", "SLURM_STEP_NUM_NODES", "1",
                "SLURM_STEP_NODELIST", "node07", "SLURM_JOB_ID", "9", "QUIRE_SECRET_FILE", secretFile());
        assertEquals("127.0.0.1", SlurmEnvironment.read(env).coordinatorHost());
    }

    @Test
    void slurmCoordinatorPortCanBeOverridden() {
        Map<String, String> env = Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2", "SLURM_JOB_NODELIST", "localhost",
                "SLURM_JOB_ID", "5", "QUIRE_COORDINATOR_PORT", "45000", "QUIRE_TRANSPORT", "hazelcast",
                "QUIRE_SECRET_FILE", secretFile());
        WorldSpec spec = SlurmEnvironment.read(env);
        assertEquals(45000, spec.coordinatorPort());
        assertEquals(Transport.HAZELCAST, spec.transport());
        assertEquals("localhost", spec.coordinatorHost());
    }

    @Test
    void aSlurmStepWithoutASecretFileIsAClearError() {
        Map<String, String> env = Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2", "SLURM_JOB_NODELIST", "localhost",
                "SLURM_JOB_ID", "5");
        LaunchContractException e = assertThrows(LaunchContractException.class, () -> SlurmEnvironment.read(env));
        assertTrue(e.getMessage().startsWith("QUIRE_SECRET_FILE is not set: under srun every rank needs the job's"
                + " secret"), e.getMessage());
    }

    @Test
    void firstHostOfSlurmHostLists() {
        assertEquals("localhost", SlurmEnvironment.firstHost("localhost"));
        assertEquals("n1", SlurmEnvironment.firstHost("n[1-2]"));
        assertEquals("a", SlurmEnvironment.firstHost("a,b[1-3]"));
        assertEquals("rack2-node003-ib", SlurmEnvironment.firstHost("rack2-node[003,010-012]-ib,x"));
        assertThrows(LaunchContractException.class, () -> SlurmEnvironment.firstHost("node[1-2"));
        assertThrows(LaunchContractException.class, () -> SlurmEnvironment.firstHost("node[x-2]"));
        assertThrows(LaunchContractException.class, () -> SlurmEnvironment.firstHost(",a"));
    }

    @Test
    void presenceChecks() {
        assertTrue(LaunchContract.isPresent(validEnvironment()));
        assertFalse(LaunchContract.isPresent(Map.of("SLURM_PROCID", "0")));
        assertTrue(SlurmEnvironment.isPresent(Map.of("SLURM_PROCID", "0")));
    }
}
