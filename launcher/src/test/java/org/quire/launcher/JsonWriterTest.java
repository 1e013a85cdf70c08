package org.quire.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.sion.MiniJson;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tools' JSON writer: what it writes parses back to what was written, whatever the strings hold. */
class JsonWriterTest {

    private static final String[] AWKWARD_STRINGS = {"plain.sion", "with \"quotes\"", "back\\slash",
        "tab\tnew\nline\rreturn", "\u0000\u0001\u001f\u007f", "caf\u00e9 \u65e5\u672c \ud83d\ude00", "lone \ud800 surrogate",
        "/path/with/slashes", ""};

    @TempDir
    Path directory;

    @Test
    void stringsWithQuotesBackslashesControlAndNonAsciiCharactersRoundTrip() {
        for (String name : AWKWARD_STRINGS) {
            String json = new JsonWriter().beginObject().name(name).value(name).endObject().toJson();
            assertTrue(json.chars().allMatch(c -> c == '\n' || (c >= 0x20 && c < 0x7f)), "printable ASCII only: " + json);
            Map<?, ?> parsed = (Map<?, ?>) MiniJson.parse(json);
            assertEquals(Map.of(name, name), parsed, json);
        }
    }

    /** Python's strict parser decodes every string to the same code points as Java's. */
    @Test
    void pythonsJsonModuleReadsTheStringsBack() throws Exception {
        Path python = RequiredTool.require("python3", "python3");
        JsonWriter json = new JsonWriter().beginArray();
        for (String name : AWKWARD_STRINGS) {
            json.value(name);
        }
        Path file = directory.resolve("strings.json");
        Files.writeString(file, json.endArray().toJson(), StandardCharsets.US_ASCII);
        QuireCommand.Result decoded = QuireCommand.runProcess(new ProcessBuilder(python.toString(), "-c",
                "import json, sys\nfor s in json.load(open(sys.argv[1])): print(' '.join(str(ord(c)) for c in s))",
                file.toString()), Duration.ofSeconds(60));
        assertEquals(0, decoded.exitCode(), decoded.toString());
        List<String> expected = Arrays.stream(AWKWARD_STRINGS)
                .map(name -> name.codePoints().mapToObj(Integer::toString).collect(Collectors.joining(" "))).toList();
        assertEquals(expected, decoded.stdoutLines());
    }

    @Test
    void nestedContainersNumbersBooleansAndNullsParseBack() {
        String json = new JsonWriter().beginObject()
                .name("empty object").beginObject().endObject()
                .name("empty array").beginArray().endArray()
                .name("numbers").value(new long[] {0, -1, Long.MAX_VALUE, Long.MIN_VALUE})
                .name("no numbers").value(new long[0])
                .name("rows").beginArray().value(new long[] {1, 2}).beginObject().name("n").value(3).endObject().endArray()
                .name("yes").value(true)
                .name("absent").value((String) null)
                .endObject().toJson();
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("empty object", Map.of());
        expected.put("empty array", List.of());
        expected.put("numbers", List.of(0L, -1L, Long.MAX_VALUE, Long.MIN_VALUE));
        expected.put("no numbers", List.of());
        expected.put("rows", List.of(List.of(1L, 2L), Map.of("n", 3L)));
        expected.put("yes", true);
        expected.put("absent", null);
        assertEquals(expected, MiniJson.parse(json), json);
        assertEquals("{\n  \"yes\": true\n}\n", new JsonWriter().beginObject().name("yes").value(true).endObject().toJson());
    }

    /** Numbers given as text keep every digit (an unsigned 64-bit value); what JSON has no number for is refused. */
    @Test
    void numbersGivenAsTextAreWrittenAsTheyAreAndOnlyJsonNumbersAreAccepted() {
        String json = new JsonWriter().beginArray().number("18446744073709551615").number("-0.5").number("1e-05")
                .number("1.25E+16").endArray().toJson();
        assertEquals(List.of(new java.math.BigInteger("18446744073709551615"), -0.5, 1e-5, 1.25e16), MiniJson.parse(json));
        for (String notANumber : List.of("nan", "inf", "-inf", "+1", ".5", "1.", "01", "0x10", "")) {
            assertThrows(IllegalArgumentException.class, () -> new JsonWriter().number(notANumber), notANumber);
        }
    }

    @Test
    void anUnfinishedOrSecondDocumentIsAProgrammingError() {
        assertThrows(IllegalStateException.class, () -> new JsonWriter().beginArray().toJson());
        assertThrows(IllegalStateException.class, () -> new JsonWriter().value(1).value(2));
        assertEquals("[\n  1,\n  2\n]\n", new JsonWriter().beginArray().value(1).value(2).endArray().toJson());
        assertEquals(List.of(1L, 2L), MiniJson.parse(new JsonWriter().beginArray().value(1).value(2).endArray().toJson()));
    }
}
