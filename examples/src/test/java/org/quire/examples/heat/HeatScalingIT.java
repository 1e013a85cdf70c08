package org.quire.examples.heat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.launcher.QuireCommand;

/**
 * {@link HeatScaling} with tiny sizes: real {@code quire run} jobs on 1 and 2 ranks, strong and
 * weak; the CSV's columns and rows, the PNG, the printed table.
 */
class HeatScalingIT {

    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    Path directory;

    @Test
    void oneAndTwoRanksStrongAndWeak() throws Exception {
        System.setProperty("java.awt.headless", "true");
        Path root = QuireCommand.repositoryRoot();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = HeatScaling.run(new String[] {"--ranks", "1,2", "--grid", "64", "--weak-grid", "48", "--steps",
            "4", "--out", directory.toString(), "--quire", root.resolve("quire").toString(), "--cp",
            root.resolve("examples/target/quire-examples.jar").toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, printed + err.toString(StandardCharsets.UTF_8));

        List<String> csv = Files.readAllLines(directory.resolve("heat-scaling.csv"));
        assertEquals("mode,ranks,grid,cores,oversubscribed,steps,step_s,speedup,efficiency,checkpoints,"
                + "checkpoint_bytes,checkpoint_s,checkpoint_bytes_per_s,restart_s", csv.get(0));
        int cores = Runtime.getRuntime().availableProcessors();
        String[][] expected = {{"strong", "1", "64"}, {"strong", "2", "64"}, {"weak", "1", "48"}, {"weak", "2", "68"}};
        assertEquals(1 + expected.length, csv.size(), String.join("\n", csv));
        for (int i = 0; i < expected.length; i++) {
            String[] row = csv.get(i + 1).split(",");
            assertEquals(14, row.length, csv.get(i + 1));
            assertArrayEquals(expected[i], Arrays.copyOf(row, 3), csv.get(i + 1));
            int ranks = Integer.parseInt(row[1]);
            assertEquals(Integer.toString(cores), row[3]);
            assertEquals(ranks > cores ? "yes" : "no", row[4]);
            assertEquals("4", row[5]);
            assertTrue(Double.parseDouble(row[6]) > 0, "step_s " + csv.get(i + 1));
            assertEquals("2", row[9]);
            // Two checkpoints of at least the grid's doubles each.
            long grid = Long.parseLong(row[2]);
            assertTrue(Long.parseLong(row[10]) > 2 * grid * grid * Double.BYTES, csv.get(i + 1));
            assertTrue(Double.parseDouble(row[11]) > 0 && Double.parseDouble(row[12]) > 0, csv.get(i + 1));
            assertTrue(Double.parseDouble(row[13]) > 0, "restart_s " + csv.get(i + 1));
        }
        assertEquals("1.0000", csv.get(1).split(",")[7], "the first rank count is the speedup's base");

        Path png = directory.resolve("heat-scaling.png");
        byte[] bytes = Files.readAllBytes(png);
        assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(bytes, PNG_SIGNATURE.length));
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(800, image.getWidth());
        assertEquals(900, image.getHeight());

        List<String> table = printed.lines().dropWhile(line -> !line.startsWith("mode ")).toList();
        assertTrue(table.get(0).matches("mode +ranks +grid +step ms +speedup +eff\\. +ckpt MB/s +ckpt s +restart s *"),
                printed);
        for (int i = 0; i < expected.length; i++) {
            assertTrue(table.get(i + 1).matches(expected[i][0] + " +" + expected[i][1] + " +" + expected[i][2]
                    + "( +[0-9.]+){6} *"), table.get(i + 1));
        }
        assertEquals("wrote " + directory.resolve("heat-scaling.csv") + " and " + png, table.get(5));
        assertTrue(!Files.exists(directory.resolve("runs/strong-1")), "the runs' checkpoints are removed");
    }
}
