package org.quire.launcher.sion;

import org.quire.format.sion.Meta1;
import org.quire.format.sion.SionFileNames;
import org.quire.format.sion.SionJournalHeader;
import org.quire.format.sion.SionNotClosedException;
import org.quire.format.sion.SionTask;
import org.quire.format.sion.TaskLocation;
import org.quire.launcher.sion.DumpFields.Field;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The text form of {@code quire sion dump}: one block of {@code name value} lines per physical
 * file, then the task table. Lists are comma-separated without spaces, so each table row splits
 * on white space; a value the file does not store is shown as {@code -}.
 */
final class DumpText {

    private static final String ABSENT = "-";

    private DumpText() {
    }

    static void print(SionSetMetadata set, PrintStream out) {
        out.println(summary(set));
        for (int file = 0; file < set.files().size(); file++) {
            out.println();
            out.println("physical file " + set.fileNumber(file));
            for (Field field : DumpFields.header(set.files().get(file))) {
                printField(field, out);
            }
        }
        out.println();
        out.println("tasks");
        printTaskTable(set.tasks(), out);
    }

    /**
     * What a file its writer never closed still shows: META1 as written at open, and the state of
     * its recovery journal, with what to do about it.
     */
    static void printUnclosed(SionNotClosedException notClosed, long fileSize, Meta1 meta1,
                              Optional<SionJournalHeader> journal, PrintStream out) {
        Path file = notClosed.file();
        out.println(file + ": SION file NOT CLOSED by its writer: no META2, so no task's data can be delimited");
        out.println();
        out.println("physical file " + meta1.fixedPart().fileNumber() + " (META1 as written at open)");
        for (Field field : DumpFields.meta1(file, fileSize, meta1, meta1.fixedPart().flag1() >>> 32)) {
            printField(field, out);
        }
        out.println();
        out.println("recovery journal");
        printField(new Field("file", SionFileNames.journal(file).toString()), out);
        if (journal.isEmpty()) {
            printField(new Field("state", "absent"), out);
        } else {
            SionJournalHeader header = journal.get();
            printField(new Field("state", "present, header valid"), out);
            printField(new Field("filenumber", (long) header.fileNumber()), out);
            printField(new Field("nfiles", (long) header.fileCount()), out);
            printField(new Field("ntasks", (long) header.taskCount()), out);
            printField(new Field("journal_id", Long.toHexString(header.journalId())), out);
        }
        out.println();
        out.println(journal.isPresent() ? "to recover: quire sion recover " + notClosed.file()
                : "not recoverable: " + notClosed.recoveryHint());
    }

    private static String summary(SionSetMetadata set) {
        int fileCount = set.fileCountOfSet();
        if (set.memberAlone()) {
            return set.name() + ": physical file " + set.fileNumber(0) + " of a SION set of " + fileCount
                    + " files, read alone: " + set.tasks().size() + " of the set's tasks (open file 0 for all)";
        }
        return set.name() + ": SION " + (fileCount == 1 ? "file" : "set of " + fileCount + " files") + ", "
                + set.tasks().size() + " tasks";
    }

    private static void printField(Field field, PrintStream out) {
        String label = String.format("  %-22s", field.name());
        if (field.value() instanceof List<?> mapping) {
            if (mapping.isEmpty()) {
                out.println(label + ABSENT);
            }
            for (int task = 0; task < mapping.size(); task++) {
                TaskLocation location = (TaskLocation) mapping.get(task);
                out.println((task == 0 ? label : " ".repeat(label.length())) + "task " + task + " -> file "
                        + location.fileNumber() + ", local rank " + location.localRank());
            }
        } else {
            out.println(label + text(field.value()));
        }
    }

    private static void printTaskTable(List<SionTask> tasks, PrintStream out) {
        List<List<Field>> rows = tasks.stream().map(DumpFields::task).toList();
        List<String> names = rows.get(0).stream().map(Field::name).toList();
        List<String[]> cells = new ArrayList<>();
        for (List<Field> row : rows) {
            cells.add(row.stream().map(field -> text(field.value())).toArray(String[]::new));
        }
        int[] widths = names.stream().mapToInt(String::length).toArray();
        for (String[] row : cells) {
            for (int column = 0; column < row.length; column++) {
                widths[column] = Math.max(widths[column], row[column].length());
            }
        }
        out.println(line(names.toArray(String[]::new), widths, rows.get(0)));
        for (String[] row : cells) {
            out.println(line(row, widths, rows.get(0)));
        }
    }

    /** Numbers right-aligned, lists left-aligned, two spaces apart. */
    private static String line(String[] cells, int[] widths, List<Field> kinds) {
        StringBuilder text = new StringBuilder();
        for (int column = 0; column < cells.length; column++) {
            boolean list = kinds.get(column).value() instanceof long[];
            String format = "%" + (list ? "-" : "") + widths[column] + "s";
            text.append("  ").append(String.format(format, cells[column]));
        }
        return text.toString().stripTrailing();
    }

    private static String text(Object value) {
        if (value == null) {
            return ABSENT;
        }
        if (value instanceof long[] values) {
            return Arrays.stream(values).mapToObj(Long::toString).collect(Collectors.joining(","));
        }
        return value.toString();
    }
}
