package org.quire.format.hangar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * Properties over many random records (a seeded {@link Random}: jqwik is not available offline):
 * formatting and parsing are inverse, and a record damaged by one character either still parses
 * or fails with a {@link MalformedRecordException} at a position inside it, never otherwise.
 */
class LocatorRecordPropertyTest {

    private static final long SEED = 0x5eed_11L;
    private static final int RECORDS = 10_000;
    private static final int MUTATIONS = 50_000;
    private static final String ALPHANUMERIC =
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    /** What a mutation puts in: the grammar's own characters most often, then anything. */
    private static final String MUTANTS = "0123456789abcdefxyzXYZ$:* *$:-+.,()[]/\\\t\n\u0000"
            + "\u00e9\u00a0\u2007\u0660\uff10\ud83d\ude00\ud83d";

    @Test
    void parsingAFormattedRecordGivesItBackAndFormattingIsCanonical() throws Exception {
        Random random = new Random(SEED);
        for (int i = 0; i < RECORDS; i++) {
            LocatorRecord record = randomRecord(random, false);
            String text = record.format();
            LocatorRecord parsed = LocatorRecord.parse(text);
            assertEquals(record, parsed, text);
            assertEquals(text, parsed.format());
            SampleSchema schema = SampleSchema.fixed(record.shape());
            assertEquals(record, LocatorRecord.parse(text, schema), text);
        }
    }

    @Test
    void everyDialectParsesToTheSameFieldsAsTheSeedDialect() throws Exception {
        Random random = new Random(SEED + 1);
        for (int i = 0; i < RECORDS; i++) {
            LocatorRecord record = randomRecord(random, true);
            for (String text : dialects(record)) {
                assertEquals(record, LocatorRecord.parse(text), text);
            }
        }
    }

    @Test
    void aRecordWithOneCharacterChangedParsesOrFailsAtAPositionInsideIt() {
        Random random = new Random(SEED + 2);
        int failures = 0;
        for (int i = 0; i < MUTATIONS; i++) {
            String[] texts = dialects(randomRecord(random, true));
            String original = texts[random.nextInt(texts.length)];
            int at = random.nextInt(original.length() + 1);
            String mutated = mutate(original, at, random);
            try {
                LocatorRecord parsed = LocatorRecord.parse(mutated);
                // What parses is a valid record; reparsing what it formats to gives it back.
                LocatorRecord again = LocatorRecord.parse(parsed.format());
                assertEquals(new LocatorRecord(parsed.uid(), parsed.collection(), parsed.index(),
                        parsed.shape()), again, mutated);
            } catch (MalformedRecordException e) {
                failures++;
                // Left of the mutation the record is intact: the parser fails no earlier than
                // the field the mutation is in (whose end may have decided the dialect). It
                // looks ahead at most two fields: a lost separator merges the mutated field
                // with the next and shifts the one after into the next one's role, where it
                // no longer fits (+ 1: an inserted character).
                int fieldStart = fieldStart(original, at);
                int nextFieldEnd = separatorFrom(original, separatorFrom(original,
                        separatorFrom(original, at) + 1) + 1) + 1;
                assertTrue(e.position() >= fieldStart && e.position() <= nextFieldEnd
                        && e.position() <= mutated.length(), "mutated at " + at + " of '"
                        + original + "', field " + fieldStart + ".." + nextFieldEnd + ": "
                        + e.getMessage());
                assertEquals(1, e.getMessage().lines().count(), e.getMessage());
            } catch (RuntimeException e) {
                fail("'" + mutated + "' threw " + e, e);
            }
        }
        // The mutations are not all harmless: most break the record.
        assertTrue(failures > MUTATIONS / 2, failures + " of " + MUTATIONS + " failed");
    }

    /** The record in v0.3 (no checksum) or, with its checksum, in v0.4 and v0.5. */
    private static String[] dialects(LocatorRecord record) {
        if (record.checksum() == null) {
            return new String[] {record.format()};
        }
        String shape = record.format().substring(record.format().indexOf('*') + 1);
        return new String[] {
            "00:" + record.uid() + "$" + record.checksum() + "$" + record.collection() + " "
                    + record.index() + "*" + shape,
            "00:" + record.uid() + ":" + record.checksum() + ":" + record.collection() + ":"
                    + record.index() + ":" + shape,
        };
    }

    private static LocatorRecord randomRecord(Random random, boolean withChecksum) {
        StringBuilder uid = new StringBuilder();
        int uidLength = random.nextInt(8) == 0 ? 1 + random.nextInt(12) : 6;
        for (int i = 0; i < uidLength; i++) {
            uid.append(ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length())));
        }
        String checksum = withChecksum ? String.format("%016x", random.nextLong()) : null;
        long[] shape = new long[random.nextInt(6)];
        for (int d = 0; d < shape.length; d++) {
            shape[d] = number(random);
        }
        return new LocatorRecord(uid.toString(), checksum, number(random), number(random), shape);
    }

    /** Small numbers mostly (0 often), and now and then one up to {@link Long#MAX_VALUE}. */
    private static long number(Random random) {
        return switch (random.nextInt(10)) {
            case 0 -> 0;
            case 1 -> Long.MAX_VALUE - random.nextInt(3);
            case 2 -> random.nextLong() & Long.MAX_VALUE;
            default -> random.nextInt(300);
        };
    }

    private static boolean isSeparator(char c) {
        return c == ':' || c == '$' || c == ' ' || c == '*';
    }

    /** Where the field holding {@code at} starts: after the last separator before it. */
    private static int fieldStart(String text, int at) {
        int start = Math.min(at, text.length());
        while (start > 0 && !isSeparator(text.charAt(start - 1))) {
            start--;
        }
        return start == at && at > 0 ? fieldStart(text, at - 1) : start;
    }

    /** The first separator at or after {@code from}, or the end of the text. */
    private static int separatorFrom(String text, int from) {
        int end = Math.min(from, text.length());
        while (end < text.length() && !isSeparator(text.charAt(end))) {
            end++;
        }
        return end;
    }

    /** One character replaced, inserted or deleted at {@code at}. */
    private static String mutate(String text, int at, Random random) {
        char c = MUTANTS.charAt(random.nextInt(MUTANTS.length()));
        return switch (random.nextInt(3)) {
            case 0 -> at == text.length() ? text + c
                    : text.substring(0, at) + c + text.substring(at + 1);
            case 1 -> text.substring(0, at) + c + text.substring(at);
            default -> at == text.length() ? text.substring(0, at - 1)
                    : text.substring(0, at) + text.substring(at + 1);
        };
    }
}
