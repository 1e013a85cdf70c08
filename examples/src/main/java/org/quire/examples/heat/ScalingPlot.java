package org.quire.examples.heat;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleFunction;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * {@link HeatScaling}'s PNG (JFreeChart): against the rank count, one panel each for the time per
 * step, the checkpoint bandwidth and the restart time, a line per mode (strong, weak), and a
 * vertical marker at the machine's core count, beyond which ranks are oversubscribed.
 */
final class ScalingPlot {

    private static final int WIDTH = 800;
    private static final int HEIGHT = 900;
    private static final List<String> MODES = List.of("strong", "weak");
    private static final Color[] COLOURS = {new Color(0xd62728), new Color(0x1f77b4)};

    private ScalingPlot() {
    }

    static void write(List<HeatScaling.Row> rows, Path png) throws IOException {
        NumberAxis ranks = new NumberAxis("ranks");
        ranks.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(ranks);
        plot.add(panel(rows, "time per step (ms)", row -> row.run().stepSeconds() * 1e3, true));
        plot.add(panel(rows, "checkpoint (MB/s)", row -> row.run().checkpointBytesPerSecond() / 1e6, false));
        plot.add(panel(rows, "restart (s)", row -> row.restart().restartSeconds(), false));
        int cores = rows.isEmpty() ? 0 : rows.get(0).cores();
        for (XYPlot panel : plot.getSubplots()) {
            panel.addDomainMarker(new ValueMarker(cores, Color.GRAY, new BasicStroke(1f)));
        }
        JFreeChart chart = new JFreeChart("HeatDiffusion scaling (grey line: " + cores + " cores)",
                JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, HEIGHT);
    }

    /** One panel; the modes keep their colours in every panel, and only the first adds them to the legend. */
    private static XYPlot panel(List<HeatScaling.Row> rows, String label, ToDoubleFunction<HeatScaling.Row> value,
                                boolean inLegend) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        for (String mode : MODES) {
            XYSeries series = new XYSeries(mode);
            rows.stream().filter(row -> row.mode().equals(mode))
                    .forEach(row -> series.add(row.ranks(), value.applyAsDouble(row)));
            int index = data.getSeriesCount();
            data.addSeries(series);
            renderer.setSeriesPaint(index, COLOURS[index]);
            renderer.setSeriesVisibleInLegend(index, inLegend);
        }
        XYPlot panel = new XYPlot(data, null, new NumberAxis(label), renderer);
        panel.setBackgroundPaint(Color.WHITE);
        panel.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return panel;
    }
}
