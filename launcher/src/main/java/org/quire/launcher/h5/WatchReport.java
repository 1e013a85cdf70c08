package org.quire.launcher.h5;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.StringJoiner;

import org.quire.launcher.JsonWriter;
import org.quire.launcher.TerminalText;

/**
 * What one look of {@code quire watch} saw, as the lines of its terminal view, as one plain
 * line, and as the JSON object of {@code --once --json}. Names and paths are escaped for the
 * terminal ({@link ValueFormat#name}); values are exact, as {@code quire h5 dump} prints them.
 *
 * @param file   the file as given
 * @param table  the dataset
 * @param drawn  the column the sparkline draws
 * @param sample the rows and the recent rows' bytes
 * @param rate   rows per second, when measured
 * @param writer the writer's state before the refresh this look read
 * @param cutBackFrom the rows of the look before, when a writer that reopened the file cut them
 *                    back to fewer
 */
record WatchReport(Path file, WatchedTable table, WatchedTable.Column drawn,
                   WatchedTable.Sample sample, OptionalDouble rate, WriterProbe writer,
                   OptionalLong cutBackFrom) {

    /** The lines of the terminal view. */
    List<String> screen() {
        List<String> lines = new ArrayList<>();
        lines.add("quire watch " + TerminalText.escape(file.toString()) + " "
                + ValueFormat.name(table.dataset().path()));
        lines.add("rows    " + sample.rows() + cutBackText().map(c -> "  (" + c + ")").orElse("")
                + rateText().map(r -> "  (" + r + ")").orElse(""));
        lines.add(TerminalText.escapeControls(writer.summary()));
        lines.add("latest  " + latest(", "));
        lines.add(ValueFormat.name(drawn.name()) + "  " + sparkline());
        return lines;
    }

    /** The view on one line, for a standard output that is not a terminal. */
    String line() {
        return "rows " + sample.rows() + cutBackText().map(c -> " (" + c + ")").orElse("") + rateText().map(r -> ", " + r).orElse("") + ", writer "
                + writer.state().label() + ", latest " + latest(" ") + ", "
                + ValueFormat.name(drawn.name()) + " " + sparkline();
    }

    /**
     * {@code {"file", "dataset", "rows", "columns": {name: latest value}, "rate_rows_per_second",
     * "writer": {"state", "summary"}}}; a value is null when there are no rows or it is no
     * number (NaN), the rate when it was not measured.
     */
    String json() {
        JsonWriter json = new JsonWriter().beginObject()
                .name("file").value(file.toString())
                .name("dataset").value(table.dataset().path())
                .name("rows").value(sample.rows())
                .name("columns").beginObject();
        byte[] latest = sample.latest();
        for (WatchedTable.Column column : table.columns()) {
            String value = sample.rows() == 0 ? null : column.json(latest);
            json.name(column.name());
            if (value == null) {
                json.value((String) null);
            } else {
                json.number(value);
            }
        }
        json.endObject().name("rate_rows_per_second");
        if (rate.isPresent()) {
            json.number(String.format(Locale.ROOT, "%.3f", rate.getAsDouble()));
        } else {
            json.value((String) null);
        }
        return json.name("writer").beginObject()
                .name("state").value(writer.state().label())
                .name("summary").value(writer.summary())
                .endObject().endObject().toJson();
    }

    private Optional<String> cutBackText() {
        return cutBackFrom.isPresent()
                ? Optional.of("cut back from " + cutBackFrom.getAsLong() + " by a writer that reopened the file")
                : Optional.empty();
    }

    private Optional<String> rateText() {
        return rate.isPresent()
                ? Optional.of(String.format(Locale.ROOT, "%.1f rows/s", rate.getAsDouble()))
                : Optional.empty();
    }

    /** {@code name=value} of every column of the last row, or "no rows". */
    private String latest(String separator) {
        if (sample.rows() == 0) {
            return "no rows";
        }
        byte[] row = sample.latest();
        StringJoiner values = new StringJoiner(separator);
        for (WatchedTable.Column column : table.columns()) {
            values.add(ValueFormat.name(column.name()) + "=" + column.text(row));
        }
        return values.toString();
    }

    /** The drawn column over the recent rows, with their range, exact. */
    private String sparkline() {
        double[] values = sample.values(drawn);
        int lowest = -1;
        int highest = -1;
        for (int i = 0; i < values.length; i++) {
            if (Double.isFinite(values[i])) {
                lowest = lowest < 0 || values[i] < values[lowest] ? i : lowest;
                highest = highest < 0 || values[i] > values[highest] ? i : highest;
            }
        }
        if (lowest < 0) {
            return values.length == 0 ? "no rows" : "no numbers in the last " + values.length + " rows";
        }
        return Sparkline.of(values) + "  last " + values.length + " rows, "
                + drawn.text(sample.recentRow(lowest)) + " .. " + drawn.text(sample.recentRow(highest));
    }
}
