package org.quire.runtime;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LaunchContractTest {

    private static Map<String, String> validEnvironment() {
        Map<String, String> env = new HashMap<>();
        env.put("QUIRE_RANK", "2");
        env.put("QUIRE_SIZE", "4");
        env.put("QUIRE_TRANSPORT", "hazelcast");
        env.put("QUIRE_COORDINATOR", "127.0.0.1:41234");
        env.put("QUIRE_JOB_ID", "j1");
        return env;
    }

    @Test
    void readsTheWorldQuireRunDescribes() {
        WorldSpec spec = LaunchContract.read(validEnvironment());
        assertEquals(new WorldSpec(2, 4, Transport.HAZELCAST, "127.0.0.1", 41234, "j1", false), spec);
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
                "SLURM_STEP_NODELIST", "node[07-09,12],gpu1", "SLURM_JOB_ID", "1234", "SLURM_STEP_ID", "2");
        WorldSpec spec = SlurmEnvironment.read(env);
        assertEquals(3, spec.rank());
        assertEquals(8, spec.size());
        assertEquals("node07", spec.coordinatorHost());
        assertEquals(30000 + (1234 * 31 + 2) % 20000, spec.coordinatorPort());
        assertEquals(Transport.MPJ, spec.transport());
        assertTrue(spec.rankZeroRunsCoordinator());
    }

    @Test
    void slurmCoordinatorPortCanBeOverridden() {
        Map<String, String> env = Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2", "SLURM_JOB_NODELIST", "localhost",
                "SLURM_JOB_ID", "5", "QUIRE_COORDINATOR_PORT", "45000", "QUIRE_TRANSPORT", "hazelcast");
        WorldSpec spec = SlurmEnvironment.read(env);
        assertEquals(45000, spec.coordinatorPort());
        assertEquals(Transport.HAZELCAST, spec.transport());
        assertEquals("localhost", spec.coordinatorHost());
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
